/**
 * The storage service's errors in the platform's shape, `{ statusCode, error, message }` with statusCode a string,
 * which storage-js reads into its StorageApiError (message, status, statusCode).
 */
import type { GatewayRefusal } from '../../gateway'
import { ProjectDbError } from '../../projectdb/types'

export class StorageError extends Error {
  readonly status: number
  readonly error: string
  constructor(status: number, error: string, message: string) {
    super(message)
    this.name = 'StorageError'
    this.status = status
    this.error = error
  }
}

export function storageErrorResponse(status: number, error: string, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ statusCode: String(status), error, message }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  })
}

export const bucketNotFound = () => new StorageError(404, 'Bucket not found', 'Bucket not found')
export const objectNotFound = () => new StorageError(404, 'not_found', 'Object not found')
export const duplicate = () => new StorageError(409, 'Duplicate', 'The resource already exists')
export const tooLarge = () => new StorageError(413, 'Payload too large', 'The object exceeded the maximum allowed size')
export const invalidKey = (key: string, why: string) => new StorageError(400, 'InvalidKey', `Invalid key: ${JSON.stringify(key.slice(0, 200))} (${why})`)
export const invalidRequest = (message: string) => new StorageError(400, 'InvalidRequest', message)
export const noCaller = () =>
  new StorageError(401, 'Unauthorized', "A key is required: send the project's anon or service_role key (apikey or Authorization: Bearer)")

/** The answer for an error met while serving: ours as they are, the database's mapped to the platform's, else rethrown. */
export function answerError(err: unknown): Response {
  if (err instanceof StorageError) return storageErrorResponse(err.status, err.error, err.message)
  if (err instanceof ProjectDbError) {
    switch (err.code) {
      case '42501':
        // Row level security (or a missing grant): the platform's wording for a policy that does not allow it.
        return storageErrorResponse(403, 'Unauthorized', err.message.includes('row-level security') ? 'new row violates row-level security policy' : err.message)
      case '23505':
        return storageErrorResponse(409, 'Duplicate', 'The resource already exists')
      case '23503':
        return storageErrorResponse(409, 'InvalidRequest', 'The bucket you tried to delete is not empty')
      case 'database_unavailable':
      case 'database_busy':
        return storageErrorResponse(503, 'DatabaseUnavailable', 'The project database is not available right now', err.retryAfterSeconds ? { 'retry-after': String(err.retryAfterSeconds) } : {})
      case 'query_timeout':
        return storageErrorResponse(544, 'DatabaseTimeout', 'The database statement timed out')
      default:
        if (/^(22|23|42)/.test(err.code)) return storageErrorResponse(400, 'InvalidRequest', err.message)
    }
  }
  throw err
}

/** The gateway's refusals in storage's shape. */
export function refuse(refusal: GatewayRefusal): Response {
  const error = refusal.status === 401 ? 'Unauthorized' : refusal.status === 404 ? 'Not found' : 'Service unavailable'
  return storageErrorResponse(refusal.status, error, refusal.details ? `${refusal.message}: ${refusal.details}` : refusal.message, refusal.headers)
}
