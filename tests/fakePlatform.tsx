/**
 * The one fake platform of the dashboard's view and bad-input tests: the global fetch is stubbed, so the real HTTP
 * client (ky calls fetch(Request)) and the contracts run on every answer. `stubPlatform` reads each request (method,
 * path, JSON body) and answers it as a browser's fetch does (an aborted request rejects with an AbortError); the
 * answers come from one of two handlers:
 * - `fakePlatform`: an in-memory platform answering from fixtures, with a session that sign-in opens and sign-out
 *   closes (tests/web, and the model tests that render the whole app);
 * - `stubFetch`: a script — the polled endpoint answers from a list, then from a fallback; other endpoints have fixed
 *   answers (tests/badInput, under the fake clock of `useFakeClock`), with the bad answers every polled endpoint is
 *   tried with (`BAD_ANSWERS`, `badAnswerCases`).
 * It also renders the real app on a memory location (`renderApp`).
 */
import { render } from '@testing-library/react'
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest'
import { memoryLocation } from 'wouter/memory-location'
import { App, type AppProps } from '../src/app/App'
import type { AccessToken, OrganizationPermissions, Profile } from '../src/contracts/session'
import type { Permission } from '../src/contracts/common'
import type { Organization } from '../src/contracts/organizations'
import type { Project } from '../src/contracts/projects'
import type { BuildFlags } from '../src/views/shell/contexts'
import { makeProject } from './fixtures'

/** One answer of the platform, made when the request arrives. */
export type Answer = () => Promise<Response>

export const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

export const json = (body: unknown, status = 200): Answer => () => Promise.resolve(jsonResponse(body, status))
export const text = (body: string, status = 200): Answer => () => Promise.resolve(new Response(body, { status }))
/** The network fails: fetch rejects as a browser's does. */
export const networkFailure: Answer = () => Promise.reject(new TypeError('Failed to fetch'))
/** No answer at all: only the machine's time-out (aborting the request) ends it. */
export const noAnswer: Answer = () => new Promise<Response>(() => {})

/** A request as the fake platform reads it. */
export interface PlatformRequest {
  method: string
  path: string
  /** The parsed JSON body of a request other than GET, when it has one. */
  body?: unknown
}

/**
 * Stubs the global fetch with `answer`: each request is read (its body parsed as JSON, except a GET's), then answered
 * by `answer`, unless it is aborted first. Returns the stub (a vi.fn, for its calls).
 */
export function stubPlatform(answer: (request: PlatformRequest) => Answer) {
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init)
    const path = new URL(request.url, 'http://localhost').pathname
    const method = request.method
    const body = method === 'GET' ? '' : await request.text()
    const respond = answer({ method, path, body: body ? JSON.parse(body) : undefined })
    return new Promise<Response>((resolve, reject) => {
      if (request.signal.aborted) reject(new DOMException('aborted', 'AbortError'))
      request.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
      respond().then(resolve, reject)
    })
  })
  vi.stubGlobal('fetch', fetchImpl)
  return fetchImpl
}

// The in-memory platform.

export const ALL_PERMISSIONS: Permission[] = [
  'projects:write',
  'project_auth:all',
  'project_storage:all',
  'project_edge_function:all',
  'realtime:all',
  'service_api_keys:read',
  'infra:execute:project-initialize-or-resume',
]

export const ORGS: Organization[] = [
  { id: 1, slug: 'demo-free', name: 'Demo Free', plan: { id: 'free' }, opt_in_tags: [] },
  { id: 2, slug: 'demo-pro', name: 'Demo Pro', plan: { id: 'pro' }, opt_in_tags: ['AI_SQL'] },
]

export const PROJECTS: Project[] = [
  makeProject({ id: 1, ref: 'abcdefghijklmnopqrst', name: 'Analytics', organization_id: 2, organization_slug: 'demo-pro' }),
  makeProject({ id: 2, ref: 'bcdefghijklmnopqrstu', name: 'Storefront', organization_id: 2, organization_slug: 'demo-pro', region: 'eu-west-1', status: 'INACTIVE' }),
]

export const OWNER: Profile = { id: 1, username: 'owner', primary_email: 'owner@example.com' }

export interface PlatformOptions {
  signedIn?: boolean
  profile?: Profile
  permissions?: OrganizationPermissions[]
  organizations?: Organization[]
  projects?: Project[]
  tokens?: AccessToken[]
  password?: string
}

const isCredentials = (body: unknown): body is { email: string; password: string } =>
  typeof body === 'object' && body !== null && 'email' in body && 'password' in body

export function fakePlatform(options: PlatformOptions = {}) {
  // The shared fixtures are copied: a platform's state changes (a project created, renamed), and the web test files of
  // a worker share these modules.
  const state = {
    signedIn: options.signedIn ?? true,
    profile: options.profile ?? structuredClone(OWNER),
    permissions:
      options.permissions ??
      (options.organizations ?? ORGS).map((org) => ({ organization_id: org.id, organization_slug: org.slug, role: 'Owner' as const, permissions: [...ALL_PERMISSIONS] })),
    organizations: options.organizations ?? structuredClone(ORGS),
    projects: options.projects ?? structuredClone(PROJECTS),
    tokens: options.tokens ?? [],
  }
  const calls: PlatformRequest[] = []

  const route = ({ method, path, body }: PlatformRequest): Response => {
    if (path === '/platform/auth/sign-in' && method === 'POST') {
      if (!isCredentials(body) || body.email !== state.profile.primary_email || body.password !== (options.password ?? 'demo1234')) {
        return jsonResponse({ message: 'Invalid e-mail or password' }, 401)
      }
      state.signedIn = true
      return jsonResponse(state.profile)
    }
    if (path === '/platform/auth/sign-out' && method === 'POST') {
      state.signedIn = false
      return new Response(null, { status: 204 })
    }
    if (!state.signedIn) return jsonResponse({ message: 'Not signed in' }, 401)

    const orgMatch = path.match(/^\/platform\/organizations\/([^/]+)(\/billing\/subscription)?$/)
    const projectMatch = path.match(/^\/platform\/projects\/([^/]+)(\/status)?$/)
    if (path === '/platform/profile') return jsonResponse(state.profile)
    if (path === '/platform/profile/permissions') return jsonResponse(state.permissions)
    if (path === '/platform/profile/access-tokens' && method === 'GET') return jsonResponse(state.tokens)
    if (path === '/platform/organizations') return jsonResponse(state.organizations)
    if (path === '/platform/projects') return jsonResponse(state.projects)
    if (orgMatch) {
      const org = state.organizations.find((o) => o.slug === orgMatch[1])
      if (!org) return jsonResponse({ message: 'Organization not found' }, 404)
      return orgMatch[2]
        ? jsonResponse({ plan: { id: org.plan.id, name: org.plan.id === 'free' ? 'Free' : 'Pro' }, usage_billing_enabled: false })
        : jsonResponse(org)
    }
    if (projectMatch) {
      const project = state.projects.find((p) => p.ref === projectMatch[1])
      if (!project) return jsonResponse({ message: 'Project not found' }, 404)
      return projectMatch[2] ? jsonResponse({ status: project.status }) : jsonResponse(project)
    }
    return jsonResponse({ message: `No route for ${method} ${path}` }, 404)
  }

  const fetchImpl = stubPlatform((request) => {
    calls.push(request)
    const response = route(request)
    return () => Promise.resolve(response)
  })
  return { state, calls, fetch: fetchImpl }
}

/** A request a page's own route answered, as `platformWith` records it: its signal tells a read StrictMode's second mount abandoned. */
export interface RecordedCall {
  method: string
  path: string
  body: unknown
  signal: AbortSignal
}

/**
 * The fake platform plus a page's own routes: each request goes to `routes` first (undefined: the fake platform's
 * answer). Returns the requests the routes answered, in order.
 */
export function platformWith(options: PlatformOptions, routes: (method: string, path: string, body: unknown) => Response | Promise<Response> | undefined): RecordedCall[] {
  const platform = fakePlatform(options)
  const calls: RecordedCall[] = []
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init)
    const path = new URL(request.url, 'http://localhost').pathname
    const text = request.method === 'GET' ? '' : await request.clone().text()
    const body = text ? JSON.parse(text) : undefined
    const answer = routes(request.method, path, body)
    if (answer === undefined) return platform.fetch(request)
    calls.push({ method: request.method, path, body, signal: request.signal })
    return answer
  })
  return calls
}

// The scripted platform of the bad-input tests.

/** The bad answers every polled endpoint is tried with; each file adds the bodies its contract refuses. */
export const BAD_ANSWERS: Array<[string, Answer]> = [
  ['a body that is not JSON', text('<html>Bad gateway</html>')],
  ['a 500', json({ message: 'Internal server error' }, 500)],
  ['a 500 that is not JSON', text('oops', 500)],
  ['a network failure', networkFailure],
  ['a time-out', noAnswer],
]

/** What the HTTP client says of each of BAD_ANSWERS, as a screen shows it when it adds nothing of its own. */
export const BAD_ANSWER_MESSAGES: Record<string, RegExp> = {
  'a body that is not JSON': /Malformed response from .*: not JSON/,
  'a 500': /Internal server error/,
  'a 500 that is not JSON': /Request failed with status 500/,
  'a network failure': /Unable to reach the server/,
  'a time-out': /The request timed out/,
}

/** Each of BAD_ANSWERS with the message expected on screen (`messages`: a screen that words them its own way). */
export const badAnswerCases = (messages: Record<string, RegExp> = BAD_ANSWER_MESSAGES): Array<[string, Answer, RegExp]> =>
  BAD_ANSWERS.map(([name, answer]) => [name, answer, messages[name]])

export interface ScriptedFetch {
  /** When each request to the polled endpoint started (fake time). */
  calls: number[]
  /** The path of each request to the polled endpoint. */
  paths: string[]
}

/**
 * Stubs the global fetch: requests whose path matches `polled` get `answers` in order, then `fallback`; a path
 * matching one of `fixed` gets that answer every time; anything else is a 404.
 */
export function stubFetch(options: { polled: RegExp; answers: Answer[]; fallback: Answer; fixed?: Array<[RegExp, Answer]> }): ScriptedFetch {
  const calls: number[] = []
  const paths: string[] = []
  stubPlatform(({ path }) => {
    const fixed = options.fixed?.find(([pattern]) => pattern.test(path))
    if (fixed) return fixed[1]
    if (options.polled.test(path)) {
      calls.push(Date.now())
      paths.push(path)
      return options.answers.shift() ?? options.fallback
    }
    return json({ message: `No route for ${path}` }, 404)
  })
  return { calls, paths }
}

/** Fake timers from `now` before each test (before any render: delays start at mount); all undone after it. */
export function useFakeClock(now = 0) {
  beforeEach(() => vi.useFakeTimers({ now }))
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
  })
}

/**
 * Every element the size of a viewport `height` × `width` for the file's tests, the prototype restored after them: a
 * virtualised list renders the rows inside its scroller's client size, and the test DOM gives every element none.
 */
export function useElementSize(height: number, width: number) {
  const sized = ['clientHeight', 'clientWidth'] as const
  const before = sized.map((name) => Object.getOwnPropertyDescriptor(HTMLElement.prototype, name))
  beforeAll(() => {
    for (const name of sized) Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get: () => (name === 'clientHeight' ? height : width) })
  })
  afterAll(() => {
    sized.forEach((name, i) => {
      const descriptor = before[i]
      if (descriptor) Object.defineProperty(HTMLElement.prototype, name, descriptor)
      else delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name]
    })
  })
}

// The app.

export const PLATFORM_FLAGS: BuildFlags = {
  isPlatform: true,
  isProduction: false,
  features: { auth: true, storage: true, edgeFunctions: true, realtime: true },
}

export function renderApp(path: string, props: Omit<AppProps, 'location'> = {}) {
  const [pathname, search = ''] = path.split('?')
  const location = memoryLocation({ path: pathname, searchPath: search, record: true })
  const utils = render(<App location={location} flags={PLATFORM_FLAGS} {...props} />)
  return { ...utils, location }
}

/** The current path of a memory location. */
export const currentPath = (location: ReturnType<typeof memoryLocation>) => location.hook()[0]
