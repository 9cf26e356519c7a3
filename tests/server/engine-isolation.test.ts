/**
 * One project's slow transition work never holds the platform (PGlite and PostgreSQL 15): while a preview branch's
 * migration sleeps in its own database, another project's REST reads, the status the dashboard polls and a JWT
 * secret update request answer at once, and that project's due JWT update is applied by the engine meanwhile. A
 * server that stops between running the migration and recording it resumes the build after the claim's lease
 * without running the migration again. Two engines on one store run different projects' work at once and never two
 * rows of one project at once.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { BranchResponse } from '../../src/contracts/branching'
import { JwtSecretUpdateStatusResponse } from '../../src/contracts/keys'
import type { Db } from '../../src/server/db'
import { createEngine, projectWork, scheduleTransition } from '../../src/server/engine/lifecycle'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { addProject, addRepository, connect, settle } from './branching-support'
import { createSeededStore, json, OWNER, projectByName, startTestServer, type TestServer, type TestStore } from './helpers'

/** The migration's sleep: long enough that "did not wait for it" is plain, short enough for a quick test. */
const SLEEP_MS = 5_000
/** Well below the sleep: what an answer that did not wait for the migration takes, even on a loaded machine. */
const PROMPT_MS = 1_000
const STEP_MS = 1_000
const JWT_UPDATE_MS = 1_000
const LEASE_MS = 30_000
const config = {
  lifecycle: { branchStepMs: STEP_MS, jwtUpdateMs: JWT_UPDATE_MS },
  // The project database's own time-out still bounds each step: above the sleep, so the migration passes.
  projectDb: { queryTimeoutMs: SLEEP_MS * 4 },
}

const SLEEPY_FILES = {
  'supabase/migrations/20240101000000_first.sql': 'create table public.slept (n int);\ninsert into public.slept values (1);\n',
  'supabase/migrations/20240102000000_sleep.sql': `insert into public.slept values (2);\nselect pg_sleep(${SLEEP_MS / 1000});\n`,
}

/** A Pro organization's project connected to a repository whose second migration sleeps. */
async function sleepyParent(s: TestServer, ref: string) {
  const id = await addProject(s.db, 'demo-pro', `Sleepy ${ref.slice(0, 4)}`, ref)
  const repo = await addRepository(s.db, s.config, 'demo-pro', `sleepy-${ref.slice(0, 6)}`, { commits: [{ branch: 'main', files: SLEEPY_FILES }] })
  await connect(s.db, id, repo)
  return { id, ref }
}

async function createBranch(s: TestServer, parentRef: string, cookie: string, name: string) {
  const res = await s.request(`/v1/projects/${parentRef}/branches`, json({ branch_name: name, git_branch: 'main' }, { cookie }))
  expect(res.status).toBe(201)
  return BranchResponse.parse(await res.json())
}

/** Builds the branch up to its sleeping migration: the database, then the first migration, then the sleep starts. */
async function startSleepingStep(s: TestServer, branchId: string, projectRef: string) {
  await s.engine.runDue()
  s.clock.advance(STEP_MS)
  await s.engine.runDue()
  s.clock.advance(STEP_MS)
  let settled = false
  const running = s.engine.runDue().finally(() => (settled = true))
  // The sleeping step is claimed once the engine holds its row: the migration runs from then on.
  await vi.waitFor(
    async () => {
      const { rows } = await s.db.query(
        `select 1 from lifecycle_transitions t join projects p on p.id = t.project_id
         where p.ref = $1 and t.kind = 'branch.step' and t.claimed_until is not null and t.done_at is null`,
        [projectRef],
      )
      expect(rows).toHaveLength(1)
    },
    { timeout: 30_000, interval: 20 },
  )
  const step = async () =>
    (
      await s.db.query<{ status: string }>(`select status from branch_steps where branch_id = $1 and file = '20240102000000_sleep.sql'`, [
        branchId,
      ])
    ).rows[0]?.status
  return { running, settled: () => settled, step }
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const began = performance.now()
  const value = await fn()
  return { ms: performance.now() - began, value }
}

/** Every pending row of the demo data is set aside, so the engine runs only what a test schedules. */
async function quietDemo(db: Db) {
  await db.query(`update lifecycle_transitions set cancelled_at = now(), outcome = 'cancelled' where done_at is null and cancelled_at is null`)
}

describe('a branch migration that sleeps', { timeout: 120_000 }, () => {
  let s: TestServer
  let owner: string
  let other: { id: number; ref: string }
  let anonKey: string

  beforeAll(async () => {
    s = await startTestServer({ config })
    owner = await s.signIn(OWNER)
    await quietDemo(s.db)
    other = await projectByName(s, 'Recipe Box')
    anonKey = (await findProjectKeys(s.db, other.id))!.anon_key
    // The other tenant's database is made on its first use: made now, so the timings below are of reads alone.
    expect((await s.request(`/p/${other.ref}/rest/v1/recipes?select=title&limit=1`, { headers: { apikey: anonKey } })).status).toBe(200)
  }, 120_000)
  afterAll(() => s?.close())

  it("holds neither another project's requests nor its due transitions", async () => {
    const parent = await sleepyParent(s, 'sleepyparentaaaaaaaa')
    const branch = await createBranch(s, parent.ref, owner, 'sleepy')
    const sleeping = await startSleepingStep(s, branch.id, branch.project_ref)

    const rest = await timed(() => s.request(`/p/${other.ref}/rest/v1/recipes?select=title&limit=1`, { headers: { apikey: anonKey } }))
    expect(rest.value.status).toBe(200)
    expect(rest.ms).toBeLessThan(PROMPT_MS)
    const status = await timed(() => s.request(`/platform/projects/${other.ref}/status`, { headers: { cookie: owner } }))
    expect(status.value.status).toBe(200)
    expect(status.ms).toBeLessThan(PROMPT_MS)
    const update = await timed(() => s.request(`/platform/props/project/${other.ref}/jwt-secret-update`, json({}, { cookie: owner })))
    expect(update.value.status).toBeLessThan(300)
    expect(update.ms).toBeLessThan(PROMPT_MS)

    // The other project's JWT update falls due while the migration still sleeps: the engine applies it meanwhile.
    s.clock.advance(JWT_UPDATE_MS)
    const applied = await timed(() => s.engine.runDue())
    expect(applied.value).toBe(1)
    const res = await s.request(`/platform/props/project/${other.ref}/jwt-secret-update-status`, { headers: { cookie: owner } })
    expect(JwtSecretUpdateStatusResponse.parse(await res.json()).jwtSecretUpdateStatus?.meta.status).toBe('updated')
    expect(applied.ms).toBeLessThan(PROMPT_MS)
    expect(sleeping.settled()).toBe(false)
    expect(await sleeping.step()).toBe('pending')

    await sleeping.running
    expect(await sleeping.step()).toBe('applied')
    expect(await settle(s, branch.id, STEP_MS)).toBe('MIGRATIONS_PASSED')
    const slept = await s.projectDbs.transaction(branch.project_ref, {}, (tx) => tx.query('select n from public.slept order by n'))
    expect(slept.rows).toEqual([{ n: 1 }, { n: 2 }])
  })
})

describe('a server stopped between running a migration and recording it', { timeout: 180_000 }, () => {
  let store: TestStore | undefined
  let s: TestServer | undefined
  afterAll(async () => {
    await s?.close({ destroy: false })
    await store?.destroy()
  })

  it('resumes the build once the claim has lapsed, without running the migration again', async () => {
    const seededStore = await createSeededStore(config)
    store = seededStore.store
    const clock = seededStore.clock
    // The store as the first server sees it: cut off on demand, as if its process had died.
    const real = await store.open()
    let cut = false
    const refuse = () => Promise.reject(new Error('the store is out of reach'))
    const flaky: Db = {
      kind: real.kind,
      query: (sql, params) => (cut ? refuse() : real.query(sql, params)),
      exec: (sql) => (cut ? refuse() : real.exec(sql)),
      transaction: (fn) => (cut ? refuse() : real.transaction(fn)),
      listen: (handlers) => real.listen(handlers),
      close: () => real.close(),
    }
    s = await startTestServer({ store, db: flaky, clock, config })
    await quietDemo(s.db)
    const owner = await s.signIn(OWNER)
    const parent = await sleepyParent(s, 'restartparentaaaaaaa')
    const branch = await createBranch(s, parent.ref, owner, 'restart')
    const sleeping = await startSleepingStep(s, branch.id, branch.project_ref)
    cut = true
    // Its run ends with the store out of reach: neither the record nor the next claim gets through.
    await sleeping.running.catch(() => {})
    cut = false
    const claimOf = async (srv: TestServer) =>
      (
        await srv.db.query<{ attempts: number; claimed: boolean; outcome: string | null }>(
          `select t.attempts, t.claimed_until is not null as claimed, t.outcome from lifecycle_transitions t
           join projects p on p.id = t.project_id where p.ref = $1 and t.kind = 'branch.step' and t.done_at is null`,
          [branch.project_ref],
        )
      ).rows
    // The migration ran and committed in the branch's database; the store never heard of it.
    expect(await claimOf(s)).toEqual([{ attempts: 1, claimed: true, outcome: null }])
    await s.close({ destroy: false })

    s = await startTestServer({ store, clock, config })
    // The claim's lease still runs: nobody takes the row yet.
    await s.engine.runDue()
    expect(await claimOf(s)).toEqual([{ attempts: 1, claimed: true, outcome: null }])
    clock.advance(LEASE_MS + 1)
    // The migration is found in the branch's history and recorded as applied: public.slept below has one row 2.
    expect(await settle(s, branch.id, STEP_MS)).toBe('MIGRATIONS_PASSED')
    const { rows: steps } = await s.db.query<{ outcome: string; attempts: number }>(
      `select t.outcome, t.attempts from lifecycle_transitions t join projects p on p.id = t.project_id
       where p.ref = $1 and t.kind = 'branch.step' order by t.id`,
      [branch.project_ref],
    )
    expect(steps).toEqual([
      { outcome: 'applied: database created', attempts: 1 },
      { outcome: 'applied: 20240101000000_first.sql', attempts: 1 },
      { outcome: 'applied: 20240102000000_sleep.sql', attempts: 2 },
      { outcome: 'applied: migrations passed', attempts: 0 },
    ])
    const slept = await s.projectDbs.transaction(branch.project_ref, {}, (tx) => tx.query('select n from public.slept order by n'))
    expect(slept.rows).toEqual([{ n: 1 }, { n: 2 }])
  })
})

describe('two engines on one store', { timeout: 120_000 }, () => {
  let s: TestServer | undefined
  afterAll(() => s?.close())

  it("run different projects' work at once, never two rows of one project at once, and each row once", async () => {
    s = await startTestServer()
    await quietDemo(s.db)
    const WORK_MS = 1_000
    const spans: { project: number; row: number; start: number; end: number }[] = []
    s.lifecycle.registerTransition('test.slow', async (_tx, row) =>
      projectWork(
        async () => {
          const start = performance.now()
          await new Promise((r) => setTimeout(r, WORK_MS))
          spans.push({ project: row.project_id, row: row.id, start, end: performance.now() })
        },
        async () => 'applied',
      ),
    )
    const projects = [(await projectByName(s, 'Recipe Box')).id, (await projectByName(s, 'Acme Storefront')).id]
    const now = s.clock.now()
    for (const id of projects) {
      for (let i = 0; i < 2; i++) await s.db.transaction((tx) => scheduleTransition(tx, id, 'test.slow', {}, now, now))
    }
    const other = createEngine({ db: s.db, clock: s.clock, tickMs: 10, lifecycle: s.lifecycle, concurrency: 2 })
    const [a, b] = await Promise.all([s.engine.runDue(), other.runDue()])
    expect(a + b).toBe(4)
    const { rows } = await s.db.query<{ outcome: string; attempts: number }>(
      `select outcome, attempts from lifecycle_transitions where kind = 'test.slow' order by id`,
    )
    expect(rows).toEqual(Array(4).fill({ outcome: 'applied', attempts: 1 }))
    expect(new Set(spans.map((x) => x.row)).size).toBe(4)
    for (const id of projects) {
      const [first, second] = spans.filter((x) => x.project === id).sort((x, y) => x.start - y.start)
      expect(second.start).toBeGreaterThanOrEqual(first.end)
    }
    const byProject = projects.map((id) => spans.filter((x) => x.project === id).sort((x, y) => x.start - y.start)[0])
    expect(Math.max(byProject[0].start, byProject[1].start)).toBeLessThan(Math.min(byProject[0].end, byProject[1].end))
  })
})
