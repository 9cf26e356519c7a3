/**
 * The one support module of the model tests (it absorbed tests/web/modelSupport.ts):
 * - coverage of a machine's states and transitions by a set of paths, measured against the machine's own
 *   transition definitions (so a path set that misses one fails the test);
 * - a fake platform that answers the real HTTP client request by request (`createControlledFetch`), and the
 *   polling harness around it (`usePlatform`): fake timers, the stubbed fetch, the beat of a poll and its check;
 * - promise actors the test settles step by step (`deferredActor`), for machines tested without HTTP.
 * Every render of these suites runs under React's StrictMode (tests/setup.web.ts), as in `npm run dev`.
 */
import { act } from '@testing-library/react'
import { afterEach, beforeEach, expect, vi } from 'vitest'
import { fromPromise, type ActorLogic, type AnyStateMachine, type AnyMachineSnapshot, type EventObject, type StateNode } from 'xstate'
import { TestModel, type TestModelOptions, type TestPath } from 'xstate/graph'

type AnyNode = StateNode<any, any>

type ModelOptions = NonNullable<ConstructorParameters<typeof TestModel<AnyMachineSnapshot, EventObject, unknown>>[1]>

/**
 * A TestModel whose events may include the machine's internal edges (`xstate.done.actor.*`, `xstate.after.*`),
 * which the machine's declared event union does not name.
 */
export function modelOf(machine: AnyStateMachine, options: ModelOptions) {
  return new TestModel(machine as unknown as ActorLogic<AnyMachineSnapshot, EventObject, unknown>, {
    // Without this, state assertions keyed by state name never run (the default matcher only knows '*').
    stateMatcher: (snapshot, key) => key === '*' || (snapshot as AnyMachineSnapshot).matches(key as never),
    ...options,
  })
}

function allNodes(node: AnyNode): AnyNode[] {
  return [node, ...Object.values(node.states as Record<string, AnyNode>).flatMap(allNodes)]
}

const transitionKey = (sourceId: string, eventType: string, index: number) => `${sourceId} --${eventType}#${index}`

/** The states a machine enters on start: its initial chain (every region of a parallel state). */
function initialChain(node: AnyNode): AnyNode[] {
  const children = Object.values(node.states as Record<string, AnyNode>)
  if (children.length === 0) return [node]
  if (node.type === 'parallel') return [node, ...children.flatMap(initialChain)]
  const initial = (node as any).initial?.target?.[0] as AnyNode | undefined
  return initial ? [node, ...initialChain(initial)] : [node]
}

/** Every state node id and every transition definition (including eventless ones) of a machine. */
export function machineInventory(machine: AnyStateMachine) {
  const states = new Set<string>()
  const transitions = new Set<string>()
  for (const node of allNodes(machine.root as AnyNode)) {
    // A history state is a pointer to a state, never a state a machine is in.
    if (node !== machine.root && node.type !== 'history') states.add(node.id)
    for (const [eventType, defs] of node.transitions as Map<string, unknown[]>) {
      defs.forEach((_, index) => transitions.add(transitionKey(node.id, eventType, index)))
    }
    ;(node.always ?? []).forEach((_: unknown, index: number) => transitions.add(transitionKey(node.id, '(always)', index)))
  }
  return { states, transitions }
}

/** Which states and transitions the given paths reach, replaying each step through the machine. */
export function coverageOf(machine: AnyStateMachine, paths: Array<TestPath<AnyMachineSnapshot, EventObject>>) {
  const states = new Set<string>()
  const transitions = new Set<string>()
  for (const path of paths) {
    let previous: AnyMachineSnapshot | null = null
    for (const step of path.steps) {
      for (const node of (step.state as any)._nodes as AnyNode[]) if (node !== machine.root) states.add(node.id)
      if (previous === null) {
        // The init step: a transient state on the initial chain has taken one of its eventless transitions.
        const reachedIds = new Set(((step.state as any)._nodes as AnyNode[]).map((n) => n.id))
        for (const node of initialChain(machine.root as AnyNode)) {
          const always = (node.always ?? []) as Array<{ target?: AnyNode[] }>
          const index = always.findIndex((t) => t.target?.some((target) => reachedIds.has(target.id)))
          if (index < 0) continue
          states.add(node.id)
          transitions.add(transitionKey(node.id, '(always)', index))
        }
      } else {
        const taken = (machine as any).getTransitionData(previous, step.event) as Array<{ source: AnyNode; eventType: string }>
        for (const t of taken ?? []) {
          const defs = (t.source.transitions as Map<string, unknown[]>).get(t.eventType) ?? []
          transitions.add(transitionKey(t.source.id, t.eventType, defs.indexOf(t)))
        }
        // Eventless transitions fire inside the step: the one taken is the first of the transient state's
        // `always` list whose target the step ended in.
        // Nodes are compared by id: a machine made with .provide() has its own node objects.
        const reachedIds = new Set(((step.state as any)._nodes as AnyNode[]).map((n) => n.id))
        // A transient state entered by a transition: its target, or a state the target enters by default (an initial
        // child, a region of a parallel target).
        const enteredIds = new Set((taken ?? []).flatMap((t: any) => ((t.target ?? []) as AnyNode[]).flatMap((target) => initialChain(target).map((n) => n.id))))
        for (const node of allNodes(machine.root as AnyNode)) {
          const always = (node.always ?? []) as Array<{ target?: AnyNode[] }>
          if (always.length === 0 || !enteredIds.has(node.id)) continue
          const index = always.findIndex((t) => t.target?.some((target) => reachedIds.has(target.id)))
          if (index >= 0) {
            transitions.add(transitionKey(node.id, '(always)', index))
            states.add(node.id) // a transient state is reached when one of its eventless transitions is taken
          }
        }
      }
      previous = step.state as AnyMachineSnapshot
    }
  }
  return { states, transitions }
}

export function missingCoverage(machine: AnyStateMachine, paths: Array<TestPath<AnyMachineSnapshot, EventObject>>) {
  const all = machineInventory(machine)
  const reached = coverageOf(machine, paths)
  return {
    states: [...all.states].filter((s) => !reached.states.has(s)),
    transitions: [...all.transitions].filter((t) => !reached.transitions.has(t)),
  }
}

/** Serializes a snapshot by its state value plus the event (type and payload) that led to it. */
export function keyByIncomingEdge(snapshot: AnyMachineSnapshot, event: EventObject | undefined, extra = '') {
  return `${JSON.stringify(snapshot.value)}|${extra}|${event ? JSON.stringify(event, (k, v) => (k === 'error' ? String(v) : v)) : ''}`
}

export function describePath(path: { steps: Array<{ event: EventObject; state: AnyMachineSnapshot }> }) {
  return path.steps
    .map((step) => `${step.event.type.replace(/^xstate\./, '')}${'output' in step.event ? `(${JSON.stringify((step.event as any).output).slice(0, 40)})` : ''} → ${JSON.stringify(step.state.value)}`)
    .join(' · ')
}

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
  resolve: (output: TOutput) => void
  reject: (error: unknown) => void
}

/** A promise actor whose every run waits until the test resolves or rejects it. */
export function deferredActor<TOutput, TInput = unknown>(name: string) {
  const pending: Array<Pending<TOutput, TInput>> = []
  const take = () => {
    const next = pending.shift()
    if (!next) throw new Error(`${name}: no pending run`)
    return next
  }
  return {
    logic: fromPromise<TOutput, TInput>(({ input }) => new Promise<TOutput>((resolve, reject) => pending.push({ input, resolve, reject }))),
    pending,
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

/** stateMatcher for TestModel: state keys are state values ('signedOut.rejected'). */
export const matchesStateKey = (snapshot: { matches: (value: never) => boolean }, key: string) => snapshot.matches(key as never)

/**
 * A TestModel over any machine, typed loosely, with the matcher left to the caller (see `modelOf` for one that
 * matches state keys).
 */
export function testModelOf(machine: AnyStateMachine, options: Partial<TestModelOptions<AnyMachineSnapshot, EventObject, unknown>>) {
  return new TestModel<AnyMachineSnapshot, EventObject, unknown>(machine as unknown as ActorLogic<AnyMachineSnapshot, EventObject, unknown>, options)
}

/**
 * Fake timers from 0 before each path (a machine's delays start when its view mounts); after the path, the actor it
 * handed to `run` is stopped, then real timers are back. Returns `run(actor)`, which returns the actor.
 */
export function usePathClock() {
  let running: { stop(): void } | null = null
  beforeEach(() => vi.useFakeTimers({ now: 0 }))
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
