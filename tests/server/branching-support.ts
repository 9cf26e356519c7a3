/**
 * What the branching tests (and bench/branching.bench.ts) share: repositories of the platform's Git hosting written
 * straight into a store (a row under an organization's GitHub installation and its bare repository made with
 * `git fast-import`), connections, and the engine run until a branch's build settles. No vitest import: the bench
 * uses it outside vitest.
 */
import type { Db, Queryable } from '../../src/server/db'
import type { Clock, ServerConfig } from '../../src/server/config'
import type { Engine } from '../../src/server/engine/lifecycle'
import { gitHostFor } from '../../src/server/features/github'
import { fastImport } from '../../src/server/features/github/demo'
import { git } from '../../src/server/features/github/exec'

export interface RepoCommit {
  branch: string
  /** Start a new branch at the tip of this one. */
  from?: string
  files: Record<string, string>
}

/** The commits as git writes them: a message and a time of their own (a minute apart), by the tests' author. */
const fastImportOf = (commits: RepoCommit[]) =>
  fastImport(
    commits.map((commit, i) => ({ ...commit, message: `commit ${i + 1}`, at: 1_700_000_000 + i * 60 })),
    'Test <test@example.com>',
  )

/**
 * A repository of the organization's GitHub installation: with `demo`, the demo's content of that kind (made by the
 * git room on first use); otherwise the commits given.
 */
export async function addRepository(
  db: Queryable,
  config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>,
  org: string,
  name: string,
  content: { demo: 'notes' | 'plain' | 'broken' } | { commits: RepoCommit[] },
): Promise<number> {
  const demo = 'demo' in content ? content.demo : null
  const { rows } = await db.query<{ id: number }>(
    `insert into git_repositories (installation_id, name, default_branch, demo, created_at)
     select i.id, $2, 'main', $3, now() from integration_installations i join organizations o on o.id = i.organization_id
     where o.slug = $1 and i.integration = 'GitHub' returning id`,
    [org, name, demo],
  )
  const id = rows[0].id
  if ('commits' in content) {
    const host = gitHostFor(config)
    const dir = await host.ensure({ id, default_branch: 'main', demo: null })
    await git(['fast-import', '--quiet', '--done'], { cwd: dir, input: fastImportOf(content.commits) })
  }
  return id
}

/** Connects the project to the repository (as the Owner). */
export async function connect(db: Queryable, projectId: number, repositoryId: number): Promise<void> {
  await db.query(
    `insert into github_connections (installation_id, project_id, repository_id, added_by, inserted_at, updated_at)
     select r.installation_id, $1, r.id, (select id from accounts where primary_email = 'owner@example.com'), now(), now()
     from git_repositories r where r.id = $2`,
    [projectId, repositoryId],
  )
}

/** A project of the organization in ACTIVE_HEALTHY (Postgres 15.6 as staged projects are), with no database yet. */
export async function addProject(db: Queryable, org: string, name: string, ref: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into projects (ref, organization_id, name, status, region, db_version, inserted_at, updated_at)
     select $3, o.id, $2, 'ACTIVE_HEALTHY', 'us-east-1', '15.6', now(), now() from organizations o where o.slug = $1
     returning id`,
    [org, name, ref],
  )
  return rows[0].id
}

const SETTLED = ['MIGRATIONS_PASSED', 'MIGRATIONS_FAILED']

/** Runs the engine (moving the clock by `stepMs` each time) until the branch's build settles; its final status. */
export async function settle(
  server: { db: Db; engine: Engine; clock: Clock & { advance?(ms: number): void } },
  branchId: string,
  stepMs = 1_000,
  maxSteps = 500,
): Promise<string> {
  for (let i = 0; i < maxSteps; i++) {
    server.clock.advance?.(stepMs)
    await server.engine.runDue()
    const { rows } = await server.db.query<{ status: string }>('select status from branches where id = $1', [branchId])
    if (SETTLED.includes(rows[0]?.status ?? '')) return rows[0].status
  }
  throw new Error(`the branch ${branchId} did not settle in ${maxSteps} engine runs`)
}
