/**
 * The edge function runtime of one platform server: the supervisor of the Deno workers, the functions' logs, and how
 * a function's stored version becomes a bundle with its environment (the project's secrets plus SUPABASE_URL,
 * SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY).
 */
import path from 'node:path'
import type { Deps } from '../../../core/deps'
import { FunctionLogs } from './logs'
import { functionFiles, projectApiKeys, secretValues, type RunnableFunction } from './store'
import { FunctionSupervisor, type FunctionBundle, type FunctionLimits } from './supervisor'

export interface FunctionRuntime {
  supervisor: FunctionSupervisor
  logs: FunctionLogs
  bundleFor(projectId: number, projectUrl: string, fn: RunnableFunction): Promise<FunctionBundle>
  close(): Promise<void>
}

export function createFunctionRuntime(deps: Pick<Deps, 'db' | 'config'>, limits?: Partial<FunctionLimits>): FunctionRuntime {
  const { db, config } = deps
  const logs = new FunctionLogs()
  const supervisor = new FunctionSupervisor({
    bundlesDir: path.join(config.dataDir, 'functions', `bundles-${process.pid}`),
    denoDir: config.functions?.denoDir ?? path.join(config.dataDir, 'functions', 'deno-cache'),
    limits: { ...config.functions, ...limits },
    logs,
  })
  return {
    supervisor,
    logs,
    async bundleFor(projectId, projectUrl, fn) {
      const [files, secrets, keys] = await Promise.all([functionFiles(db, fn.id), secretValues(db, projectId), projectApiKeys(db, projectId)])
      return {
        functionId: fn.id,
        version: fn.version,
        entrypoint: fn.entrypoint_path,
        files: files.length > 0 ? files : [{ name: fn.entrypoint_path, content: fn.body }],
        env: {
          ...secrets,
          SUPABASE_URL: projectUrl,
          ...(keys ? { SUPABASE_ANON_KEY: keys.anon_key, SUPABASE_SERVICE_ROLE_KEY: keys.service_role_key } : {}),
        },
      }
    },
    close: () => supervisor.close(),
  }
}
