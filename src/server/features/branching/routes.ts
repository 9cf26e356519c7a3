/**
 * The branching room's routes (paths and answers: src/contracts/branching.ts). Creating a branch is refused, in this
 * order: a bad ref or body 400; not a member 404; a Read-only member 403; a project that is itself a preview branch
 * 409; a parent below Postgres 15 409; a free plan 403; no connected repository 409; a git branch the repository does
 * not have 404; a branch name the parent already uses 409. Otherwise the branch's project is made (COMING_UP, in the
 * parent's organization) and its build is left to the lifecycle engine (transitions.ts).
 * Every read needs membership of the parent's organization, every change projects:write, both read from the
 * member's role in the store on each request.
 */
import { randomUUID } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import * as z from 'zod'
import type {
  BranchDetailResponse,
  BranchDeleteResponse,
  BranchDiff,
  BranchingPlan,
  BranchUpdateResponse,
  MergeFailure,
  MergePlan,
  MergeResponse,
  RecordedMigration,
} from '../../../contracts/branching'
import type { Role } from '../../../contracts/common'
import * as endpoints from '../../../contracts/endpoints'
import type { Deps } from '../../core/deps'
import { at, baseUrl, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { newProjectRef } from '../../core/secrets'
import { cancelPendingTransitions } from '../../engine/lifecycle'
import { findProjectConnection, gitHostFor } from '../github'
import { engineVersionIn } from '../../projectdb'
import { ProjectDbError } from '../../projectdb/types'
import { memberProject, refParam, type MemberProjectEnv } from '../projects/access'
import { insertProject } from '../projects/access'
import type { MemberProjectRow } from '../../core/rows'
import { scheduleBranchStep } from './transitions'
import { diffCatalogs, diffText, readCatalog, schemasOf } from './diff'
import { applyRecorded, readHistory, StatementFailure, type HistoryEntry } from './history'
import { compareVersions, orderWarnings, readRepository, repositoryName, repositoryOf, toPlan, type RepositoryRead } from './plan'
import { memberRole, planOf } from '../organizations/access'
import {
  branchOfProject,
  dbVersionOf,
  deleteBranchProject,
  findBranch,
  findBranchByName,
  insertBranch,
  listBranchesOf,
  markBranchEnabled,
  replaceSteps,
  startNextBuild,
  stepsOf,
  toBranchMigrations,
  toBranchResponse,
  updateBranch,
  v1Status,
  type BranchRow,
  type NewStep,
} from './store'
import { answerDatabaseFailure } from '../../core/domainErrors'

/** The spec's notices (section 8), also the refusals' messages. */
export const FREE_PLAN_MESSAGE = 'Database branching is only available on the Pro plan and above'
export const POSTGRES_VERSION_MESSAGE = 'Your project needs to be on Postgres 15 to enable branching'
const CANNOT_CHANGE = 'You need additional permissions to change branches of this project'

const BranchParam = z.object({
  branch: z.string().regex(/^([a-z]{20}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i, 'branch_id_or_ref must be a branch id or a project ref'),
})
const NameParam = z.object({ ref: z.string(), name: z.string().min(1).max(63) })

type BranchEnv = AppEnv & { Variables: { branch: BranchRow; role: Role } }

const major = (version: string) => Number.parseInt(version.split('.')[0] ?? '', 10)
const isUniqueViolation = (err: unknown) => (err as { code?: unknown })?.code === '23505'

export function branchingRoutes(deps: Deps) {
  const { db, projectDbs, clock, lifecycle } = deps
  const app = new Hono<AppEnv>()
  const project = memberProject(db)
  const host = gitHostFor(deps.config)

  /** Loads `:branch` for a member of its organization (404 otherwise, as for an unknown one). */
  const memberBranch = createMiddleware<BranchEnv>(async (c, next) => {
    const branch = await findBranch(db, c.req.param('branch') ?? '')
    if (!branch) return errorJson(c, 404, 'Branch not found')
    const role = await memberRole(db, branch.organization_id, c.get('account').id)
    if (!role) return errorJson(c, 404, 'Branch not found')
    c.set('branch', branch)
    c.set('role', role)
    await next()
  })
  const mayChange = createMiddleware<BranchEnv>(async (c, next) => {
    if (!can(c.var.role, 'projects:write')) return errorJson(c, 403, CANNOT_CHANGE)
    await next()
  })
  const branchRoute = [validate('param', BranchParam), memberBranch] as const

  /** The parent's recorded migration versions; none when its database cannot be read (not ACTIVE_HEALTHY). */
  async function parentVersions(parentRef: string): Promise<string[]> {
    try {
      return (await projectDbs.transaction(parentRef, { readOnly: true }, (tx) => readHistory(tx))).map((m) => m.version)
    } catch (err) {
      if (err instanceof ProjectDbError) return []
      throw err
    }
  }

  /** The connection and the git branch's head, or the answer refusing the request. */
  async function gitBranchOf(c: Context, parent: { id: number }, gitBranch: string) {
    const connection = await findProjectConnection(db, parent.id)
    if (!connection) {
      return { refusal: errorJson(c, 409, 'Connect a GitHub repository to this project to use branching', 'no_repository_connection') }
    }
    const head = await host.branch(repositoryOf(connection), gitBranch)
    if (!head) return { refusal: errorJson(c, 404, `Unable to find branch from ${repositoryName(connection)}`, 'git_branch_not_found') }
    return { connection, head }
  }

  function stepsFrom(read: RepositoryRead, upTo?: string): NewStep[] {
    const migrations = read.migrations.filter((m) => upTo === undefined || compareVersions(m.version, upTo) <= 0)
    const steps: NewStep[] = migrations.map((m) => ({ kind: 'migration', ...m }))
    if (read.seed !== null && upTo === undefined) steps.push({ kind: 'seed', file: read.seedPath, version: '', name: 'seed', sql: read.seed })
    return steps
  }

  async function createRefusal(c: Context<MemberProjectEnv>, parent: MemberProjectRow) {
    if (!can(parent.role, 'projects:write')) return errorJson(c, 403, 'You need additional permissions to create branches of this project')
    if (await branchOfProject(db, parent.id)) return errorJson(c, 409, 'A preview branch cannot have branches of its own', 'branch_of_branch')
    if (!(major(parent.db_version) >= 15)) return errorJson(c, 409, POSTGRES_VERSION_MESSAGE, 'postgres_version_too_old')
    if ((await planOf(db, parent.organization_id)) === 'free') return errorJson(c, 403, FREE_PLAN_MESSAGE, 'branching_requires_paid_plan')
    return undefined
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Create, list, read

  app.on(...at(endpoints.createBranch), refParam, validate('json', endpoints.createBranch.body), project, async (c) => {
    const body = c.req.valid('json')
    const parent = c.var.project
    const refused = await createRefusal(c, parent)
    if (refused) return refused
    const git = await gitBranchOf(c, parent, body.git_branch)
    if ('refusal' in git) return git.refusal
    if (await findBranchByName(db, parent.id, body.branch_name)) return nameTaken(c, body.branch_name)

    const read = await readRepository(host, git.connection, git.head.sha)
    const warnings = [...read.warnings, ...orderWarnings(read.migrations, await parentVersions(parent.ref))]
    const id = randomUUID()
    const ref = newProjectRef()
    const now = clock.now()
    try {
      await db.transaction(async (tx) => {
        const projectId = await insertProject(tx, {
          organizationId: parent.organization_id,
          name: body.branch_name,
          status: 'COMING_UP',
          postgrestStatus: 'ONLINE',
          kpsVersion: 'kps-v3.8.6',
          region: body.region ?? parent.region,
          dbVersion: await engineVersionIn(tx),
          ref,
          now,
          createdBy: c.get('account').id,
        })
        await insertBranch(tx, {
          id,
          parentProjectId: parent.id,
          projectId,
          name: body.branch_name,
          gitBranch: body.git_branch,
          gitSha: git.head.sha,
          repository: read.repository,
          persistent: body.persistent ?? false,
          warnings,
          now,
        })
        await replaceSteps(tx, id, stepsFrom(read))
        await markBranchEnabled(tx, parent.id, now)
        await scheduleBranchStep(tx, projectId, { branch_id: id, build: 1 }, now, now)
      })
    } catch (err) {
      if (isUniqueViolation(err)) return nameTaken(c, body.branch_name)
      throw err
    }
    const created = await findBranch(db, id)
    return c.json(toBranchResponse(created!), 201)
  })

  const nameTaken = (c: Context, name: string) => errorJson(c, 409, `This project already has a branch named '${name}'`, 'branch_name_taken')

  app.on(...at(endpoints.listBranches), project, async (c) => c.json((await listBranchesOf(db, c.var.project.id)).map(toBranchResponse)))

  app.on(...at(endpoints.getBranchByName), validate('param', NameParam), project, async (c) => {
    const branch = await findBranchByName(db, c.var.project.id, c.req.valid('param').name)
    if (!branch) return errorJson(c, 404, 'Branch not found')
    return c.json(toBranchResponse(branch))
  })

  app.on(...at(endpoints.getBranch), ...branchRoute, async (c) => {
    const b = c.var.branch
    const version = await dbVersionOf(db, b.project_id)
    const host = new URL(baseUrl(deps.ownUrl)).hostname
    const detail: BranchDetailResponse = {
      ref: b.project_ref,
      postgres_version: version,
      postgres_engine: version.split('.')[0] ?? '',
      release_channel: 'ga',
      status: v1Status(b.project_status),
      db_host: `db.${b.project_ref}.${/^[\d.]+$|:/.test(host) ? 'localhost' : host}`,
      db_port: 5432,
      db_user: 'postgres',
    }
    return c.json(detail)
  })

  // ---------------------------------------------------------------------------------------------------------------
  // Change, delete, reset

  app.on(...at(endpoints.updateBranch), validate('param', BranchParam), validate('json', endpoints.updateBranch.body), memberBranch, mayChange, async (c) => {
    const body = c.req.valid('json')
    const b = c.var.branch
    if (body.git_branch !== undefined && body.git_branch !== b.git_branch) {
      const git = await gitBranchOf(c, { id: b.parent_project_id }, body.git_branch)
      if ('refusal' in git) return git.refusal
    }
    if (body.branch_name !== undefined && body.branch_name !== b.name && (await findBranchByName(db, b.parent_project_id, body.branch_name))) {
      return nameTaken(c, body.branch_name)
    }
    const now = clock.now().toISOString()
    try {
      await db.transaction((tx) => updateBranch(tx, { id: b.id, projectId: b.project_id }, body, now))
    } catch (err) {
      if (isUniqueViolation(err) && body.branch_name) return nameTaken(c, body.branch_name)
      throw err
    }
    return c.json(toBranchResponse((await findBranch(db, b.id))!))
  })

  // The branch's database and stored objects go first, then its rows (its project, steps and transitions by cascade): a crash between
  // the two leaves a branch that a second DELETE finishes.
  app.on(...at(endpoints.deleteBranch), ...branchRoute, mayChange, async (c) => {
    const b = c.var.branch
    await db.transaction((tx) => cancelPendingTransitions(tx, b.project_id, clock.now()))
    await deps.lifecycle.removing({ id: b.project_id, ref: b.project_ref })
    await projectDbs.drop(b.project_ref)
    await deleteBranchProject(db, b.project_id)
    return c.json({ message: 'ok' } satisfies BranchDeleteResponse)
  })

  // A reset reads the git branch's head again and starts the next build: its first step drops the database and makes
  // a new one from the template; every migration runs again, then the seed.
  app.on(...at(endpoints.resetBranch), validate('param', BranchParam), validate('json', endpoints.resetBranch.body), memberBranch, mayChange, async (c) => {
    const body = c.req.valid('json')
    const b = c.var.branch
    const git = await gitBranchOf(c, { id: b.parent_project_id }, b.git_branch)
    if ('refusal' in git) return git.refusal
    const read = await readRepository(host, git.connection, git.head.sha)
    const warnings = [...read.warnings, ...orderWarnings(read.migrations, await parentVersions(b.parent_ref))]
    const now = clock.now()
    await db.transaction(async (tx) => {
      const build = await startNextBuild(tx, b.id, git.head.sha, warnings, now)
      await replaceSteps(tx, b.id, stepsFrom(read, body.migration_version))
      await cancelPendingTransitions(tx, b.project_id, now)
      // Straight to COMING_UP, without the lifecycle's entry hooks: the build decides when it is up.
      await lifecycle.move(tx, b.project_id, { from: 'any', to: 'COMING_UP', run: 'none' }, now)
      await scheduleBranchStep(tx, b.project_id, { branch_id: b.id, build }, now, now)
    })
    return c.json({ workflow_run_id: randomUUID(), message: 'ok' } satisfies BranchUpdateResponse, 201)
  })

  // ---------------------------------------------------------------------------------------------------------------
  // The dry run, the build's results, the diff, the merge

  app.on(...at(endpoints.getBranchingPlan), refParam, validate('query', endpoints.getBranchingPlan.query), project, async (c) => {
    const { git_branch } = c.req.valid('query')
    const parent = c.var.project
    const git = await gitBranchOf(c, parent, git_branch)
    if ('refusal' in git) return git.refusal
    const read = await readRepository(host, git.connection, git.head.sha)
    return c.json(toPlan(read, git_branch, await parentVersions(parent.ref)) satisfies BranchingPlan)
  })

  app.on(...at(endpoints.getBranchMigrations), ...branchRoute, async (c) => c.json(toBranchMigrations(c.var.branch, await stepsOf(db, c.var.branch.id))))

  /** One read-only look at each side; a database that cannot be used answers as every feature does (core/domainErrors). */
  async function bothSides<T>(c: Context<BranchEnv>, fn: (ref: string) => Promise<T>) {
    try {
      return { ok: true as const, parent: await fn(c.var.branch.parent_ref), branch: await fn(c.var.branch.project_ref) }
    } catch (err) {
      if (!(err instanceof ProjectDbError)) throw err
      return { ok: false as const, response: answerDatabaseFailure(c, err, 'The databases cannot be compared right now') }
    }
  }

  async function diffOf(c: Context<BranchEnv>) {
    const sides = await bothSides(c, (ref) => projectDbs.transaction(ref, { readOnly: true }, readCatalog))
    if (!sides.ok) return sides
    return { ok: true as const, diff: { branch_id: c.var.branch.id, schemas: schemasOf(sides.parent, sides.branch), changes: diffCatalogs(sides.parent, sides.branch) } satisfies BranchDiff }
  }

  app.on(...at(endpoints.getBranchDiff), ...branchRoute, async (c) => {
    const result = await diffOf(c)
    return result.ok ? c.json(result.diff) : result.response
  })

  app.on(...at(endpoints.getBranchDiffText), ...branchRoute, async (c) => {
    const result = await diffOf(c)
    if (!result.ok) return result.response
    return c.text(diffText(result.diff.changes), 200, { 'content-type': 'text/plain; charset=utf-8' })
  })

  /** The branch's recorded migrations the parent has not recorded, in version order (up to `upTo`). */
  async function toMerge(c: Context<BranchEnv>, upTo?: string) {
    const sides = await bothSides(c, (ref) => projectDbs.transaction(ref, { readOnly: true }, (tx) => readHistory(tx, true)))
    if (!sides.ok) return sides
    const recorded = new Set(sides.parent.map((m) => m.version))
    const missing = sides.branch
      .filter((m) => !recorded.has(m.version) && (upTo === undefined || compareVersions(m.version, upTo) <= 0))
      .sort((x, y) => compareVersions(x.version, y.version))
    return { ok: true as const, missing }
  }

  app.on(...at(endpoints.getBranchMergePlan), ...branchRoute, async (c) => {
    const plan = await toMerge(c)
    if (!plan.ok) return plan.response
    return c.json({ branch_id: c.var.branch.id, migrations: plan.missing.map(recorded) } satisfies MergePlan)
  })

  app.on(...at(endpoints.mergeBranch), validate('param', BranchParam), validate('json', endpoints.mergeBranch.body), memberBranch, mayChange, async (c) => {
    const b = c.var.branch
    if (b.status !== 'MIGRATIONS_PASSED') {
      return errorJson(c, 409, `The branch is ${b.status}: only a branch whose migrations passed can be merged`, 'branch_not_ready')
    }
    const plan = await toMerge(c, c.req.valid('json').migration_version)
    if (!plan.ok) return plan.response
    const applied: RecordedMigration[] = []
    for (const m of plan.missing) {
      try {
        const done = await projectDbs.transaction(b.parent_ref, {}, (tx) => applyRecorded(tx, m))
        if (done.ran) applied.push(recorded(m))
      } catch (err) {
        if (err instanceof ProjectDbError) return answerDatabaseFailure(c, err, "The parent's database cannot be changed right now")
        if (!(err instanceof StatementFailure)) throw err
        const failure: MergeFailure = {
          message: `Migration ${m.version}_${m.name} failed on the parent: ${err.error.message}`,
          code: 'merge_migration_failed',
          migration: recorded(m),
          error: err.error,
          applied,
        }
        return c.json(failure, 422)
      }
    }
    return c.json({ workflow_run_id: randomUUID(), message: 'ok', applied } satisfies MergeResponse, 201)
  })

  return app
}

const recorded = (m: HistoryEntry): RecordedMigration => ({ version: m.version, name: m.name })
