/**
 * A function's page: the function, its deployed files, a new version deployed from the browser (multipart, as the
 * CLI's `functions deploy --use-api` sends it), verify_jwt, its logs, the project's secrets, and the Test panel's
 * request, sent to the function through the project's gateway with the chosen key as a client library would.
 */
import * as functionEndpoints from '../../contracts/endpoints/functions'
import * as endpoints from '../../contracts/endpoints/functionRuntime'
import { FunctionTestResult, TEST_BODY_LIMIT, type FunctionTestRequest } from '../../contracts/functionRuntime'
import type { CombinedStatsQuery, CreateSecretsBody } from '../../contracts/functions'
import type * as z from 'zod/mini'
import { call, type CallOptions } from '../http'

type StatsInterval = z.infer<typeof CombinedStatsQuery>['interval']

export const getFunction = (ref: string, slug: string, options?: CallOptions) => call(functionEndpoints.getFunction, { ref, slug }, options)
export const getFunctionFiles = (ref: string, slug: string, options?: CallOptions) => call(endpoints.getFunctionFiles, { ref, slug }, options)
export const getFunctionLogs = (ref: string, slug: string, options?: CallOptions) => call(functionEndpoints.functionLogs, { ref, slug }, options)
export const getFunctionStats = (ref: string, functionId: string, interval: StatsInterval, options?: CallOptions) =>
  call(functionEndpoints.functionCombinedStats, { ref }, { ...options, query: { interval, function_id: functionId } })
export const setVerifyJwt = (ref: string, slug: string, verifyJwt: boolean, options?: CallOptions) =>
  call(functionEndpoints.updateFunction, { ref, slug }, { ...options, body: { verify_jwt: verifyJwt } })
export const deleteFunction = (ref: string, slug: string, options?: CallOptions) => call(functionEndpoints.deleteFunction, { ref, slug }, options)
/** Version 1 of a new function from one body (index.ts); the platform refuses a slug the project has already (409). */
export const createFunction = (ref: string, fn: { slug: string; body: string; verify_jwt: boolean }, options?: CallOptions) =>
  call(functionEndpoints.createFunction, { ref }, { ...options, body: { slug: fn.slug, name: fn.slug, body: fn.body, verify_jwt: fn.verify_jwt } })

export interface DeployFiles {
  slug: string
  entrypoint_path: string
  files: Array<{ name: string; content: string }>
  verify_jwt?: boolean
  name?: string
}

/** Deploys a version made of `files` (a new function when the slug is new), as the CLI's `--use-api` deploy does. */
export function deployFunction(ref: string, deploy: DeployFiles, options?: CallOptions) {
  const form = new FormData()
  const metadata = { entrypoint_path: deploy.entrypoint_path, name: deploy.name, verify_jwt: deploy.verify_jwt }
  form.append('metadata', JSON.stringify(metadata))
  for (const file of deploy.files) form.append('file', new File([file.content], file.name, { type: 'application/typescript' }))
  return call(functionEndpoints.deployFunction, { ref }, { ...options, query: { slug: deploy.slug }, form })
}

export const listSecrets = (ref: string, options?: CallOptions) => call(functionEndpoints.listSecrets, { ref }, options)
export const createSecrets = (ref: string, secrets: z.input<typeof CreateSecretsBody>, options?: CallOptions) =>
  call(functionEndpoints.createSecrets, { ref }, { ...options, body: secrets })
export const deleteSecrets = (ref: string, names: string[], options?: CallOptions) => call(functionEndpoints.deleteSecrets, { ref }, { ...options, body: names })

/**
 * Sends the Test panel's request to `{project url}/functions/v1/{slug}{path}` with the key as `apikey` and bearer (or
 * a user's access token as the bearer),
 * and reads the whole answer: whatever status the function (or the gateway) answers is a result, not a failure; only
 * a request that never got an answer throws.
 */
export const createTestToken = (ref: string, userId: string, options?: CallOptions) => call(endpoints.createTestToken, { ref }, { ...options, body: { user_id: userId } })

export async function invokeFunction(request: FunctionTestRequest & { bearer?: string }, options?: CallOptions): Promise<FunctionTestResult> {
  const url = `${request.projectUrl.replace(/\/+$/, '')}/functions/v1/${encodeURIComponent(request.slug)}${request.path}`
  const headers = new Headers()
  for (const [name, value] of request.headers) if (name.trim() !== '') headers.append(name.trim(), value)
  headers.set('apikey', request.apiKey)
  headers.set('authorization', `Bearer ${request.bearer ?? request.apiKey}`)
  const withBody = request.method !== 'GET' && request.body !== ''
  const started = performance.now()
  let response: Response
  let text: string
  try {
    response = await fetch(url, { method: request.method, headers, body: withBody ? request.body : undefined, signal: options?.signal })
    text = await response.text()
  } catch (error) {
    if (options?.signal?.aborted) return new Promise<never>(() => {})
    throw new Error(error instanceof Error && error.message ? `The function could not be reached: ${error.message}` : 'The function could not be reached')
  }
  const duration = Math.max(0, Math.round(performance.now() - started))
  const body = text.length > TEST_BODY_LIMIT ? `${text.slice(0, TEST_BODY_LIMIT)}\n… (cut at ${TEST_BODY_LIMIT} characters)` : text
  return FunctionTestResult.parse({ status: response.status, statusText: response.statusText, headers: [...response.headers.entries()], body, duration_ms: duration })
}
