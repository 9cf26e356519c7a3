/**
 * The app-wide guards every request passes before any route (mounted once in app.ts, so later features inherit
 * them): the Host check (DNS rebinding), security headers, the body limit, JSON-or-no-body on API writes and
 * the refusal of NUL characters. Each answers a bad request with a 4xx JSON `{ message }`.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { bodyLimit } from 'hono/body-limit'
import { secureHeaders } from 'hono/secure-headers'
import type { ServerConfig } from '../config'
import { errorJson, isApiPath, type AppEnv } from './http'

// ---------------------------------------------------------------------------------------------------------------
// Host

/** Host names that always reach this machine, whatever the port: a DNS-rebound name is none of them. */
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]'])
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]', ''])

/** Splits `name[:port]` (IPv6 in brackets) into a lower-case hostname and the port ('' when none). */
export function splitHost(value: string): { hostname: string; port: string } | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]\s/]+)(?::(\d{1,5}))?$/i.exec(value.trim())
  if (!m) return undefined
  return { hostname: m[1].toLowerCase().replace(/\.$/, ''), port: m[2] ?? '' }
}

/**
 * The accepted Host values: loopback names on any port, PUBLIC_URL's host, the address the server binds to
 * (when it is not a wildcard) and ALLOWED_HOSTS (`name` = any port, `name:port` = that port only).
 */
export function hostAllowed(config: Pick<ServerConfig, 'publicUrl' | 'allowedHosts' | 'host'>): (host: string) => boolean {
  const anyPort = new Set(LOOPBACK_HOSTNAMES)
  const exact = new Set<string>()
  const bind = config.host.trim().toLowerCase()
  if (!WILDCARD_BINDS.has(bind)) anyPort.add(bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind)
  if (config.publicUrl) {
    const url = new URL(config.publicUrl)
    exact.add(`${url.hostname.toLowerCase()}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`)
  }
  for (const entry of config.allowedHosts) {
    const parts = splitHost(entry)
    if (!parts) continue
    if (parts.port) exact.add(`${parts.hostname}:${parts.port}`)
    else anyPort.add(parts.hostname)
  }
  return (host) => {
    const parts = splitHost(host)
    if (!parts) return false
    if (anyPort.has(parts.hostname)) return true
    // A Host without a port means the scheme's default; PUBLIC_URL's entry carries it explicitly.
    return exact.has(`${parts.hostname}:${parts.port || '80'}`) || exact.has(`${parts.hostname}:${parts.port || '443'}`)
  }
}

/**
 * DNS rebinding: a page on `rebind.attacker.example` that resolves to 127.0.0.1 sends that name as
 * Host. Only configured hosts are served; anything else is 421 before any route, the dashboard's files included.
 * `app.request('/x')` in tests carries no Host header: the URL's host (localhost) stands in for it.
 */
export function requireKnownHost(config: Pick<ServerConfig, 'publicUrl' | 'allowedHosts' | 'host'>): MiddlewareHandler<AppEnv> {
  const allowed = hostAllowed(config)
  return async (c, next) => {
    const host = c.req.header('host') ?? new URL(c.req.url).host
    if (!allowed(host)) {
      return errorJson(c, 421, 'This server does not answer for that host name (add it to ALLOWED_HOSTS)')
    }
    await next()
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Security headers

/**
 * The built dashboard is one module script and one stylesheet from /assets, with no inline script or
 * style, so `'self'` is enough; React sets `style` through the CSSOM, which style-src does not govern.
 */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
}

/**
 * The policy of a dashboard document (static.ts): the same, with one style nonce. The SQL Editor's code editor
 * adds its styles in a `<style>` element, which `'self'` refuses; the nonce, new with every document and given to
 * the page in a meta element, lets exactly those in.
 */
export function documentContentSecurityPolicy(nonce: string): string {
  return Object.entries(CONTENT_SECURITY_POLICY)
    .map(([directive, values]) => {
      const name = directive.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
      return `${name} ${(directive === 'styleSrc' ? [...values, `'nonce-${nonce}'`] : values).join(' ')}`
    })
    .join('; ')
}

const headers = secureHeaders({
  contentSecurityPolicy: CONTENT_SECURITY_POLICY,
  // A header the answer sets itself wins, as on the Node path (where a route's own headers take precedence over
  // those set before it runs): a dashboard document sets its policy with its nonce.
  overwrite: false,
  xFrameOptions: 'DENY',
  referrerPolicy: 'no-referrer',
  // HSTS belongs to whoever terminates TLS; on plain http://localhost it would only confuse a browser.
  strictTransportSecurity: false,
})

/** The headers `headers` sets on an answer, read once from the library itself (for the Node paths below). */
let staticHeaders: Promise<Array<[string, string]>> | undefined
export function readStaticHeaders(): Promise<Array<[string, string]>> {
  staticHeaders ??= Promise.resolve(
    new Hono()
      .use(headers)
      .get('/', (c) => c.body(null))
      .request('/'),
  ).then((res) => [...res.headers].filter(([name]) => name !== 'content-type'))
  return staticHeaders
}

export const NO_STORE = 'no-store'

/**
 * Security headers on every answer (errors and 421s included), and `Cache-Control: no-store` on every API
 * answer: sign-in, the profile, settings with keys, JWT secret status, new access tokens and v1 api-keys carry
 * secrets, and a status poll must never be served stale either, so the rule is the whole API rather than a list.
 * Served by @hono/node-server (`c.env.outgoing`), the same headers go on Node's response before the route runs
 * (Node merges them into the route's own): setting them on the web Response made every answer build undici
 * Headers and convert them back, a sixth of a status poll's time. No route sets any of them (the two that
 * set no-store themselves agree), so which of the two wins never matters. A web Request (tests) takes hono's path.
 */
export const securityHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing
  if (outgoing === undefined) {
    await headers(c, next)
    if (isApiPath(c.req.path)) c.res.headers.set('Cache-Control', NO_STORE)
    return
  }
  for (const [name, value] of await readStaticHeaders()) outgoing.setHeader(name, value)
  if (isApiPath(c.req.path)) outgoing.setHeader('Cache-Control', NO_STORE)
  await next()
}

// ---------------------------------------------------------------------------------------------------------------
// Body limit

/** Any JSON body of the API today fits in this many bytes (the largest, a JWT secret, is a few hundred). */
export const JSON_BODY_LIMIT = 64 * 1024

/** The most a git request's body may ever be (GIT_MAX_PUSH_BYTES is capped to it). */
export const GIT_BODY_CEILING = 1024 * 1024 * 1024

/**
 * Routes allowed a larger body, by method and path pattern, each with its reason. The limit is decided before the
 * body is read, so it has to live in this table rather than on the route (a route's own bodyLimit would run after
 * this one). A `streamed` route counts its body itself while it streams it on (and answers 413 past its own,
 * smaller limit): here only a declared Content-Length over `maxBytes` is refused, so the body is never buffered.
 */
/** The Table Editor's CSV import: a text/csv body, streamed. */
const TABLE_EDITOR_IMPORT = /^\/platform\/projects\/[^/]+\/table-editor\/tables\/[^/]+\/import$/

export const LARGE_BODY_ROUTES: ReadonlyArray<{ method: string; path: RegExp; maxBytes: number; streamed?: true; why: string }> = [
  {
    method: 'POST',
    path: /^\/git\/[^/]+\/[^/]+\/git-(upload|receive)-pack$/,
    maxBytes: GIT_BODY_CEILING,
    streamed: true,
    why:
      "a git push's pack is legitimately megabytes (a fetch's negotiation can pass 64 kB too); the git route " +
      '(features/github/smartHttp.ts) streams it into git, counting, and refuses it past GIT_MAX_PUSH_BYTES with a 413, ' +
      'where buffering it here would hold a whole push in memory',
  },
  {
    method: 'POST',
    path: /^\/(v1|platform)\/projects\/[^/]+\/database\/query(\/read-only)?$/,
    maxBytes: 2 * 1024 * 1024,
    why: 'a SQL script (a schema, a migration, a data load pasted in the SQL Editor) is legitimately megabytes',
  },
  ...['POST', 'PATCH'].map((method) => ({
    method,
    path: /^\/p\/[^/]+\/rest\/v1\/.+$/,
    maxBytes: 8 * 1024 * 1024,
    why: "a project's REST API: an insert (or upsert) of many rows in one array is legitimately megabytes",
  })),
  ...['POST', 'PUT', 'PATCH'].map((method) => ({
    method,
    path: /^\/p\/[^/]+\/storage\/v1\/(object\/.+|upload\/resumable(\/.*)?)$/,
    maxBytes: 5 * 1024 ** 3 + 64 * 1024,
    streamed: true as const,
    why:
      "a stored file (or a resumable upload's chunk) is legitimately gigabytes: the storage service (features/storage) streams it to disk, " +
      "counting, and refuses it past the bucket's limit with a 413, where buffering it here would hold a whole file in memory",
  })),
  ...['POST', 'PATCH'].map((method) => ({
    method,
    path: /^\/platform\/projects\/[^/]+\/table-editor\/tables\/[^/]+\/rows$/,
    maxBytes: 24 * 1024 * 1024,
    why: "the Table Editor's row insert or update: a text or JSON cell is legitimately megabytes (10 MB of text)",
  })),
  {
    method: 'POST',
    path: TABLE_EDITOR_IMPORT,
    maxBytes: 100 * 1024 * 1024,
    streamed: true,
    why:
      "a CSV imported into a table is legitimately tens of megabytes: the Table Editor (features/database/rows.ts) parses " +
      'it as it streams, counting, and refuses it past the same limit with a 413',
  },
  {
    method: 'POST',
    path: /^\/v1\/projects\/[^/]+\/functions\/deploy$/,
    maxBytes: 20 * 1024 * 1024,
    why: "a function's deploy carries its source files (multipart); the route caps the files themselves at 10 MB",
  },
  ...['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].map((method) => ({
    method,
    path: /^\/p\/[^/]+\/functions\/v1\/.+$/,
    maxBytes: 1024 * 1024 * 1024,
    streamed: true as const,
    why:
      "an edge function's request is streamed on to its worker (an upload, a long stream): the runtime counts it and " +
      'refuses it past its own request limit (features/functions/runtime/supervisor.ts)',
  })),
]

function limitFor(method: string, path: string): { maxBytes: number; streamed: boolean } {
  const route = LARGE_BODY_ROUTES.find((r) => r.method === method && r.path.test(path))
  return { maxBytes: route?.maxBytes ?? JSON_BODY_LIMIT, streamed: route?.streamed ?? false }
}

const tooLarge = (maxBytes: number) => (c: Context) =>
  errorJson(c, 413, `The request body is larger than this endpoint accepts (${maxBytes} bytes)`)

/** One bodyLimit middleware per distinct limit, made once. */
const limiters = new Map<number, MiddlewareHandler>()
function limiter(maxBytes: number): MiddlewareHandler {
  let handler = limiters.get(maxBytes)
  if (!handler) limiters.set(maxBytes, (handler = bodyLimit({ maxSize: maxBytes, onError: tooLarge(maxBytes) })))
  return handler
}

/**
 * Whether the request carries a body. Served by @hono/node-server (`c.env.incoming`, Node's IncomingMessage), it is
 * read from the headers alone — HTTP/1.1: a request has a body exactly when it sends Content-Length or
 * Transfer-Encoding — because there the `c.req.raw.body` getter builds a whole web Request with its AbortSignal,
 * which was a fifth of a status poll's time. A web Request (`app.request` in tests) is asked directly.
 */
export function hasBody(c: Context): boolean {
  if ((c.env as { incoming?: unknown } | undefined)?.incoming === undefined) return c.req.raw.body !== null
  const length = c.req.header('content-length')
  return (length !== undefined && length.trim() !== '0') || c.req.header('transfer-encoding') !== undefined
}

/**
 * The body is refused past its limit before it is read — by Content-Length when given, and while
 * streaming when not (chunked): the reader stops at the limit instead of buffering 100 MB.
 */
export const limitBodies: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!hasBody(c)) return next()
  const { maxBytes, streamed } = limitFor(c.req.method, c.req.path)
  if (streamed) {
    const length = Number(c.req.header('content-length') ?? '0')
    return length > maxBytes ? tooLarge(maxBytes)(c) : next()
  }
  return limiter(maxBytes)(c, next)
}

// ---------------------------------------------------------------------------------------------------------------
// JSON or no body

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * The products behind the gateway whose bodies are not JSON by nature: a stored file, a form the auth service reads,
 * a function's own request. Keys authorize them, never a cookie, so a cross-site form has nothing to ride on; each
 * product checks the media types it takes and answers in its own shape.
 */
const OWN_MEDIA_TYPES = /^\/p\/[^/]+\/(auth|storage|functions)\/v1(\/|$)/
/** A function's deploy is multipart (metadata and source files), as the CLI sends it; the route checks it. */
const FUNCTION_DEPLOY = /^\/v1\/projects\/[^/]+\/functions\/deploy$/
const FUNCTION_PATH = /^\/p\/[^/]+\/functions\/v1(\/|$)/
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i

const mediaTypeOf = (c: Context) => (c.req.header('content-type') ?? '').split(';')[0].trim()

/**
 * An API write takes a JSON body or none. A `text/plain` body is what a cross-site form or a
 * `no-cors` fetch can send without a preflight, and the validator would read it as `{}` (a JWT *roll* instead of
 * the secret sent). An empty body with any Content-Type (fetch's default for `body: ''`) is no body.
 * Git's smart HTTP routes (/git/…, features/github/smartHttp.ts) send git's own media types; they are not API paths,
 * so this guard never applies to them, and they take no cookie (a personal access token is their only credential).
 */
export const jsonOrNoBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!WRITE_METHODS.has(c.req.method) || !isApiPath(c.req.path) || JSON_MEDIA_TYPE.test(mediaTypeOf(c))) return next()
  if (OWN_MEDIA_TYPES.test(c.req.path) || FUNCTION_DEPLOY.test(c.req.path)) return next()
  // text/csv is not a type a cross-site form or no-cors fetch can send, so it cannot ride on the cookie either.
  if (TABLE_EDITOR_IMPORT.test(c.req.path) && mediaTypeOf(c).toLowerCase() === 'text/csv') return next()
  if (!hasBody(c)) return next()
  // Already capped by limitBodies; Hono caches the text, so a route can still read it.
  if ((await c.req.text()) === '') return next()
  return errorJson(c, 415, 'The request body must be JSON (Content-Type: application/json), or empty')
}

// ---------------------------------------------------------------------------------------------------------------
// NUL characters

const NUL = '\u0000'
const STORAGE_PRODUCT = /^\/p\/[^/]+\/storage\/v1(\/|$)/

function hasNul(value: unknown): boolean {
  if (typeof value === 'string') return value.includes(NUL)
  if (Array.isArray(value)) return value.some(hasNul)
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => k.includes(NUL) || hasNul(v))
  }
  return false
}

const nulMessage = (where: string) =>
  `The request's ${where} contains a NUL character (\\u0000), which no field accepts`

/**
 * PostgreSQL cannot store U+0000 in text, so a NUL anywhere (path, query, JSON body) was a 500 from
 * the database. Checked once here for every route: the percent-encoded URL (path parameters and query) and every
 * string and key of a JSON body.
 */
export const refuseNul: MiddlewareHandler<AppEnv> = async (c, next) => {
  // The storage service refuses a NUL in a key or a body itself, in storage's error shape (features/storage).
  if (STORAGE_PRODUCT.test(c.req.path)) return next()
  const url = c.req.url
  if (/%00/.test(url) || url.includes(NUL)) return errorJson(c, 400, nulMessage('path or query'))
  // An edge function's body streams on to the function unread (it may be a gigabyte): the function judges it.
  if (hasBody(c) && JSON_MEDIA_TYPE.test(mediaTypeOf(c)) && !FUNCTION_PATH.test(c.req.path)) {
    const text = await c.req.text()
    if (text.includes(NUL) || /\\u0000/i.test(text)) {
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        // Malformed JSON is the route's validator's to answer (400), with its own message.
        return next()
      }
      if (hasNul(parsed)) return errorJson(c, 400, nulMessage('body'))
    }
  }
  await next()
}

// ---------------------------------------------------------------------------------------------------------------
// Requests every guard lets through unchanged

/**
 * Whether every guard above would let this Node request through untouched, judged from its request line and headers
 * alone: a GET to a configured host, without a body and without a NUL. A route answered on Node before the app
 * (features/projects/statusPoll.ts) serves only such requests and leaves every other one to the app, whose guards
 * then answer it (421, 413, 400 …) as they answer any route. CSRF and JSON-or-no-body concern writes only.
 */
export function passesGuardsUntouched(
  req: IncomingMessage,
  allowed: (host: string) => boolean,
): boolean {
  if (req.method !== 'GET') return false
  const { host, 'content-length': length, 'transfer-encoding': encoding } = req.headers
  if (host === undefined || !allowed(host)) return false
  if ((length !== undefined && length.trim() !== '0') || encoding !== undefined) return false
  const url = req.url ?? ''
  return !url.includes('%00') && !url.includes(NUL)
}
