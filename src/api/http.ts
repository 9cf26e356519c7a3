import ky, { HTTPError, TimeoutError } from 'ky'
import type * as z from 'zod/mini'
import { config } from '../config'
import { ErrorBody } from '../contracts/common'
import { pathOf, type ApiBase, type Endpoint, type ParamsOf } from '../contracts/endpoint'

/** Every failure of a call, whatever its cause, reaches the machines as one ApiError with a readable message. */
class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly kind: 'http' | 'timeout' | 'network' | 'malformed' | 'aborted',
    /** The error answer's JSON body, when it had one: fields beyond `message` (a failed query's position …). */
    readonly body: unknown = null,
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

/** The bases the dashboard calls, as it was built: the platform API ({platform}) and the Management API ({api}). */
function baseUrl(base: ApiBase): string {
  if (base === 'platform') return config.platformUrl
  if (base === 'v1') return config.apiUrl
  throw new Error(`The dashboard does not call the ${base} API`)
}

type ResponseOf<E extends Endpoint> = E['response'] extends z.ZodMiniType ? z.infer<E['response']> : void
type BodyOf<E extends Endpoint> = E['body'] extends z.ZodMiniType ? z.input<E['body']> : never

interface Request<E extends Endpoint> extends CallOptions {
  body?: BodyOf<E>
  /** Query parameters in order; undefined ones are left out. */
  query?: Record<string, string | undefined>
  /** A multipart body instead of JSON (a function's deploy). */
  form?: FormData
}

/**
 * Calls one endpoint: its path filled from `params` under the base the dashboard was built with, a JSON body on
 * every method but GET and DELETE (`{}` when none is given; a DELETE only when given one), and the answer parsed with the endpoint's schema.
 * A missing path parameter throws before anything is sent.
 */
export function call<E extends Endpoint>(
  endpoint: E,
  params: { [K in ParamsOf<E['path']>]: string | number | undefined },
  { body, query, signal, form }: Request<E> = {},
): Promise<ResponseOf<E>> {
  const search = query ? searchOf(query) : ''
  const url = `${baseUrl(endpoint.base)}${pathOf(endpoint, params)}${search}`
  // A DELETE carries a body only when given one (the secrets' DELETE takes the names to delete).
  const withBody = endpoint.method !== 'GET' && (endpoint.method !== 'DELETE' || body !== undefined)
  return send(endpoint.method, url, endpoint.response, withBody ? (form ?? body ?? {}) : undefined, signal) as Promise<ResponseOf<E>>
}

function searchOf(query: Record<string, string | undefined>) {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, value)
  const text = params.toString()
  return text === '' ? '' : `?${text}`
}

async function send(method: Endpoint['method'], url: string, schema: z.ZodMiniType | null, body: unknown, signal?: AbortSignal): Promise<unknown> {
  let response: Response
  try {
    response = await client(url, {
      method: method.toLowerCase(),
      signal,
      ...(body === undefined ? {} : body instanceof FormData ? { body } : { json: body }),
    })
  } catch (error) {
    // A call its caller cancelled answers nothing: the caller has gone (its state left, its actor stopped). Under
    // React's StrictMode an actor is stopped and started again at mount, and @xstate/react restores its running
    // promise child, so an error here would reach the restarted actor as the answer ('The request was cancelled').
    if (signal?.aborted) return new Promise<never>(() => {})
    throw await toApiError(error, signal)
  }
  if (schema === null) return undefined
  let text: string
  try {
    text = await readText(response)
  } catch (error) {
    if (signal?.aborted) return new Promise<never>(() => {})
    throw await toApiError(error, signal)
  }
  let json: unknown
  try {
    json = text === '' ? null : JSON.parse(text)
  } catch {
    throw new ApiError(`Malformed response from ${pathWithoutOrigin(url)}: not JSON`, response.status, 'malformed')
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : ''
    throw new ApiError(`Malformed response from ${pathWithoutOrigin(url)}${where}`, response.status, 'malformed')
  }
  return parsed.data
}

/**
 * The body as text, decoded chunk by chunk as it arrives. Chromium's `response.text()` decodes only once it holds the
 * whole body: for the 4 MB REST schema of 1,000 tables that ends about 110 ms after the last byte, against about
 * 13 ms this way (medians of 6 on a page doing nothing else).
 */
async function readText(response: Response): Promise<string> {
  if (response.body === null) return ''
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return text + decoder.decode()
    text += decoder.decode(value, { stream: true })
  }
}

async function toApiError(error: unknown, signal?: AbortSignal): Promise<ApiError> {
  if (error instanceof HTTPError) {
    const status = error.response.status
    if (status === 401) unauthorizedListener?.()
    let message = `Request failed with status ${status}`
    let json: unknown = null
    try {
      json = await error.response.json()
      const body = ErrorBody.safeParse(json)
      if (body.success) message = body.data.message
    } catch {
      // a non-JSON error body keeps the generic message
    }
    return new ApiError(message, status, 'http', json)
  }
  if (error instanceof TimeoutError) return new ApiError('The request timed out', null, 'timeout')
  if (signal?.aborted || (error instanceof DOMException && error.name === 'AbortError')) {
    return new ApiError('The request was cancelled', null, 'aborted')
  }
  return new ApiError('Unable to reach the server', null, 'network')
}

function pathWithoutOrigin(url: string) {
  return url.replace(/^https?:\/\/[^/]+/, '')
}
