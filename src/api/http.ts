import ky, { HTTPError, TimeoutError } from 'ky'
import type { z } from 'zod'
import { ErrorBody } from '../contracts/common'

/** Every failure of a call, whatever its cause, reaches the machines as one ApiError with a readable message. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly kind: 'http' | 'timeout' | 'network' | 'malformed' | 'aborted',
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

let unauthorizedListener: (() => void) | null = null
/** The session machine registers here so any 401 sends the person to /sign-in. */
export function onUnauthorized(listener: (() => void) | null) {
  unauthorizedListener = listener
}

// No retries: retries, back-off and time-outs belong to the machines, where tests can see them.
const client = ky.create({ retry: 0, timeout: 30_000, credentials: 'same-origin', throwHttpErrors: true })

export interface CallOptions {
  signal?: AbortSignal
}

async function send<S extends z.ZodType>(
  method: 'get' | 'post' | 'put' | 'patch' | 'delete',
  url: string,
  schema: S | null,
  body: unknown,
  { signal }: CallOptions = {},
): Promise<z.infer<S>> {
  let response: Response
  try {
    response = await client(url, {
      method,
      signal,
      ...(body === undefined ? {} : { json: body }),
    })
  } catch (error) {
    // A call its caller cancelled answers nothing: the caller has gone (its state left, its actor stopped). Under
    // React's StrictMode an actor is stopped and started again at mount, and @xstate/react restores its running
    // promise child, so an error here would reach the restarted actor as the answer ('The request was cancelled').
    if (signal?.aborted) return new Promise<never>(() => {})
    throw await toApiError(error, signal)
  }
  if (schema === null) return undefined as z.infer<S>
  const text = await response.text()
  let json: unknown
  try {
    json = text === '' ? null : JSON.parse(text)
  } catch {
    throw new ApiError(`Malformed response from ${pathOf(url)}: not JSON`, response.status, 'malformed')
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : ''
    throw new ApiError(`Malformed response from ${pathOf(url)}${where}`, response.status, 'malformed')
  }
  return parsed.data
}

async function toApiError(error: unknown, signal?: AbortSignal): Promise<ApiError> {
  if (error instanceof HTTPError) {
    const status = error.response.status
    if (status === 401) unauthorizedListener?.()
    let message = `Request failed with status ${status}`
    try {
      const body = ErrorBody.safeParse(await error.response.json())
      if (body.success) message = body.data.message
    } catch {
      // a non-JSON error body keeps the generic message
    }
    return new ApiError(message, status, 'http')
  }
  if (error instanceof TimeoutError) return new ApiError('The request timed out', null, 'timeout')
  if (signal?.aborted || (error instanceof DOMException && error.name === 'AbortError')) {
    return new ApiError('The request was cancelled', null, 'aborted')
  }
  return new ApiError('Unable to reach the server', null, 'network')
}

function pathOf(url: string) {
  return url.replace(/^https?:\/\/[^/]+/, '')
}

export const http = {
  get: <S extends z.ZodType>(url: string, schema: S, options?: CallOptions) => send('get', url, schema, undefined, options),
  post: <S extends z.ZodType>(url: string, schema: S | null, body?: unknown, options?: CallOptions) =>
    send('post', url, schema, body ?? {}, options),
  delete: <S extends z.ZodType>(url: string, schema: S | null, options?: CallOptions) =>
    send('delete', url, schema, undefined, options),
}
