/**
 * Project databases across the lifecycle: POST /v1/projects brings up a project with a working database and the
 * engine's version; the demo's usable projects get their schemas on first use; rows survive a pause and restore and
 * a server restart; creating a database is a durable step of the end of COMING_UP (a server stopped half-way
 * finishes it after a restart).
 */
import { existsSync } from 'node:fs'
import { cp, mkdir, readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { V1CreatedProject } from '../../src/contracts/database'
import { createApp } from '../../src/server/app'
import { openPostgres } from '../../src/server/db/postgres'
import { CLAIM_LEASE_MS } from '../../src/server/engine/lifecycle'
import { createProjectDatabases } from '../../src/server/projectdb'
import { projectDbPrefix } from '../../src/server/projectdb/postgres'
import type { ProjectDatabases } from '../../src/server/projectdb/types'
import {
  createSeededStore,
  createTestStore,
  DEVELOPER,
  isPostgres,
  json,
  OWNER,
  projectByName,
  READONLY,
  startTestServer,
  testConfig,
  type TestServer,
  type TestStore,
} from './helpers'

const COMING_UP_MS = 15_000

async function statusOf(s: TestServer, ref: string): Promise<{ status: string; db_version: string }> {
  const { rows } = await s.db.query<{ status: string; db_version: string }>('select status, db_version from projects where ref = $1', [ref])
  return rows[0]
}

describe('POST /v1/projects', () => {
  let s: TestServer
  let owner: string
  beforeAll(async () => {
    s = await startTestServer({ config: { lifecycle: { comingUpMs: COMING_UP_MS } } })
    owner = await s.signIn(OWNER)
  })
  afterAll(() => s?.close())

  it('creates a COMING_UP project that comes up with a working database of the engine’s version', async () => {
    const res = await s.request('/v1/projects', json({ name: '  Fresh start ', organization_slug: 'demo-pro', region: 'eu-west-1', db_pass: 'hunter22' }, { cookie: owner }))
    expect(res.status).toBe(201)
    const body = V1CreatedProject.parse(await res.json())
    expect(body).toMatchObject({ name: 'Fresh start', organization_slug: 'demo-pro', region: 'eu-west-1', status: 'COMING_UP' })
    expect(JSON.stringify(body)).not.toContain('hunter22')
    const version = await s.projectDbs.serverVersion!()
    expect(version).toMatch(isPostgres ? /^15\.\d+$/ : /^1[78]\.\d+$/)
    expect(await statusOf(s, body.ref)).toEqual({ status: 'COMING_UP', db_version: version })
    expect(await s.projectDbs.exists(body.ref)).toBe(false)
    await expect(s.projectDbs.transaction(body.ref, {}, (tx) => tx.query('select 1'))).rejects.toMatchObject({
      code: 'database_unavailable',
    })

    s.clock.advance(COMING_UP_MS)
    await s.engine.runDue()
    expect(await statusOf(s, body.ref)).toEqual({ status: 'ACTIVE_HEALTHY', db_version: version })
    expect(await s.projectDbs.exists(body.ref)).toBe(true)
    const r = await s.projectDbs.transaction(body.ref, {}, (tx) =>
      tx.query(`select split_part(current_setting('server_version'), ' ', 1) as v`),
    )
    expect(r.rows).toEqual([{ v: version }])
    // The v1 read reports the same version.
    const v1 = (await (await s.request(`/v1/projects/${body.ref}`, { headers: { cookie: owner } })).json()) as {
      database: { version: string }
    }
    expect(v1.database.version).toBe(version)
  })

  it('answers 404 for an organization the person is not a member of, 403 without projects:write, 400 for a bad body', async () => {
    expect((await s.request('/v1/projects', json({ name: 'X', organization_slug: 'nope' }, { cookie: owner }))).status).toBe(404)
    const readonly = await s.signIn(READONLY)
    const denied = await s.request('/v1/projects', json({ name: 'X', organization_slug: 'demo-pro' }, { cookie: readonly }))
    expect(denied.status).toBe(403)
    expect(await denied.json()).toMatchObject({ message: expect.stringContaining('permission') })
    const bad = await s.request('/v1/projects', json({ name: '   ', organization_slug: 'demo-pro' }, { cookie: owner }))
    expect(bad.status).toBe(400)
    const badRegion = await s.request('/v1/projects', json({ name: 'X', organization_slug: 'demo-pro', region: 'mars-1' }, { cookie: owner }))
    expect(badRegion.status).toBe(400)
    const { rows } = await s.db.query<{ n: number }>(`select count(*)::int as n from projects where name = 'X'`)
    expect(rows[0].n).toBe(0)
  })

  it('a Developer may create one; it is credited to them', async () => {
    const developer = await s.signIn(DEVELOPER)
    const res = await s.request('/v1/projects', json({ name: 'Dev made', organization_slug: 'demo-pro' }, { cookie: developer }))
    expect(res.status).toBe(201)
    const { rows } = await s.db.query<{ email: string }>(
      `select a.primary_email as email from projects p join accounts a on a.id = p.created_by where p.name = 'Dev made'`,
    )
    expect(rows).toEqual([{ email: DEVELOPER }])
  })
})

describe('demo schemas, pause and restore, restart', () => {
  const store = createTestStore({ durable: true })
  let s: TestServer
  let recipeBox: string
  let storefront: string
  beforeAll(async () => {
    s = await startTestServer({ store: await store, config: { lifecycle: { goingDownMs: 10, pausingMs: 10, restoringMs: 10 } } })
    recipeBox = (await projectByName(s, 'Recipe Box')).ref
    storefront = (await projectByName(s, 'Acme Storefront')).ref
  })
  afterAll(async () => {
    await s?.close({ destroy: false })
    await (await store).destroy()
  })

  it('creates no demo database at start; the first use creates it from its demo schema', async () => {
    expect(await s.projectDbs.exists(recipeBox)).toBe(false)
    const anon = await s.projectDbs.transaction(recipeBox, { role: 'anon' }, (tx) =>
      tx.query('select title from recipes order by id'),
    )
    expect(anon.rows.map((r) => r.title)).toEqual(['Sourdough loaf', 'Tortilla española', 'Tomato and egg stir-fry'])
    const all = await s.projectDbs.transaction(recipeBox, { role: 'service_role' }, (tx) => tx.query('select count(*)::int as n from recipes'))
    expect(all.rows).toEqual([{ n: 5 }])
    // Through the view, row level security still applies.
    const summaries = await s.projectDbs.transaction(recipeBox, { role: 'anon' }, (tx) => tx.query('select title from recipe_summaries'))
    expect(summaries.rows).toHaveLength(3)
    // anon reads ratings but may not add one; a STABLE function with its optional argument left out.
    await expect(
      s.projectDbs.transaction(recipeBox, { role: 'anon' }, (tx) => tx.query(`insert into ratings (recipe_id, rater, stars) values (1, 'x', 5)`)),
    ).rejects.toMatchObject({ code: '42501' })
    const quick = await s.projectDbs.transaction(recipeBox, { role: 'anon' }, (tx) => tx.query('select title from recipes_within(30)'))
    expect(quick.rows).toEqual([{ title: 'Tomato and egg stir-fry' }])
    const rated = await s.projectDbs.transaction(recipeBox, { role: 'service_role' }, (tx) =>
      tx.query(`select rater, stars from rate_recipe(2, 5)`),
    )
    expect(rated.rows).toEqual([{ rater: 'anonymous', stars: 5 }])
  })

  it('the storefront: anon sees published products only, cannot read customers, and place_order works for the owner', async () => {
    const products = await s.projectDbs.transaction(storefront, { role: 'anon' }, (tx) => tx.query('select sku from product_catalog order by id'))
    expect(products.rows.map((r) => r.sku)).toEqual(['TEE-BLU-M', 'HOOD-GRY-L', 'MUG-WHT', 'NOTE-A5'])
    await expect(s.projectDbs.transaction(storefront, { role: 'anon' }, (tx) => tx.query('select * from customers'))).rejects.toMatchObject({
      code: '42501',
    })
    const order = await s.projectDbs.transaction(storefront, {}, (tx) =>
      tx.query(`select status from place_order('new@example.com', 'MUG-WHT')`),
    )
    expect(order.rows).toEqual([{ status: 'pending' }])
    const comments = await s.projectDbs.transaction(storefront, {}, (tx) =>
      tx.query(`select obj_description('public.products'::regclass, 'pg_class') as c`),
    )
    expect(comments.rows[0].c).toMatch(/published/)
  })

  it('a pause closes the database and refuses it; a restore brings it back with every row', async () => {
    const owner = await s.signIn(OWNER)
    await s.projectDbs.transaction(storefront, {}, (tx) => tx.query(`insert into categories (slug, name) values ('kept', 'Kept')`))
    expect(s.projectDbs.openRefs()).toContain(storefront)
    expect((await s.request(`/v1/projects/${storefront}/pause`, { method: 'POST', headers: { cookie: owner } })).status).toBe(200)
    await expect(s.projectDbs.transaction(storefront, {}, (tx) => tx.query('select 1'))).rejects.toMatchObject({
      code: 'database_unavailable',
    })
    s.clock.advance(10)
    await s.engine.runDue()
    s.clock.advance(10)
    await s.engine.runDue()
    expect((await statusOf(s, storefront)).status).toBe('INACTIVE')
    await s.projectDbs.close(storefront) // waits for the close the pause started
    expect(s.projectDbs.openRefs()).not.toContain(storefront)

    expect((await s.request(`/platform/projects/${storefront}/restore`, { method: 'POST', headers: { cookie: owner } })).status).toBe(200)
    s.clock.advance(10)
    await s.engine.runDue()
    expect((await statusOf(s, storefront)).status).toBe('ACTIVE_HEALTHY')
    const r = await s.projectDbs.transaction(storefront, {}, (tx) => tx.query(`select name from categories where slug = 'kept'`))
    expect(r.rows).toEqual([{ name: 'Kept' }])
  })

  it('rows survive a server restart', async () => {
    await s.projectDbs.transaction(recipeBox, {}, (tx) => tx.query(`insert into authors (name) values ('After restart')`))
    await s.close({ destroy: false })
    s = await startTestServer({ store: await store, clock: s.clock })
    expect(s.projectDbs.openRefs()).toEqual([])
    const r = await s.projectDbs.transaction(recipeBox, { role: 'anon' }, (tx) => tx.query(`select count(*)::int as n from authors where name = 'After restart'`))
    expect(r.rows).toEqual([{ n: 1 }])
  })
})

describe('durable creation', () => {
  it('a server stopped while creating a database at the end of COMING_UP finishes it after a restart', async () => {
    const config = { lifecycle: { comingUpMs: COMING_UP_MS } }
    const { store, clock } = await createSeededStore(config)
    const stores: TestStore[] = []
    // A Postgres connection the test kills must not take the test process down with it (pg emits 'error' on a
    // checked-out client that loses its connection): the first server's clients get a listener.
    const connect = pg.Client.prototype.connect
    const spy = vi.spyOn(pg.Client.prototype, 'connect').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      this.on('error', () => {})
      return (connect as unknown as (...a: unknown[]) => Promise<pg.Client>).apply(this, args)
    })
    // On Postgres the first server's store is not the TestStore's (the first server never closes it: it hangs in a create).
    const firstDb = isPostgres ? openPostgres(store.placement.databaseUrl!, 5) : await store.open()
    // The first server's databases never finish a create: the server "dies" while the transition is under way.
    const real = createProjectDatabases(testConfig({ ...store.placement, ...config }), firstDb)
    let hung!: (ref: string) => void
    const hungOn = new Promise<string>((resolve) => (hung = resolve))
    const hanging: ProjectDatabases = {
      ...real,
      create: async (ref) => {
        // What a crash half-way leaves: an incomplete database under construction.
        if (isPostgres) {
          const admin = new pg.Client({ connectionString: store.placement.databaseUrl })
          await admin.connect()
          await admin.query(`create database "${projectDbPrefix(store.placement.databaseUrl!)}${ref}_partial"`)
          await admin.end()
        } else {
          await mkdir(path.join(store.placement.dataDir, 'projects', ref, 'base'), { recursive: true })
        }
        hung(ref)
        return new Promise<void>(() => {})
      },
    }
    try {
      // Habit Tracker is COMING_UP in the demo.
      const dying = await createApp({ db: firstDb, config: testConfig({ ...store.placement, ...config }), clock, projectDbs: hanging })
      const { rows } = await firstDb.query<{ ref: string }>(`select ref from projects where name = 'Habit Tracker'`)
      const ref = rows[0].ref
      clock.advance(COMING_UP_MS)
      void dying.engine.runDue()
      expect(await hungOn).toBe(ref)
      expect(await real.exists(ref)).toBe(false) // half made does not count
      if (isPostgres) {
        // The process is gone: the server ends its connections (the claim on the transition committed before the work).
        const admin = new pg.Client({ connectionString: store.placement.databaseUrl })
        await admin.connect()
        await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
        )
        await admin.end()
      }
      spy.mockRestore()
      await real.closeAll()
      // What the disk holds at that moment is what a restarted server finds (on PGlite, a copy of the data folder:
      // the first server's store stays open, as a killed process's would be gone).
      const after = isPostgres ? store : await createTestStore({ durable: true })
      if (after !== store) await cp(store.placement.dataDir, after.placement.dataDir, { recursive: true })
      stores.push(after)

      const second = await startTestServer({ store: after, clock, config })
      expect((await statusOf(second, ref)).status).toBe('COMING_UP')
      // The first server's claim on the transition holds until its lease runs out; then the creation is finished.
      await second.engine.runDue()
      expect((await statusOf(second, ref)).status).toBe('COMING_UP')
      clock.advance(CLAIM_LEASE_MS + 1)
      await second.engine.runDue()
      expect((await statusOf(second, ref)).status).toBe('ACTIVE_HEALTHY')
      expect(await second.projectDbs.exists(ref)).toBe(true)
      const r = await second.projectDbs.transaction(ref, { role: 'anon' }, (tx) => tx.query(`select current_user as who`))
      expect(r.rows).toEqual([{ who: 'anon' }])
      if (isPostgres) {
        // This store's databases only: the cluster is shared with the other test files, whose creations run now.
        const { rows: left } = await second.db.query<{ n: number }>(
          `select count(*)::int as n from pg_database where datname like $1 || '%\\_partial'`,
          [projectDbPrefix(store.placement.databaseUrl!).replace(/_/g, '\\_')],
        )
        expect(left).toEqual([{ n: 0 }])
      } else {
        // The incomplete folder was replaced by a complete one; no partial copy is left behind.
        expect(existsSync(path.join(after.placement.dataDir, 'projects', ref, 'PG_VERSION'))).toBe(true)
        expect((await readdir(path.join(after.placement.dataDir, 'projects'))).filter((n) => n.startsWith('.partial'))).toEqual([])
      }
      await second.close({ destroy: false })
    } finally {
      spy.mockRestore()
      // The first server waits on its hanging create for good: on PGlite its folder is removed without closing it.
      if (!isPostgres) await rm(store.placement.dataDir, { recursive: true, force: true })
      else {
        void firstDb.close().catch(() => {})
        await store.destroy()
      }
      for (const other of stores) if (other !== store) await other.destroy()
    }
  }, 120_000)
})
