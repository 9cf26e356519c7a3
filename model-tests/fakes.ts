/**
 * The one set of fake I/O the machine and model tests drive (tests/machines and model-tests):
 * - promise actors the test settles step by step (`deferredActor`), for machines tested without HTTP;
 * - endpoints answering from a script (`scriptedEndpoint`, `scriptedStatus`), for machines run under fake timers;
 * - a fake platform that answers the real HTTP client request by request (`createControlledFetch`), and the
 *   polling harness around it (`usePlatform`): fake timers, the stubbed fetch, the beat of a poll and its check;
 * - the fake clock of a path (`usePathClock`).
 */
import { act } from '@testing-library/react'
import { afterEach, beforeEach, expect, vi } from 'vitest'
import { fromPromise } from 'xstate'
import type { ProjectStatus } from '../src/contracts/common'

interface PendingRequest {
  url: string
  method: string
  signal: AbortSignal | null
  respond: (response: Response) => void
}

export type ControlledFetch = ReturnType<typeof createControlledFetch>

/**
 * A platform that answers only when the test says so: every fetch waits until `respond` is called, so a
 * model step can resolve, fail or time out exactly the request the machine made.
 */
export function createControlledFetch() {
  const pending: PendingRequest[] = []
  /** Every request made, with the (fake) time it started. */
  const log: Array<{ url: string; method: string; at: number }> = []
  const fetchImpl = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init)
    const url = new URL(request.url, 'http://localhost').pathname
    log.push({ url, method: request.method, at: Date.now() })
    return new Promise<Response>((resolve, reject) => {
      const entry: PendingRequest = { url, method: request.method, signal: request.signal, respond: resolve }
      pending.push(entry)
      request.signal?.addEventListener('abort', () => {
        pending.splice(pending.indexOf(entry), 1)
        reject(new DOMException('The operation was aborted.', 'AbortError'))
      })
    })
  }
  function take(path: RegExp) {
    const index = pending.findIndex((p) => path.test(p.url))
    if (index < 0) throw new Error(`No pending request matches ${path}; pending: ${pending.map((p) => p.url).join(', ') || 'none'}`)
    return pending.splice(index, 1)[0]
  }
  return {
    fetch: fetchImpl,
    pending,
    log,
    json(path: RegExp, body: unknown, status = 200) {
      take(path).respond(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))
    },
    text(path: RegExp, body: string, status = 200) {
      take(path).respond(new Response(body, { status, headers: { 'content-type': 'text/plain' } }))
    },
    isPending(path: RegExp) {
      return pending.some((p) => path.test(p.url))
    },
  }
}

/**
 * The fake clock and the fake platform of a test file, set before each test and undone after it: fake timers from
 * `now` (on before any render: a machine's delays start at mount) and a controlled fetch as the global fetch.
 * It also knows the beat of a poll: `nextBeat` moves the clock to when the next request is due — one beat after
 * the previous request *started*, whatever became of it — and `expectBeat` checks that every request to an
 * endpoint started exactly on the beat.
 */
export function usePlatform(options: { now?: number } = {}) {
  const start = options.now ?? 0
  let current: ControlledFetch | null = null
  beforeEach(() => {
    vi.useFakeTimers({ now: start })
    current = createControlledFetch()
    vi.stubGlobal('fetch', current.fetch)
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.useRealTimers()
    current = null
  })
  const server = () => {
    if (!current) throw new Error('usePlatform: the platform exists only inside a test')
    return current
  }
  /** Moves the fake clock by `ms` and lets React render what changed. */
  const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
  /** When each request to `path` started, in ms since the test started. */
  const startsOf = (path: RegExp) => server().log.filter((r) => path.test(r.url)).map((r) => r.at - start)
  const elapsed = () => Date.now() - start
  return {
    get server() {
      return server()
    },
    advance,
    /** Lets an answered request reach the machine and the screen, without moving the clock. */
    settle: () => advance(0),
    startsOf,
    /**
     * Moves the clock to the next beat of the poll of `path`: `every` ms after the previous request started, or,
     * before the first request, to `firstAt` (ms since the test started).
     */
    async nextBeat(path: RegExp, every: number, firstAt = every) {
      const starts = startsOf(path)
      const due = starts.length > 0 ? starts[starts.length - 1] + every : firstAt
      if (due < elapsed()) throw new Error(`nextBeat: the beat of ${path} was due at ${due} ms, it is ${elapsed()} ms`)
      await advance(due - elapsed())
    },
    /** Every request to `path` started on the beat: at `firstAt`, then exactly `every` ms apart. */
    expectBeat(path: RegExp, every: number, firstAt = every) {
      const starts = startsOf(path)
      expect(starts, `requests to ${path} on a ${every} ms beat from ${firstAt} ms`).toEqual(starts.map((_, i) => firstAt + i * every))
    },
  }
}

interface Pending<TOutput, TInput> {
  input: TInput
  signal: AbortSignal
  resolve: (output: TOutput) => void
  reject: (error: unknown) => void
}

/**
 * A promise actor whose every run waits until the test resolves or rejects it. `resolve`/`reject` settle the oldest
 * pending run inside React's act (what a rendered view needs); `pending` holds every run not yet settled and not
 * abandoned, with its input and abort signal: a run whose invocation was stopped (its signal aborted: the machine left
 * the state, a time-out fired) can no longer reach the machine, so an answer meant for the run that replaced it goes
 * to that one. `runs` holds every run in the order the machine started them, settled, abandoned or not: a test with
 * no rendered view names a run by its number (`runs[1].signal.aborted`) and settles it directly (`runs[0].resolve`).
 */
export function deferredActor<TOutput, TInput = unknown>(name: string) {
  const pending: Array<Pending<TOutput, TInput>> = []
  const runs: Array<Pending<TOutput, TInput>> = []
  const take = () => {
    const next = pending.shift()
    if (!next) throw new Error(`${name}: no pending run`)
    return next
  }
  const start = (input: TInput, signal: AbortSignal) =>
    new Promise<TOutput>((resolve, reject) => {
      // A run settled through `runs` is no longer pending: the next `resolve`/`reject` takes the run after it.
      const settled = () => {
        const index = pending.indexOf(run)
        if (index >= 0) pending.splice(index, 1)
      }
      const run: Pending<TOutput, TInput> = {
        input,
        signal,
        resolve: (output) => (settled(), resolve(output)),
        reject: (error) => (settled(), reject(error)),
      }
      pending.push(run)
      runs.push(run)
      signal.addEventListener('abort', settled, { once: true })
    })
  return {
    logic: fromPromise<TOutput, TInput>(({ input, signal }) => start(input, signal)),
    pending,
    runs,
    async resolve(output: TOutput) {
      const run = take()
      await act(async () => run.resolve(output))
    },
    async reject(error: unknown) {
      const run = take()
      await act(async () => run.reject(error))
    },
  }
}

/** An error as the HTTP client raises it, with its status. */
export const apiError = (message: string, status: number | null) => Object.assign(new Error(message), { status })

/**
 * Fake timers from `now` (0 unless told) before each test (a machine's delays start when its view mounts); after
 * the test, the actor it handed to `run` is stopped, then real timers are back. Returns `run(actor)`, which returns
 * the actor.
 */
export function usePathClock(options: { now?: number } = {}) {
  let running: { stop(): void } | null = null
  beforeEach(() => vi.useFakeTimers({ now: options.now ?? 0 }))
  afterEach(() => {
    running?.stop()
    running = null
    vi.useRealTimers()
  })
  return <A extends { stop(): void }>(actor: A): A => {
    running = actor
    return actor
  }
}

/**
 * A scripted answer: an output, a failure, no answer at all until the request is aborted ('hang'), or an output or
 * failure that comes only `after` ms (a slow answer; aborted before then, it never comes).
 */
export type Scripted<TOutput> = TOutput | Error | 'hang' | { after: number; answer: TOutput | Error }

/** A slow answer: `answer` comes `ms` after the request started. */
export const slow = <TOutput>(ms: number, answer: TOutput | Error) => ({ after: ms, answer })

const isSlow = <TOutput>(next: Scripted<TOutput>): next is { after: number; answer: TOutput | Error } =>
  typeof next === 'object' && next !== null && 'after' in next && 'answer' in next

/**
 * An endpoint answering from a script (then `fallback`), recording when each request started, when an unanswered
 * one was aborted, and the input of each; `calls` holds each request whole (when it started, its input, its abort
 * signal). Under fake timers the times are exact.
 */
export function scriptedEndpoint<TOutput, TInput = unknown>(answers: Array<Scripted<TOutput>>, fallback: Scripted<TOutput>) {
  const requests: number[] = []
  const aborted: number[] = []
  const inputs: TInput[] = []
  const calls: Array<{ at: number; input: TInput; signal: AbortSignal }> = []
  const actor = fromPromise<TOutput, TInput>(({ signal, input }) => {
    requests.push(Date.now())
    inputs.push(input)
    calls.push({ at: Date.now(), input, signal })
    const next = answers.length > 0 ? answers.shift()! : fallback
    const onAbort = (reject: (error: Error) => void) =>
      signal.addEventListener('abort', () => {
        aborted.push(Date.now())
        reject(new Error('aborted'))
      })
    if (next === 'hang') return new Promise<never>((_, reject) => onAbort(reject))
    if (isSlow(next)) {
      return new Promise<TOutput>((resolve, reject) => {
        const timer = setTimeout(() => (next.answer instanceof Error ? reject(next.answer) : resolve(next.answer)), next.after)
        onAbort((error) => {
          clearTimeout(timer)
          reject(error)
        })
      })
    }
    if (next instanceof Error) return Promise.reject(next)
    return Promise.resolve(next)
  })
  return { actor, requests, aborted, inputs, calls }
}

/**
 * An endpoint whose every answer the test computes from the request (`answer(input, signal)`): an answer that depends
 * on the input or on how often it was asked, or one the test settles by hand. Records when each request started and
 * its input, like `scriptedEndpoint`.
 */
export function answeringEndpoint<TOutput, TInput = unknown>(answer: (input: TInput, signal: AbortSignal) => Promise<TOutput> | TOutput) {
  const requests: number[] = []
  const inputs: TInput[] = []
  const actor = fromPromise<TOutput, TInput>(async ({ input, signal }) => {
    requests.push(Date.now())
    inputs.push(input)
    return answer(input, signal)
  })
  return { actor, requests, inputs }
}

/** A scripted answer of the project status endpoint. */
export type Answer = ProjectStatus | Error | 'hang' | { after: number; answer: ProjectStatus | Error }

/** The project status endpoint, scripted: statuses stand for `{ status }` answers. */
export function scriptedStatus(answers: Answer[], fallback: ProjectStatus) {
  const wrap = (answer: Answer): Scripted<{ status: ProjectStatus }> =>
    typeof answer === 'string' && answer !== 'hang'
      ? { status: answer }
      : isSlow(answer)
        ? { after: answer.after, answer: typeof answer.answer === 'string' ? { status: answer.answer } : answer.answer }
        : (answer as Error | 'hang')
  return scriptedEndpoint<{ status: ProjectStatus }, { ref: string }>(answers.map(wrap), { status: fallback })
}
