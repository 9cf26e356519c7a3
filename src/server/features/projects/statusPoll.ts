/**
 * The status poll answered on Node's request, before the app, when everything it needs is in memory.
 *
 * `GET /platform/projects/{ref}/status` is what every waiting screen sends every 2–4 s, so it is most of the
 * platform's traffic (1,000 open dashboards). Through the app it costs the web Request, the router, and
 * a dozen middlewares that decide nothing for it: measured, about six times a bare server's work per poll. Here
 * the same answer is written straight to Node's response — only when the app would give exactly that answer:
 *  - the request passes every app-wide guard untouched (core/guards.ts passesGuardsUntouched: a GET to a known
 *    host, no body, no NUL), no development latency is set and requests are not being logged;
 *  - its session is in the cache, live, and needs no once-a-minute touch (session/auth.ts cachedSessionAccount);
 *  - the member's project is in the cache (core/cache.ts, kept right by the store's change notifications).
 * Anything else — a miss, a 401, a 404, a 421, a bad ref — returns false and the app answers it as usual, so there
 * is one meaning of every refusal. The answer carries the app's headers: the security headers read from the same
 * library (guards.ts readStaticHeaders), `Cache-Control: no-store`, and JSON as `c.json` sends it
 * (tests/server/status-poll-node.test.ts compares the two paths header by header).
 * The app hands over its list of app-wide middlewares (app.ts declares it once); each has a line in STANDS_IN_FOR
 * saying what this path does in its place. A middleware added, moved or removed without its line here makes this
 * path refuse every request (the app answers them all, and the test of this path fails): it is never skipped unseen.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { getProjectStatus } from '../../../contracts/endpoints'
import { cacheFor } from '../../core/cache'
import type { Deps } from '../../core/deps'
import { NO_STORE, passesGuardsUntouched, readStaticHeaders } from '../../core/guards'
import { routeOf } from '../../../contracts/endpoint'
import { cachedSessionAccount, sessionTokenIn } from '../session/auth'

/** A route answered on Node's request: true when it wrote the answer, false to leave the request to the app. */
export type NodeRoute = (req: IncomingMessage, res: ServerResponse) => boolean

/**
 * The app's middlewares, in the order they run (`name path`), and what this path does in place of each: a request
 * it answers would have passed each one untouched.
 */
export const STANDS_IN_FOR: ReadonlyArray<readonly [middleware: string, inItsPlace: string]> = [
  ['customDomains *', 'answers a configured host only (passesGuardsUntouched): a custom domain never is one'],
  ['logRequests *', 'refuses every request while requests are logged'],
  ['securityHeaders *', 'writes the same headers, read from the same library (readStaticHeaders)'],
  ['requireKnownHost *', 'answers a configured host only (passesGuardsUntouched)'],
  ['projectCors /p/*', 'not on this path'],
  ['limitBodies *', 'answers a request without a body only (passesGuardsUntouched)'],
  ['refuseCrossSite *', 'answers a GET only: the CSRF check concerns writes'],
  ['jsonOrNoBody *', 'answers a request without a body only (passesGuardsUntouched)'],
  ['refuseNul *', 'answers a path without a NUL only (passesGuardsUntouched)'],
  ['addedLatency /platform/*', 'refuses every request while a latency is set'],
  ['addedLatency /v1/*', 'not on this path'],
  ['requireSession /platform/*', 'answers a cached live session that needs no touch only (cachedSessionAccount)'],
  ['requireApiAuth /v1/*', 'not on this path'],
]

/** How the app's middlewares differ from those this path stands in for; undefined when they are exactly those. */
export function middlewaresUnaccounted(middlewares: ReadonlyArray<{ name: string; path: string }>): string | undefined {
  const actual = middlewares.map((m) => `${m.name} ${m.path}`)
  const known = STANDS_IN_FOR.map(([middleware]) => middleware)
  if (actual.join('\n') === known.join('\n')) return undefined
  const added = actual.filter((m) => !known.includes(m))
  const removed = known.filter((m) => !actual.includes(m))
  if (!added.length && !removed.length) return 'their order changed'
  return [...added.map((m) => `added ${m}`), ...removed.map((m) => `removed ${m}`)].join(', ')
}

/** `/platform/projects/:ref/status` with `:ref` as ProjectRef allows it (20 lower-case letters); no query string. */
function statusPathPattern(): RegExp {
  const [before, after] = routeOf(getProjectStatus).split(':ref')
  return new RegExp(`^${before}([a-z]{20})${after}$`)
}

export async function statusPollOnNode(
  deps: Pick<Deps, 'db' | 'config' | 'clock' | 'latency'>,
  hostAllowed: (host: string) => boolean,
  middlewares: ReadonlyArray<{ name: string; path: string }>,
): Promise<NodeRoute> {
  const { db, config, clock, latency } = deps
  const unaccounted = middlewaresUnaccounted(middlewares)
  if (unaccounted) {
    console.error(`status poll: the app's middlewares changed (${unaccounted}) and this path does not know it: every poll goes through the app`)
    return () => false
  }
  const pattern = statusPathPattern()
  const cache = cacheFor(db)
  const headers: Array<[string, string]> = [
    ...(await readStaticHeaders()),
    ['Cache-Control', NO_STORE],
    ['Content-Type', 'application/json'],
  ]
  const bodies = new Map<string, Buffer>()
  const bodyOf = (status: string) => {
    let body = bodies.get(status)
    if (!body) bodies.set(status, (body = Buffer.from(JSON.stringify({ status }))))
    return body
  }

  return (req, res) => {
    if (config.logRequests || latency.ms > 0 || !cache?.enabled) return false
    const match = pattern.exec(req.url ?? '')
    if (!match || !passesGuardsUntouched(req, hostAllowed)) return false
    const token = sessionTokenIn(req.headers.cookie)
    const account = token ? cachedSessionAccount(db, token, clock.now(), config.sessionIdleTimeoutMs) : undefined
    const project = account ? cache.memberProject(account.id, match[1]) : undefined
    if (!project) return false
    const body = bodyOf(project.status)
    res.writeHead(200, [...headers, ['Content-Length', String(body.length)]].flat())
    res.end(body)
    return true
  }
}
