/**
 * Durability of the lifecycle under crashes: the real server process is killed with SIGKILL inside every lifecycle
 * transition — while the request that starts it is in flight, and just before, at and just after the due time of
 * each of its steps — restarted on the same store, and left to finish. Then the store is read: each step must be one
 * lifecycle_transitions row, done once, applied (not skipped, failed or cancelled), in order and not before its due
 * time, and the project's data must be what one application gives (final status, upgrade record, re-signed keys).
 * One line per transition: runs, kills, restarts, outcome, 'applied exactly once: yes/no'.
 *
 * `npx tsx bench/durability.bench.ts`
 *   STORE=pglite|postgres|both   default both when Debian's PostgreSQL 15 binaries are installed (throw-away cluster)
 *   DURABILITY_STEP_MS           every lifecycle duration; by default 1.25 × the faster of two measured restarts
 *                                (4–15 s), so the server is usually back before the next kill and each kill lands
 *                                inside its own step; a late kill is counted and printed
 *   ONLY=upgrade                 the transitions whose name contains it
 * Bounded: each run waits at most its last due time + 60 s, the whole bench 30 min. Traffic to 127.0.0.1 only.
 * A new transition is one more entry in TRANSITIONS.
 */
import { PGlite } from '@electric-sql/pglite'
import { jwtVerify } from 'jose'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { hasPostgres, startPgCluster } from '../tests/server/pgCluster'
import { isHealthy, killServer, linkedProject, median, ownerCookie, removeDir, startServer, type RunningServer } from './support'

/** Every lifecycle duration: DURABILITY_STEP_MS, or chosen from a first kill and restart (see benchStore). */
let STEP_MS = Number(process.env.DURABILITY_STEP_MS ?? 0)
const TICK_MS = 20
const ORG = 'demo-pro' // no free project limit in the way of a restore
const CUSTOM_JWT_SECRET = 'durability-bench-secret-0123456789-abcdefghijklmnop'
const BENCH_LIMIT_MS = 30 * 60_000
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)))

// ---------------------------------------------------------------------------------------------------------------
// The server under test, restarted on the same store after each kill.

class Platform {
  server!: RunningServer
  cookie = ''
  restarts = 0
  restartMs: number[] = []
  constructor(
    public env: Record<string, string>,
    readonly dataDir?: string,
  ) {}

  async start() {
    this.server = await startServer(this.env, this.dataDir)
    if (!(await isHealthy(this.server.url))) throw new Error('the server did not come up')
  }

  async kill() {
    await killServer(this.server)
  }

  async restart() {
    const began = Date.now()
    this.server = await startServer(this.env, this.server.dataDir)
    if (!(await isHealthy(this.server.url))) throw new Error('the server did not come back after a kill')
    this.restarts++
    this.restartMs.push(Date.now() - began)
  }

  async stop() {
    await this.server.stop()
  }

  private async signIn() {
    this.cookie = await ownerCookie(this.server.url)
  }

  /** The Owner's session cookie (signed in on first use). */
  async session(): Promise<string> {
    if (!this.cookie) await this.signIn()
    return this.cookie
  }

  /** A request with the Owner's session (signs in again if the session is gone). */
  async request(method: string, path: string, body?: unknown): Promise<Response> {
    await this.session()
    const send = () =>
      fetch(`${this.server.url}${path}`, {
        method,
        headers: { cookie: this.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    let res = await send()
    if (res.status === 401) {
      await this.signIn()
      res = await send()
    }
    return res
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.request(method, path, body)
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`)
    return (await res.json()) as T
  }

  /** The project of that name, through the API (undefined when there is none). */
  async projectNamed(name: string): Promise<{ ref: string; status: string } | undefined> {
    const list = await this.json<{ ref: string; name: string; status: string }[]>('GET', '/platform/projects')
    return list.find((p) => p.name === name)
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The store, read after the runs (PGlite cannot be opened while the server holds its folder).

type Query = <T = Record<string, unknown>>(sql: string, params?: unknown[]) => Promise<T[]>

interface TransitionRowRead {
  id: number
  kind: string
  payload: Record<string, unknown>
  due_at: Date
  done_at: Date | null
  cancelled_at: Date | null
  outcome: string | null
}

interface ProjectRead {
  id: number
  ref: string
  status: string
  status_changed_at: Date
  db_version: string
  restore_error: string | null
}

const ms = (d: Date | string | null) => (d === null ? Number.NaN : new Date(d).getTime())

/**
 * The exactly-once check common to every transition: one row per expected step (kind and payload), done, applied,
 * not cancelled, not before its due time, in the order given; no other live row for the project.
 */
function checkSteps(rows: TransitionRowRead[], expected: { kind: string; payload?: Record<string, unknown> }[]): string[] {
  const problems: string[] = []
  const matches = (row: TransitionRowRead, e: (typeof expected)[number]) =>
    row.kind === e.kind && Object.entries(e.payload ?? {}).every(([k, v]) => row.payload[k] === v)
  let previousDone = -Infinity
  for (const e of expected) {
    const label = `${e.kind}${e.payload ? ` ${JSON.stringify(e.payload)}` : ''}`
    const found = rows.filter((r) => matches(r, e))
    if (found.length !== 1) {
      problems.push(`${label}: ${found.length} rows (expected 1)`)
      continue
    }
    const [row] = found
    if (row.cancelled_at !== null) problems.push(`${label}: cancelled`)
    if (row.done_at === null) {
      problems.push(`${label}: never done (lost)`)
      continue
    }
    if (!row.outcome || !(row.outcome === 'applied' || row.outcome.startsWith('applied:')) || row.outcome.includes('fail')) {
      problems.push(`${label}: outcome '${row.outcome}'`)
    }
    if (ms(row.done_at) < ms(row.due_at)) problems.push(`${label}: done before its due time`)
    if (ms(row.done_at) < previousDone) problems.push(`${label}: done out of order`)
    previousDone = ms(row.done_at)
  }
  for (const row of rows) {
    if (!expected.some((e) => matches(row, e)) && row.cancelled_at === null) {
      problems.push(`unexpected row ${row.kind} ${JSON.stringify(row.payload)} (${row.outcome ?? 'pending'})`)
    }
  }
  return problems
}

const doneAt = (rows: TransitionRowRead[], kind: string, payload: Record<string, unknown> = {}) =>
  ms(rows.find((r) => r.kind === kind && Object.entries(payload).every(([k, v]) => r.payload[k] === v))?.done_at ?? null)

// ---------------------------------------------------------------------------------------------------------------
// The transitions. Each: how to make its project, the request that starts it, the due times of its steps, when it
// has started and finished (through the API), and what the store must hold after it.

interface Transition {
  name: string
  /** Due times of its steps, in ms after the start, given the lifecycle duration. */
  steps: (stepMs: number) => number[]
  /** Makes the project the transition starts from (or what the start needs); absent when there is nothing to make. */
  prepare?: (p: Platform, name: string) => Promise<void>
  /** The start makes the run's project (named `name`): prepare made none of that name. */
  startMakesProject?: true
  /** Sends the request that starts it (not awaited when a kill is to land during it). */
  start: (p: Platform, name: string) => Promise<Response>
  /** Whether the start was recorded (after a kill during the request it may or may not have been). */
  started: (p: Platform, name: string) => Promise<boolean>
  finished: (p: Platform, name: string) => Promise<boolean>
  /** Once finished, what the running server shows of it (a project database's content); empty when all is well. */
  verify?: (p: Platform, name: string) => Promise<string[]>
  /** What one application of every step leaves; empty when all is well. */
  check: (q: Query, project: ProjectRead, rows: TransitionRowRead[]) => Promise<string[]>
  /** The outcome shown in the summary line. */
  outcome: (q: Query, project: ProjectRead) => Promise<string>
}

async function devProject(p: Platform, name: string, status: string) {
  await p.json('POST', '/dev/projects', { organization_slug: ORG, name, status })
}

/** Each store's runs reuse the same project names: benchStore empties this when it starts on a new store. */
const refs = new Map<string, string>()
/** The ref of a run's project on the store under test (remembered, so a start request goes out at once). */
const refOf = async (p: Platform, name: string) => {
  const known = refs.get(name)
  if (known) return known
  const project = await p.projectNamed(name)
  if (!project) throw new Error(`no project named ${name}`)
  refs.set(name, project.ref)
  return project.ref
}
const statusOf = async (p: Platform, name: string) => (await p.projectNamed(name))?.status
const sameTime = (a: number, b: number) => a === b

// ---------------------------------------------------------------------------------------------------------------
// The preview branch's build: a repository of two migrations and a seed, pushed with git (the demo Owner's
// development access token as the password) and linked to a parent project; then POST /v1/projects/{ref}/branches.
// Its steps (one 'branch.step' row each, LIFECYCLE_BRANCH_STEP_MS apart, the first due at once): the database,
// each migration, the seed, MIGRATIONS_PASSED.

const BRANCH_MIGRATIONS = ['20250101090000_create_items.sql', '20250102090000_items_index.sql']
const BRANCH_SEED_ROWS = 25
const BRANCH_FILES: Record<string, string> = {
  [`supabase/migrations/${BRANCH_MIGRATIONS[0]}`]: 'create table public.items (id bigint primary key, name text not null);\n',
  [`supabase/migrations/${BRANCH_MIGRATIONS[1]}`]: 'create index items_name_idx on public.items (name);\n',
  'supabase/seed.sql': `insert into public.items (id, name) values\n${Array.from({ length: BRANCH_SEED_ROWS }, (_, i) => `(${i + 1}, 'item ${i + 1}')`).join(',\n')};\n`,
}
const BRANCH_OUTCOMES = [
  'applied: database created',
  ...BRANCH_MIGRATIONS.map((file) => `applied: ${file}`),
  'applied: supabase/seed.sql',
  'applied: migrations passed',
]
const parentRefs = new Map<string, string>()
/** Where each store's runs write their repositories (a fresh folder per store: the run names repeat). */
let gitWork = ''

async function linkedParent(p: Platform, name: string) {
  const cookie = await p.session()
  parentRefs.set(name, await linkedProject(p.server, cookie, gitWork, ORG, name, BRANCH_FILES, { name: `${name}-parent`, status: 'ACTIVE_HEALTHY' }))
}

const branchOf = async (p: Platform, name: string) => {
  const branches = await p.json<{ name: string; status: string }[]>('GET', `/v1/projects/${parentRefs.get(name)}/branches`)
  return branches.find((b) => b.name === name)
}

const branchTransition: Transition = {
  name: 'preview branch (database, 2 migrations, seed)',
  steps: (d) => BRANCH_OUTCOMES.map((_, i) => i * d),
  prepare: linkedParent,
  startMakesProject: true,
  start: (p, name) => p.request('POST', `/v1/projects/${parentRefs.get(name)}/branches`, { branch_name: name, git_branch: 'main' }),
  started: async (p, name) => (await branchOf(p, name)) !== undefined,
  finished: async (p, name) => (await branchOf(p, name))?.status === 'MIGRATIONS_PASSED',
  async verify(p, name) {
    const ref = await refOf(p, name)
    const count = async (sql: string) => {
      const rows = await p.json<{ n: number }[]>('POST', `/v1/projects/${ref}/database/query`, { query: sql })
      return Number(rows[0]?.n)
    }
    const problems: string[] = []
    const items = await count('select count(*)::int as n from public.items')
    if (items !== BRANCH_SEED_ROWS) problems.push(`the branch database holds ${items} seeded rows (expected ${BRANCH_SEED_ROWS})`)
    const recorded = await count('select count(*)::int as n from supabase_migrations.schema_migrations')
    if (recorded !== BRANCH_MIGRATIONS.length) problems.push(`${recorded} migrations recorded (expected ${BRANCH_MIGRATIONS.length})`)
    const seeds = await count('select count(*)::int as n from supabase_migrations.seed_files')
    if (seeds !== 1) problems.push(`${seeds} seed records (expected 1)`)
    return problems
  },
  async check(q, project, rows) {
    const problems: string[] = []
    const live = rows.filter((r) => r.cancelled_at === null)
    const outcomes = live.map((r) => r.outcome ?? 'pending')
    if (JSON.stringify(outcomes) !== JSON.stringify(BRANCH_OUTCOMES)) {
      problems.push(`steps ${JSON.stringify(outcomes)} (expected ${JSON.stringify(BRANCH_OUTCOMES)})`)
    }
    let previousDone = -Infinity
    for (const row of live) {
      if (row.kind !== 'branch.step') problems.push(`unexpected row ${row.kind} (${row.outcome ?? 'pending'})`)
      if (row.done_at === null) continue
      if (ms(row.done_at) < ms(row.due_at)) problems.push(`${row.outcome}: done before its due time`)
      if (ms(row.done_at) < previousDone) problems.push(`${row.outcome}: done out of order`)
      previousDone = ms(row.done_at)
    }
    const [branch] = await q<{ status: string }>('select status from branches where project_id = $1', [project.id])
    if (branch?.status !== 'MIGRATIONS_PASSED') problems.push(`branch status ${branch?.status ?? 'missing'}`)
    if (project.status !== 'ACTIVE_HEALTHY') problems.push(`branch project status ${project.status}`)
    return problems
  },
  async outcome(q, project) {
    const [branch] = await q<{ status: string }>('select status from branches where project_id = $1', [project.id])
    return `${branch?.status ?? 'no branch'}, ${project.status}`
  },
}

const TRANSITIONS: Transition[] = [
  {
    name: 'pause (GOING_DOWN → PAUSING → INACTIVE)',
    steps: (d) => [d, 2 * d],
    prepare: (p, name) => devProject(p, name, 'ACTIVE_HEALTHY'),
    start: async (p, name) => p.request('POST', `/v1/projects/${await refOf(p, name)}/pause`),
    started: async (p, name) => (await statusOf(p, name)) !== 'ACTIVE_HEALTHY',
    finished: async (p, name) => (await statusOf(p, name)) === 'INACTIVE',
    async check(_q, project, rows) {
      const problems = checkSteps(rows, [
        { kind: 'project.status', payload: { from: 'GOING_DOWN', to: 'PAUSING' } },
        { kind: 'project.status', payload: { from: 'PAUSING', to: 'INACTIVE' } },
      ])
      if (project.status !== 'INACTIVE') problems.push(`final status ${project.status}`)
      if (!sameTime(ms(project.status_changed_at), doneAt(rows, 'project.status', { to: 'INACTIVE' }))) {
        problems.push('status_changed_at is not the time of the last step')
      }
      return problems
    },
    outcome: async (_q, project) => project.status,
  },
  {
    name: 'restore (RESTORING → ACTIVE_HEALTHY)',
    steps: (d) => [d],
    prepare: (p, name) => devProject(p, name, 'INACTIVE'),
    start: async (p, name) => p.request('POST', `/v1/projects/${await refOf(p, name)}/restore`),
    started: async (p, name) => (await statusOf(p, name)) !== 'INACTIVE',
    finished: async (p, name) => (await statusOf(p, name)) === 'ACTIVE_HEALTHY',
    async check(_q, project, rows) {
      const problems = checkSteps(rows, [{ kind: 'project.restore' }])
      if (project.status !== 'ACTIVE_HEALTHY') problems.push(`final status ${project.status}`)
      if (project.restore_error !== null) problems.push(`restore_error '${project.restore_error}'`)
      if (!sameTime(ms(project.status_changed_at), doneAt(rows, 'project.restore'))) {
        problems.push('status_changed_at is not the time of the restore')
      }
      return problems
    },
    outcome: async (_q, project) => project.status,
  },
  {
    name: 'Postgres upgrade (8 steps, 15 → 17)',
    steps: (d) => Array.from({ length: 8 }, (_, i) => (i + 1) * d),
    prepare: (p, name) => devProject(p, name, 'ACTIVE_HEALTHY'),
    start: async (p, name) => p.request('POST', `/v1/projects/${await refOf(p, name)}/upgrade`, { target_version: '17' }),
    started: async (p, name) => {
      const body = await p.json<{ databaseUpgradeStatus: unknown }>('GET', `/v1/projects/${await refOf(p, name)}/upgrade/status`)
      return body.databaseUpgradeStatus !== null
    },
    finished: async (p, name) => {
      const body = await p.json<{ databaseUpgradeStatus: { status: number } | null }>(
        'GET',
        `/v1/projects/${await refOf(p, name)}/upgrade/status`,
      )
      return body.databaseUpgradeStatus !== null && body.databaseUpgradeStatus.status !== 0
    },
    async check(q, project, rows) {
      const problems = checkSteps(
        rows,
        Array.from({ length: 8 }, (_, i) => ({ kind: 'project.upgrade.step', payload: { step: i + 1 } })),
      )
      const upgrades = await q<{ status: string; progress: string }>(
        'select status, progress from project_upgrades where project_id = $1',
        [project.id],
      )
      if (upgrades.length !== 1) problems.push(`${upgrades.length} upgrade records (expected 1)`)
      else if (upgrades[0].status !== 'upgraded' || !upgrades[0].progress.startsWith('8_')) {
        problems.push(`upgrade record ${upgrades[0].status} at ${upgrades[0].progress}`)
      }
      if (!project.db_version.startsWith('17.')) problems.push(`db_version ${project.db_version}`)
      if (project.status !== 'ACTIVE_HEALTHY') problems.push(`final status ${project.status}`)
      if (!sameTime(ms(project.status_changed_at), doneAt(rows, 'project.upgrade.step', { step: 8 }))) {
        problems.push('status_changed_at is not the time of step 8')
      }
      return problems
    },
    async outcome(q, project) {
      const [u] = await q<{ status: string }>('select status from project_upgrades where project_id = $1', [project.id])
      return `${u?.status ?? 'no record'}, ${project.db_version}, ${project.status}`
    },
  },
  {
    name: 'JWT secret rotation (keys re-signed)',
    steps: (d) => [d],
    prepare: (p, name) => devProject(p, name, 'ACTIVE_HEALTHY'),
    start: async (p, name) =>
      p.request('POST', `/platform/props/project/${await refOf(p, name)}/jwt-secret-update`, { jwt_secret: CUSTOM_JWT_SECRET }),
    started: async (p, name) => {
      const body = await p.json<{ jwtSecretUpdateStatus: unknown }>(
        'GET',
        `/platform/props/project/${await refOf(p, name)}/jwt-secret-update-status`,
      )
      return body.jwtSecretUpdateStatus !== null
    },
    finished: async (p, name) => {
      const body = await p.json<{ jwtSecretUpdateStatus: { meta: { status: string } } | null }>(
        'GET',
        `/platform/props/project/${await refOf(p, name)}/jwt-secret-update-status`,
      )
      return body.jwtSecretUpdateStatus !== null && body.jwtSecretUpdateStatus.meta.status !== 'updating'
    },
    async check(q, project, rows) {
      const problems = checkSteps(rows, [{ kind: 'jwt.secret.update' }])
      const updates = await q<{ status: string }>('select status from jwt_secret_updates where project_id = $1', [project.id])
      if (updates.length !== 1 || updates[0].status !== 'updated') {
        problems.push(`jwt_secret_updates: ${updates.map((u) => u.status).join(', ') || 'none'} (expected one 'updated')`)
      }
      const [keys] = await q<{ jwt_secret: string; anon_key: string; service_role_key: string; updated_at: Date }>(
        'select jwt_secret, anon_key, service_role_key, updated_at from project_api_keys where project_id = $1',
        [project.id],
      )
      if (!keys) return [...problems, 'no API keys']
      if (keys.jwt_secret !== CUSTOM_JWT_SECRET) problems.push('the JWT secret is not the new one')
      const done = doneAt(rows, 'jwt.secret.update')
      // Re-signed once: by the application of the update, at its time, with the new secret.
      if (!sameTime(ms(keys.updated_at), done)) problems.push('the keys were not re-signed at the time of the update')
      for (const [role, key] of [['anon', keys.anon_key], ['service_role', keys.service_role_key]] as const) {
        try {
          const { payload } = await jwtVerify(key, new TextEncoder().encode(CUSTOM_JWT_SECRET))
          if (payload.role !== role || payload.ref !== project.ref) problems.push(`${role} key has claims ${JSON.stringify(payload)}`)
          if (payload.iat !== Math.floor(done / 1000)) problems.push(`${role} key signed at ${payload.iat}, not at the update`)
        } catch {
          problems.push(`${role} key does not verify with the new secret`)
        }
      }
      return problems
    },
    async outcome(q, project) {
      const [u] = await q<{ status: string }>('select status from jwt_secret_updates where project_id = $1 order by id desc', [
        project.id,
      ])
      return `update ${u?.status ?? 'missing'}`
    },
  },
  {
    name: 'project creation (COMING_UP → ACTIVE_HEALTHY)',
    steps: (d) => [d],
    start: (p, name) => p.request('POST', '/dev/projects', { organization_slug: ORG, name, status: 'COMING_UP' }),
    started: async (p, name) => (await p.projectNamed(name)) !== undefined,
    finished: async (p, name) => (await statusOf(p, name)) === 'ACTIVE_HEALTHY',
    async check(q, project, rows) {
      const problems = checkSteps(rows, [{ kind: 'project.status', payload: { from: 'COMING_UP', to: 'ACTIVE_HEALTHY' } }])
      if (project.status !== 'ACTIVE_HEALTHY') problems.push(`final status ${project.status}`)
      const keys = await q<{ created_at: Date }>('select created_at from project_api_keys where project_id = $1', [project.id])
      if (keys.length !== 1) problems.push(`${keys.length} key rows`)
      else if (!sameTime(ms(keys[0].created_at), doneAt(rows, 'project.status'))) problems.push('keys not made when it came up')
      return problems
    },
    outcome: async (_q, project) => project.status,
  },
  branchTransition,
]

// ---------------------------------------------------------------------------------------------------------------
// Kill plans: during the start request, or around every step's due time.

interface KillPlan {
  name: string
  /** ms after a step's due time (negative: before it); undefined for a kill during the start request. */
  offset?: number
}
const KILL_PLANS: KillPlan[] = [
  { name: 'during the start request' },
  { name: 'just before each due time', offset: -40 },
  { name: 'at each due time', offset: TICK_MS / 2 },
  { name: 'just after each due time', offset: 150 },
]

interface RunResult {
  transition: Transition
  plan: KillPlan
  name: string
  kills: number
  late: number
  restartsBefore: number
  finished: boolean
  /** What the transition's verify found on the running server. */
  problems: string[]
  error?: string
}

async function runOne(p: Platform, transition: Transition, plan: KillPlan, name: string): Promise<RunResult> {
  const result: RunResult = { transition, plan, name, kills: 0, late: 0, restartsBefore: p.restarts, finished: false, problems: [] }
  if (transition.prepare) {
    await transition.prepare(p, name)
    if (!transition.startMakesProject) await refOf(p, name)
  }
  let t0: number
  if (plan.offset === undefined) {
    // Kill while the request is in flight: it may have committed or not; the client then asks again if not.
    const sent = transition.start(p, name).catch(() => undefined)
    await sleep(Math.random() * 15)
    await p.kill()
    result.kills++
    await sent
    await p.restart()
    if (!(await transition.started(p, name))) {
      const res = await transition.start(p, name)
      if (!res.ok) throw new Error(`start answered ${res.status}: ${await res.text()}`)
    }
    t0 = Date.now()
  } else {
    const before = Date.now()
    const res = await transition.start(p, name)
    if (!res.ok) throw new Error(`start answered ${res.status}: ${await res.text()}`)
    t0 = (before + Date.now()) / 2
    for (const due of transition.steps(STEP_MS)) {
      const wait = t0 + due + plan.offset - Date.now()
      // The restart took longer than a step: killed as soon as it was up. (A kill before a step due at once cannot
      // land before it: not counted.)
      if (wait < 0 && due + plan.offset > 0) result.late++
      await sleep(wait)
      await p.kill()
      result.kills++
      await p.restart()
    }
  }
  const deadline = t0 + Math.max(...transition.steps(STEP_MS)) + 60_000
  while (Date.now() < deadline) {
    if (await transition.finished(p, name).catch(() => false)) {
      result.finished = true
      if (transition.verify) result.problems = await transition.verify(p, name)
      break
    }
    await sleep(200)
  }
  return result
}

async function checkRuns(q: Query, results: RunResult[]) {
  const byTransition = new Map<Transition, RunResult[]>()
  for (const r of results) byTransition.set(r.transition, [...(byTransition.get(r.transition) ?? []), r])
  let allOnce = true
  for (const transition of TRANSITIONS) {
    const runs = byTransition.get(transition)
    if (!runs) continue
    const outcomes = new Map<string, number>()
    const problems: string[] = []
    for (const run of runs) {
      const [project] = await q<ProjectRead>(
        'select id, ref, status, status_changed_at, db_version, restore_error from projects where name = $1',
        [run.name],
      )
      if (!project) {
        problems.push(`${run.plan.name}: ${run.error ? `run failed: ${run.error}` : 'no project (creation lost)'}`)
        continue
      }
      const rows = await q<TransitionRowRead>(
        'select id, kind, payload, due_at, done_at, cancelled_at, outcome from lifecycle_transitions where project_id = $1 order by id',
        [project.id],
      )
      const found = await transition.check(q, project, rows)
      found.unshift(...run.problems)
      if (run.error) found.unshift(`run failed: ${run.error}`)
      if (!run.finished) found.unshift('did not finish in time')
      problems.push(...found.map((f) => `${run.plan.name}: ${f}`))
      const outcome = await transition.outcome(q, project)
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1)
    }
    const kills = runs.reduce((n, r) => n + r.kills, 0)
    const late = runs.reduce((n, r) => n + r.late, 0)
    const once = problems.length === 0
    allOnce &&= once
    console.log(
      `${transition.name.padEnd(46)} runs ${runs.length}, kills ${kills}, restarts ${kills}${late ? ` (${late} kills late: restart slower than a step)` : ''}, ` +
        `outcome ${[...outcomes].map(([o, n]) => `${o} ×${n}`).join('; ')}, applied exactly once: ${once ? 'yes' : 'no'}`,
    )
    for (const problem of problems) console.log(`    ${problem}`)
  }
  return allOnce
}

const lifecycleEnv = (stepMs: number) => ({
  LIFECYCLE_TICK_MS: String(TICK_MS),
  LIFECYCLE_GOING_DOWN_MS: String(stepMs),
  LIFECYCLE_PAUSING_MS: String(stepMs),
  LIFECYCLE_RESTORING_MS: String(stepMs),
  LIFECYCLE_UPGRADE_STEP_MS: String(stepMs),
  LIFECYCLE_JWT_UPDATE_MS: String(stepMs),
  LIFECYCLE_COMING_UP_MS: String(stepMs),
  LIFECYCLE_BRANCH_STEP_MS: String(stepMs),
})

async function benchStore(label: string, env: Record<string, string>, openStore: (p: Platform) => Promise<{ q: Query; close: () => Promise<void> }>) {
  // A name's ref on the previous store is not a project here (that mix-up failed every PostgreSQL run with a 404).
  refs.clear()
  parentRefs.clear()
  gitWork = mkdtempSync(join(tmpdir(), 'durability-git-'))
  const p = new Platform({ ...lifecycleEnv(STEP_MS || 4_000), ...env })
  const started = Date.now()
  await p.start()
  if (!process.env.DURABILITY_STEP_MS) {
    // Two kills and restarts with nothing under way, to learn how long a restart takes on this machine now. A
    // restart slower than a step makes its kill late (counted, printed): the kill then lands while the engine catches up.
    for (let i = 0; i < 2; i++) {
      await p.kill()
      await p.restart()
    }
    STEP_MS = Math.min(15_000, Math.max(4_000, Math.ceil((1.25 * Math.min(...p.restartMs)) / 500) * 500))
    p.env = { ...lifecycleEnv(STEP_MS), ...env }
    await p.kill()
    await p.restart()
  }
  const results: RunResult[] = []
  const transitions = TRANSITIONS.filter((t) => !process.env.ONLY || t.name.includes(process.env.ONLY))
  try {
    for (const transition of transitions) {
      for (const plan of KILL_PLANS) {
        // Letters, digits and dashes: a preview branch's name is its project's.
        const name = `durability-${results.length + 1}-${transition.name.split(' ')[0].toLowerCase()}`
        try {
          const began = Date.now()
          results.push(await runOne(p, transition, plan, name))
          if (process.env.VERBOSE) console.log(`  ${name}, ${plan.name}: ${Date.now() - began} ms, restarts so far ${p.restartMs.join(' ')}`)
        } catch (err) {
          results.push({ transition, plan, name, kills: 0, late: 0, restartsBefore: p.restarts, finished: false, problems: [], error: (err as Error).message })
          if (!(await isHealthy(p.server.url))) await p.restart()
        }
      }
    }
  } finally {
    await p.stop()
  }
  const restartMedian = median(p.restartMs)
  console.log(
    `\n${label}: ${results.length} runs, ${p.restarts} restarts after SIGKILL (median ${Math.round(restartMedian)} ms to healthy, max ${Math.max(...p.restartMs)} ms), ` +
      `every lifecycle duration ${STEP_MS} ms, ${Math.round((Date.now() - started) / 1000)} s`,
  )
  const store = await openStore(p)
  try {
    return await checkRuns(store.q, results)
  } finally {
    await store.close()
    removeDir(p.server.dataDir)
    removeDir(gitWork)
  }
}

const timer = setTimeout(() => {
  console.error(`durability bench: over ${BENCH_LIMIT_MS / 60_000} min, stopping`)
  process.exit(2)
}, BENCH_LIMIT_MS)
timer.unref()

const which = process.env.STORE ?? (hasPostgres() ? 'both' : 'pglite')
let ok = true
if (which === 'pglite' || which === 'both') {
  const once = await benchStore('PGlite', {}, async (p) => {
    const db = await PGlite.create(p.server.dataDir)
    return {
      q: async <T,>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params)).rows,
      close: () => db.close(),
    }
  })
  ok = ok && once
}
if (which === 'postgres' || which === 'both') {
  const cluster = await startPgCluster()
  try {
    const once = await benchStore('PostgreSQL 15', { DATABASE_URL: cluster.url }, async () => {
      const client = new pg.Client({ connectionString: cluster.url })
      await client.connect()
      return {
        q: async <T,>(sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as T[],
        close: () => client.end(),
      }
    })
    ok = ok && once
  } finally {
    cluster.stop()
  }
}
clearTimeout(timer)
process.exit(ok ? 0 : 1)
