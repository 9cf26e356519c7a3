/**
 * The development switches live in one table (dev_switches, migration 006): set and cleared by the controls, used
 * up by the operation they fail. And a database that had run migrations 001–005 with switches set in their old
 * places (a column of projects, a column of project_api_keys, project_upgrade_failures) keeps them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/server/app'
import { migrations } from '../../src/server/db/migrate'
import { FakeClock, OWNER, createTestStore, json, projectByName, startTestServer, testConfig, type TestServer } from './helpers'

const RESTORING_MS = 1_000
const JWT_UPDATE_MS = 1_000
const STEP_MS = 1_000

async function switches(s: { db: TestServer['db'] }, projectId: number) {
  const { rows } = await s.db.query<{ name: string; at_step: number | null }>(
    'select name, at_step from dev_switches where project_id = $1 order by name',
    [projectId],
  )
  return rows
}

describe('the dev_switches table', () => {
  let s: TestServer
  let cookie: string
  beforeAll(async () => {
    s = await startTestServer({
      config: { lifecycle: { restoringMs: RESTORING_MS, jwtUpdateMs: JWT_UPDATE_MS, upgradeStepMs: STEP_MS }, freeProjectLimit: 100 },
    })
    cookie = await s.signIn(OWNER)
  })
  afterAll(() => s?.close())

  async function devProject(name: string, status: string) {
    const res = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name, status }))
    expect(res.status).toBe(201)
    return projectByName(s, name)
  }

  it('holds every switch of a project, one row each, and the controls turn them off again', async () => {
    const p = await devProject('Switchboard', 'ACTIVE_HEALTHY')
    expect((await s.request(`/dev/projects/${p.ref}/fail-next-restore`, json({ fail: true }))).status).toBe(200)
    expect((await s.request(`/dev/projects/${p.ref}/fail-next-jwt-update`, { method: 'POST' })).status).toBe(200)
    expect((await s.request(`/dev/projects/${p.ref}/fail-next-upgrade`, json({ at_step: 3 }))).status).toBe(200)
    // Setting a switch again replaces it.
    expect((await s.request(`/dev/projects/${p.ref}/fail-next-upgrade`, json({ at_step: 6 }))).status).toBe(200)
    expect(await switches(s, p.id)).toEqual([
      { name: 'fail_next_jwt_update', at_step: null },
      { name: 'fail_next_restore', at_step: null },
      { name: 'fail_next_upgrade', at_step: 6 },
    ])
    const off = await s.request(`/dev/projects/${p.ref}/fail-next-restore`, json({ fail: false }))
    expect(await off.json()).toEqual({ ref: p.ref, fail_next_restore: false })
    expect((await switches(s, p.id)).map((r) => r.name)).toEqual(['fail_next_jwt_update', 'fail_next_upgrade'])
  })

  it('refuses a switch without a value, or a value on the others', async () => {
    const p = await devProject('Constrained', 'ACTIVE_HEALTHY')
    await expect(s.db.query(`insert into dev_switches (project_id, name) values ($1, 'fail_next_upgrade')`, [p.id])).rejects.toThrow()
    await expect(
      s.db.query(`insert into dev_switches (project_id, name, at_step) values ($1, 'fail_next_restore', 2)`, [p.id]),
    ).rejects.toThrow()
    await expect(s.db.query(`insert into dev_switches (project_id, name) values ($1, 'fail_everything')`, [p.id])).rejects.toThrow()
  })

  it('a restore uses its switch up', async () => {
    const p = await devProject('Restore switch', 'INACTIVE')
    await s.request(`/dev/projects/${p.ref}/fail-next-restore`, json({ fail: true }))
    expect((await s.request(`/platform/projects/${p.ref}/restore`, { method: 'POST', headers: { cookie } })).status).toBe(200)
    s.clock.advance(RESTORING_MS)
    await s.engine.runDue()
    expect((await projectByName(s, 'Restore switch')).status).toBe('RESTORATION_FAILED')
    expect(await switches(s, p.id)).toEqual([])
  })

  it('a JWT secret update uses its switch up', async () => {
    const p = await devProject('JWT switch', 'ACTIVE_HEALTHY')
    await s.request(`/dev/projects/${p.ref}/fail-next-jwt-update`, { method: 'POST' })
    const res = await s.request(`/platform/props/project/${p.ref}/jwt-secret-update`, json({}, { cookie }))
    expect(res.status).toBe(202)
    s.clock.advance(JWT_UPDATE_MS)
    await s.engine.runDue()
    const { rows } = await s.db.query<{ status: string }>('select status from jwt_secret_updates where project_id = $1', [p.id])
    expect(rows).toEqual([{ status: 'failed' }])
    expect(await switches(s, p.id)).toEqual([])
  })

  it('an upgrade uses its switch up and records the step it fails at', async () => {
    const p = await devProject('Upgrade switch', 'ACTIVE_HEALTHY')
    await s.request(`/dev/projects/${p.ref}/fail-next-upgrade`, json({ at_step: 2 }))
    const res = await s.request(`/v1/projects/${p.ref}/upgrade`, json({ target_version: '17' }, { cookie }))
    expect(res.status).toBe(201)
    expect(await switches(s, p.id)).toEqual([])
    const { rows } = await s.db.query<{ fail_at_step: number }>('select fail_at_step from project_upgrades where project_id = $1', [p.id])
    expect(rows).toEqual([{ fail_at_step: 2 }])
  })
})

describe('migrating a database that had run 001–005 with switches set', () => {
  it('moves every set switch into dev_switches and drops the old column, column and table', async () => {
    const store = await createTestStore()
    const db = await store.open()
    try {
      const upTo005 = migrations.slice(0, migrations.findIndex((m) => m.id === '005_api_keys') + 1)
      expect(upTo005.map((m) => m.id)).toEqual(['001_initial', '002_status_changed_at', '003_pause_restore', '004_upgrades_usage', '005_api_keys'])
      await db.transaction(async (tx) => {
        await tx.exec(`create table schema_migrations (id text primary key, applied_at timestamptz not null default now())`)
        for (const m of upTo005) {
          await tx.exec(m.sql)
          await tx.query('insert into schema_migrations (id) values ($1)', [m.id])
        }
      })
      // A user's data folder: an account, an organization, four projects, one switch of each kind set the old way.
      await db.query(`insert into accounts (username, primary_email, password_hash) values ('owner', $1, 'x')`, [OWNER])
      const { rows: org } = await db.query<{ id: number }>(
        `insert into organizations (slug, name, plan_id) values ('kept', 'Kept', 'pro') returning id`,
      )
      const ids: Record<string, number> = {}
      for (const [name, ref] of [['restore', 'aaaaaaaaaaaaaaaaaaaa'], ['jwt', 'bbbbbbbbbbbbbbbbbbbb'], ['upgrade', 'cccccccccccccccccccc'], ['none', 'dddddddddddddddddddd']]) {
        const { rows } = await db.query<{ id: number }>(
          `insert into projects (ref, organization_id, name, status, region, db_version, inserted_at, updated_at)
           values ($1, $2, $3, 'ACTIVE_HEALTHY', 'us-east-1', '15.6', now(), now()) returning id`,
          [ref, org[0].id, name],
        )
        ids[name] = rows[0].id
      }
      await db.query('update projects set fail_next_restore = true where id = $1', [ids.restore])
      for (const name of ['jwt', 'none']) {
        await db.query(
          `insert into project_api_keys (project_id, jwt_secret, anon_key, service_role_key, fail_next_jwt_update, created_at, updated_at)
           values ($1, $2, 'anon', 'service', $3, now(), now())`,
          [ids[name], 'x'.repeat(40), name === 'jwt'],
        )
      }
      await db.query('insert into project_upgrade_failures (project_id, at_step) values ($1, 5)', [ids.upgrade])

      const app = await createApp({ db, config: testConfig(), clock: new FakeClock() })
      await app.close()

      const { rows: moved } = await db.query<{ project_id: number; name: string; at_step: number | null }>(
        'select project_id, name, at_step from dev_switches order by project_id',
      )
      expect(moved).toEqual([
        { project_id: ids.restore, name: 'fail_next_restore', at_step: null },
        { project_id: ids.jwt, name: 'fail_next_jwt_update', at_step: null },
        { project_id: ids.upgrade, name: 'fail_next_upgrade', at_step: 5 },
      ])
      const { rows: left } = await db.query<{ table_name: string; column_name: string }>(
        `select table_name, column_name from information_schema.columns
         where table_schema = current_schema() and (column_name in ('fail_next_restore', 'fail_next_jwt_update')
           or table_name = 'project_upgrade_failures')`,
      )
      expect(left).toEqual([])
      const { rows: applied } = await db.query<{ id: string }>('select id from schema_migrations order by id')
      expect(applied.map((r) => r.id)).toEqual(migrations.map((m) => m.id))
      // Not a fresh database: no demo data was seeded into it.
      const { rows: accounts } = await db.query<{ n: number }>('select count(*)::int as n from accounts')
      expect(accounts[0].n).toBe(1)
    } finally {
      await store.destroy()
    }
  })
})
