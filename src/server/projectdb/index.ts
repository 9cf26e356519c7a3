/**
 * The platform's project databases: the engine chosen by DATABASE_URL (PGlite folders under DATA_DIR/projects, or
 * a database per project on that server), behind the store's view of the project:
 *  - `transaction` runs only while the project is ACTIVE_HEALTHY; otherwise it throws ProjectDbError with code
 *    'database_unavailable' (the REST endpoint answers 503 then). It reads the project's status from the store, so
 *    never call it inside a store transaction (PGlite's store is one connection);
 *  - a project past COMING_UP that has no database yet (the demo's, or one made before this feature) gets one the
 *    first time something opens it, from its demo schema when it has one (table project_databases).
 */
import type { ServerConfig } from '../config'
import type { Queryable } from '../db'
import { demoSchemaSql } from './demoSchemas'
import { DatabaseManager } from './manager'
import { pgliteBackend } from './pglite'
import { postgresBackend } from './postgres'
import { ProjectDbError, type ProjectDatabases } from './types'

export { ProjectDbError } from './types'
export type { DbRole, LeaseOptions, ProjectDatabases, ProjectQueryResult, ProjectTx, RawLease, TransactionOptions } from './types'

/** PROJECT_DB_MAX_OPEN, PROJECT_DB_IDLE_MS, PROJECT_DB_QUERY_TIMEOUT_MS (see config.ts). */
export type ProjectDbSettings = ServerConfig['projectDb']

export interface ProjectDbPlacement {
  /** PGlite: the folder of the project folders (default DATA_DIR/projects). */
  root?: string
  /** PGlite: where the template folder is cached (default `root`; the tests share one in the temp folder). */
  templateCacheDir?: string
}

/** The engine alone: no status check, no lazy creation (tests of the engine, tools). */
export function createEngineDatabases(
  config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'> & { projectDb: ProjectDbSettings },
  placement: ProjectDbPlacement = {},
): DatabaseManager {
  const backend = config.databaseUrl
    ? postgresBackend(config.databaseUrl)
    : pgliteBackend({
        root: placement.root ?? `${config.dataDir}/projects`,
        templateCacheDir: placement.templateCacheDir ?? config.projectDb.templateCacheDir,
        wasmTier: config.projectDb.wasmTier,
      })
  return new DatabaseManager(backend, config.projectDb)
}

interface ProjectState {
  id: number
  status: string
  demo_schema: string | null
  organization_id: number
}

/**
 * The version new project databases report: the store's own `server_version`. The project databases run on the
 * store's engine (PGlite's package for both, or the one server of DATABASE_URL), so the store answers at once, where
 * asking a project engine could mean an initdb first. Runs on whatever handle the caller holds (a store transaction).
 */
export async function engineVersionIn(q: Queryable): Promise<string> {
  const { rows } = await q.query<{ v: string }>(`select split_part(current_setting('server_version'), ' ', 1) as v`)
  return rows[0].v
}

/** Creates a project's database unless it exists, with its demo schema when it has one (the store says which). */
export async function ensureProjectDatabase(store: Queryable, dbs: ProjectDatabases, ref: string): Promise<void> {
  if (await dbs.exists(ref)) return
  const { rows } = await store.query<{ demo_schema: string | null; organization_id: number }>(
    `select pd.demo_schema, p.organization_id from projects p left join project_databases pd on pd.project_id = p.id where p.ref = $1`,
    [ref],
  )
  await dbs.create(ref, { schemaSql: demoSchemaSql(rows[0]?.demo_schema ?? null), tenant: tenantOf(rows[0]) })
}

/** The tenant the open databases are shared between (manager.ts): the project's organization, which its plan bills. */
function tenantOf(project: { organization_id: number } | undefined): string | undefined {
  return project ? `org:${project.organization_id}` : undefined
}

export function createProjectDatabases(
  config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'> & { projectDb: ProjectDbSettings },
  store?: Queryable,
  placement: ProjectDbPlacement = {},
): ProjectDatabases {
  const engine = createEngineDatabases(config, placement)
  if (!store) return engine
  /** Refs known to have a database (saves a look on every transaction); forgotten on drop. */
  const known = new Set<string>()

  return {
    kind: engine.kind,
    create: async (ref, opts) => {
      await engine.create(ref, opts)
      known.add(ref)
    },
    exists: (ref) => engine.exists(ref),
    async transaction(ref, opts, fn) {
      if (opts.platform) return engine.transaction(ref, opts, fn)
      const tenant = await usable(ref)
      return engine.transaction(ref, { ...opts, tenant }, fn)
    },
    async lease(ref, opts) {
      const tenant = await usable(ref)
      return engine.lease(ref, { ...opts, tenant })
    },
    close: (ref) => engine.close(ref),
    drop: async (ref) => {
      known.delete(ref)
      await engine.drop(ref)
    },
    openRefs: () => engine.openRefs(),
    listen: (ref, channel, onPayload) => engine.listen(ref, channel, onPayload),
    prepare: () => engine.prepare(),
    closeAll: () => engine.closeAll(),
    serverVersion: () => engineVersionIn(store),
  }

  /** The project's tenant once it is ACTIVE_HEALTHY and has its database; ProjectDbError otherwise. */
  async function usable(ref: string): Promise<string> {
    const { rows } = await store!.query<ProjectState>(
      `select p.id, p.status, pd.demo_schema, p.organization_id from projects p
       left join project_databases pd on pd.project_id = p.id where p.ref = $1`,
      [ref],
    )
    const project = rows[0]
    if (!project) throw new ProjectDbError(`no project ${ref}`, { code: 'database_unavailable' })
    if (project.status !== 'ACTIVE_HEALTHY') {
      throw new ProjectDbError(`the project's database is not available while the project is ${project.status}`, {
        code: 'database_unavailable',
      })
    }
    const tenant = tenantOf(project)
    if (!known.has(ref)) {
      if (!(await engine.exists(ref))) await engine.create(ref, { schemaSql: demoSchemaSql(project.demo_schema), tenant })
      known.add(ref)
    }
    return tenant!
  }
}
