/**
 * The edge function runtime of one platform server: the supervisor of the Deno workers, the functions' logs, and how
 * a function's stored version becomes a bundle with its environment (the project's secrets plus SUPABASE_URL,
 * SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY and SUPABASE_DB_URL: the project's database through the platform's
 * Postgres port, as the functions' own login with the owner's rights).
 */
import path from 'node:path'
import type { Deps } from '../../../core/deps'
import { secretBoxFor } from '../../../core/sealed'
import { FUNCTIONS_DB_LOGIN, functionsDbPassword } from '../../../projectdb/password'
import { FunctionLogs } from './logs'
import { functionFiles, projectApiKeys, projectPlan, secretValues, type RunnableFunction } from './store'
import { FunctionSupervisor, type FunctionBundle, type FunctionLimits } from './supervisor'
import { createFunctionUsage, type FunctionUsage } from './usage'

export interface FunctionRuntime {
  supervisor: FunctionSupervisor
  logs: FunctionLogs
  /** Invocations counted for the usage page. */
  usage: FunctionUsage
  bundleFor(projectId: number, ref: string, projectUrl: string, fn: RunnableFunction): Promise<FunctionBundle>
  /**
   * A project is being deleted: ends its functions' workers, deletes their bundle folders and drops their queued log
   * entries. Its functions, their files, logs and its secrets are rows that go with the project's (by cascade).
   */
  removeProject(projectId: number): Promise<void>
  /** A function is deleted: ends its workers and drops its queued log entries (its kept ones go with its row). */
  removeFunction(functionId: string): Promise<void>
  close(): Promise<void>
}

export interface RuntimeOptions {
  limits?: Partial<FunctionLimits>
  /** The port the platform's Postgres listener took (it may start after the runtime); else the configured one. */
  databasePort?: () => number | undefined
}

export function createFunctionRuntime(deps: Pick<Deps, 'db' | 'config' | 'clock'>, opts: RuntimeOptions = {}): FunctionRuntime {
  const { limits } = opts
  const { db, config, clock } = deps
  const logs = new FunctionLogs(db, () => clock.now().getTime())
  const usage = createFunctionUsage(db, clock)
  const supervisor = new FunctionSupervisor({
    bundlesDir: path.join(config.dataDir, 'functions', `bundles-${process.pid}`),
    denoDir: config.functions?.denoDir ?? path.join(config.dataDir, 'functions', 'deno-cache'),
    limits: { ...config.functions, ...limits },
    logs,
  })
  /** On the platform's own host, as the pooler settings give it (`sslmode=disable`: the port has no TLS). */
  const databaseUrl = (projectUrl: string, ref: string, jwtSecret: string) => {
    const host = new URL(projectUrl).hostname
    const port = opts.databasePort?.() ?? config.wire.port
    const user = `${FUNCTIONS_DB_LOGIN}.${ref}`
    return `postgresql://${user}:${functionsDbPassword(jwtSecret, ref)}@${host}:${port}/postgres?sslmode=disable`
  }
  return {
    supervisor,
    logs,
    usage,
    async bundleFor(projectId, ref, projectUrl, fn) {
      const [files, secrets, keys, plan] = await Promise.all([
        functionFiles(db, fn.id),
        secretBoxFor(config).then((box) => secretValues(db, projectId, box)),
        projectApiKeys(db, projectId),
        projectPlan(db, projectId),
      ])
      return {
        projectId,
        functionId: fn.id,
        version: fn.version,
        // The platform gives a paid plan's functions a longer wall clock (400 s against 150 s).
        wallClockMs: plan === 'free' ? supervisor.limits.wallClockMs : supervisor.limits.paidWallClockMs,
        entrypoint: fn.entrypoint_path,
        files: files.length > 0 ? files : [{ name: fn.entrypoint_path, content: fn.body }],
        env: {
          ...secrets,
          SUPABASE_URL: projectUrl,
          ...(keys ? { SUPABASE_ANON_KEY: keys.anon_key, SUPABASE_SERVICE_ROLE_KEY: keys.service_role_key } : {}),
          ...(keys ? { SUPABASE_DB_URL: databaseUrl(projectUrl, ref, keys.jwt_secret) } : {}),
        },
      }
    },
    async removeProject(projectId) {
      const { rows } = await db.query<{ id: string }>('select id::text as id from edge_functions where project_id = $1', [projectId])
      await supervisor.retireProject(projectId)
      for (const { id } of rows) logs.forget(id)
    },
    async removeFunction(functionId) {
      await supervisor.retire(functionId)
      logs.forget(functionId)
    },
    async close() {
      await supervisor.close()
      await Promise.all([usage.stop(), logs.close()])
    },
  }
}
