/**
 * The one stubbed fetch of the bad-input tests: a platform answering through the real HTTP client (ky) and the
 * contracts. The polled endpoint answers from a script, then from a fallback; other endpoints have fixed answers;
 * an aborted request rejects with an AbortError, as a browser's fetch does. Fake timers run from `now`.
 */
import { afterEach, beforeEach, vi } from 'vitest'

/** One answer of the platform, made when the request arrives. */
export type Answer = () => Promise<Response>

export const json = (body: unknown, status = 200): Answer => () =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))
export const text = (body: string, status = 200): Answer => () => Promise.resolve(new Response(body, { status }))
/** The network fails: fetch rejects as a browser's does. */
export const networkFailure: Answer = () => Promise.reject(new TypeError('Failed to fetch'))
/** No answer at all: only the machine's time-out (aborting the request) ends it. */
export const noAnswer: Answer = () => new Promise<Response>(() => {})

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
  vi.stubGlobal('fetch', (input: Request) => {
    const path = new URL(input.url, 'http://localhost').pathname
    const fixed = options.fixed?.find(([pattern]) => pattern.test(path))
    let answer: Answer
    if (fixed) answer = fixed[1]
    else if (options.polled.test(path)) {
      calls.push(Date.now())
      paths.push(path)
      answer = options.answers.shift() ?? options.fallback
    } else answer = json({ message: `No route for ${path}` }, 404)
    return new Promise<Response>((resolve, reject) => {
      if (input.signal.aborted) reject(new DOMException('aborted', 'AbortError'))
      input.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
      answer().then(resolve, reject)
    })
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
