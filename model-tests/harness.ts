/**
 * The typed model-test harness (the I/O fakes it drives live beside it in ./fakes):
 * - `modelOf(machine, options)`: a TestModel typed by its machine — snapshots carry the machine's context, events are
 *   the machine's own or its internal edges (`xstate.done.actor.*`, `xstate.error.actor.*`, `xstate.after.*`), and a
 *   path's event executors receive their step's event narrowed to the executor's key;
 * - `outputOf<T>(step)` / `errorOf(step)`: what an invoked actor's done or error edge carries;
 * - coverage of a machine's states and transitions by a set of paths, measured against the machine's own
 *   transition definitions (so a path set that misses one fails the test).
 * Every render of these suites runs under React's StrictMode (tests/setup.web.ts), as in `npm run dev`.
 */
import { transition } from 'xstate'
import type { AnyMachineSnapshot, AnyStateMachine, ActorLogic, EventFromLogic, EventObject, InputFrom, SnapshotFrom, StateNode, TransitionDefinition } from 'xstate'
import { TestModel, type AdjacencyMap, type StatePath, type Step, type TestModelOptions, type TestPathResult } from 'xstate/graph'

/** The edges the machine takes by itself: an invoked actor's answer or failure, a delay's end. */
export type InternalEvent =
  | { type: `xstate.done.actor.${string}`; output?: unknown }
  | { type: `xstate.error.actor.${string}`; error: unknown }
  | { type: `xstate.after.${string}` }

/** The events a model of `TMachine` walks: the machine's own and its internal edges. */
export type ModelEvent<TMachine extends AnyStateMachine> = EventFromLogic<TMachine> | InternalEvent

/**
 * What an executor keyed `K` receives: the machine's event of that type, or, for an internal edge (whose key is one
 * of the patterns), any internal edge (read its payload with `outputOf` / `errorOf`).
 */
type EventOfType<TEvent extends EventObject, K extends string> = K extends InternalEvent['type']
  ? InternalEvent
  : TEvent extends unknown
    ? K extends TEvent['type']
      ? TEvent
      : never
    : never

export interface ModelParams<TSnapshot, TEvent extends EventObject> {
  /** Assertions by state key ('showingToken.ready'), run when the path is in that state. */
  states?: Record<string, (state: TSnapshot) => void | Promise<void>>
  /** How the test makes each event happen, with the step's event narrowed to the key's type. */
  events?: { [K in TEvent['type']]?: (step: Step<TSnapshot & AnyMachineSnapshot, EventOfType<TEvent, K>>) => unknown }
}

export interface ModelPath<TSnapshot extends AnyMachineSnapshot, TEvent extends EventObject> extends StatePath<TSnapshot, TEvent> {
  description: string
  test(params: ModelParams<TSnapshot, TEvent>): Promise<TestPathResult>
}

type Options<TMachine extends AnyStateMachine> = Partial<TestModelOptions<SnapshotFrom<TMachine>, ModelEvent<TMachine>, InputFrom<TMachine>>>

export interface Model<TMachine extends AnyStateMachine> {
  getShortestPaths(options?: Options<TMachine>): Array<ModelPath<SnapshotFrom<TMachine>, ModelEvent<TMachine>>>
  getPathsFromEvents(events: Array<ModelEvent<TMachine>>, options?: Options<TMachine>): Array<ModelPath<SnapshotFrom<TMachine>, ModelEvent<TMachine>>>
  getAdjacencyMap(): AdjacencyMap<SnapshotFrom<TMachine>, ModelEvent<TMachine>>
}

/** What `coveringWalks` reads of a TestModel besides its public methods: its options, and how it makes a path testable. */
interface TestModelInternals<TSnapshot, TEvent> {
  testLogic: AnyStateMachine
  options: { serializeState(state: TSnapshot, event: TEvent | undefined, previous?: TSnapshot): string; events(state: TSnapshot): TEvent[] }
  _toTestPath(path: { state: TSnapshot; steps: Array<{ state: TSnapshot; event: TEvent | { type: 'xstate.init' } }>; weight: number }): unknown
}

/** Events compared by their JSON, an error by its message (JSON writes every Error as `{}`). */
const eventJson = (event: EventObject) => JSON.stringify(event, (_, value) => (value instanceof Error ? `Error: ${value.message}` : value))
const sameEvent = (a: EventObject, b: EventObject) => a === b || eventJson(a) === eventJson(b)

/**
 * Walks that together reach every state of the model's graph (a state as the model's options serialize it: its value,
 * the context that matters, and often the edge that led to it), for a model whose shortest paths repeat long
 * prefixes: one shortest path per state walks the steps those paths share once per path. Each walk starts at the
 * initial state and goes by the shortest way to the nearest state not yet reached, again and again, and ends when
 * none is within reach or after `maxSteps` steps (a failing walk is still short enough to read). The walks reach every
 * state the shortest paths reach, so the same transitions; `missingCoverage` checks the machine's.
 */
export function coveringWalks<TMachine extends AnyStateMachine>(model: Model<TMachine>, maxSteps = 40): Array<ModelPath<SnapshotFrom<TMachine>, ModelEvent<TMachine>>> {
  type S = SnapshotFrom<TMachine>
  type E = ModelEvent<TMachine>
  type Move = { event: E; state: S; key: string }
  const internals = model as unknown as TestModelInternals<S, E>
  const { serializeState, events: eventsOf } = internals.options
  const adjacency = model.getAdjacencyMap() as unknown as Record<string, { state: S; transitions: Record<string, { event: E; state: S }> }>
  // The adjacency map is made breadth-first from the initial state: its first key.
  const [start] = Object.keys(adjacency)
  const unreached = new Set(Object.keys(adjacency))
  unreached.delete(start)
  // The graph's edges by key, worked out once: routes are planned on them. The graph keeps one snapshot per serialized
  // state, but two snapshots with one key may differ where the key does not look (and the running actor, which the
  // test checks, has the one the walk really reached): each planned step is taken from the walk's own snapshot, and
  // where it lands elsewhere than planned the rest of the walk is worked out from the snapshots themselves.
  const edges = new Map<string, Array<{ event: E; key: string }>>()
  for (const [key, { state, transitions }] of Object.entries(adjacency)) {
    edges.set(key, Object.values(transitions).map(({ event, state: next }) => ({ event, key: serializeState(next, event, state) })))
  }
  const step = (state: S, event: E): Move => {
    const [next] = transition(internals.testLogic, state, event) as unknown as [S]
    return { event, state: next, key: serializeState(next, event, state) }
  }
  /** The shortest way on the graph's edges from `fromKey` to a state not yet reached, as events; null when none is within reach. */
  const plannedRoute = (fromKey: string): E[] | null => {
    const cameBy = new Map<string, { event: E; previous: string } | null>([[fromKey, null]])
    const queue = [fromKey]
    for (const key of queue) {
      for (const edge of edges.get(key) ?? []) {
        if (cameBy.has(edge.key)) continue
        cameBy.set(edge.key, { event: edge.event, previous: key })
        if (unreached.has(edge.key)) {
          const route: E[] = []
          for (let at = edge.key, by = cameBy.get(at); by; at = by.previous, by = cameBy.get(at)) route.unshift(by.event)
          return route
        }
        queue.push(edge.key)
      }
    }
    return null
  }
  /** The same, worked out from the walk's own snapshot (each state's events and transitions taken again). */
  const exactRoute = (from: S, fromKey: string): Move[] | null => {
    const cameBy = new Map<string, (Move & { previous: string }) | null>([[fromKey, null]])
    const queue: Array<{ key: string; state: S }> = [{ key: fromKey, state: from }]
    for (const { key, state } of queue) {
      for (const move of eventsOf(state).map((event) => step(state, event))) {
        if (cameBy.has(move.key)) continue
        cameBy.set(move.key, { ...move, previous: key })
        if (unreached.has(move.key)) {
          const route: Move[] = []
          for (let at = cameBy.get(move.key); at; at = cameBy.get(at.previous)) route.unshift(at)
          return route
        }
        queue.push({ key: move.key, state: move.state })
      }
    }
    return null
  }
  const walks: Array<ModelPath<S, E>> = []
  while (unreached.size > 0) {
    let key = start
    let current = adjacency[start].state
    let onGraph = true
    const steps: Array<{ state: S; event: E | { type: 'xstate.init' } }> = [{ state: current, event: { type: 'xstate.init' } }]
    const take = (move: Move) => {
      unreached.delete(move.key)
      steps.push({ state: move.state, event: move.event })
      current = move.state
      key = move.key
    }
    for (;;) {
      if (onGraph) {
        const route = plannedRoute(key)
        if (!route || (steps.length > 1 && steps.length - 1 + route.length > maxSteps)) break
        // The planned keys along the route, to see where the walk leaves the graph's snapshots.
        let planned = key
        for (const event of route) {
          planned = edges.get(planned)!.find((edge) => edge.event === event)!.key
          const offered = eventsOf(current).find((e) => sameEvent(e, event))
          if (!offered) {
            onGraph = false
            break
          }
          const move = step(current, offered)
          take(move)
          if (move.key !== planned) {
            onGraph = false
            break
          }
        }
        continue
      }
      const route = exactRoute(current, key)
      if (!route || (steps.length > 1 && steps.length - 1 + route.length > maxSteps)) break
      for (const move of route) take(move)
    }
    if (steps.length === 1) throw new Error(`${unreached.size} states of the model cannot be reached from its initial state`)
    walks.push(internals._toTestPath({ state: current, steps, weight: steps.length - 1 }) as ModelPath<S, E>)
  }
  // A model with no moves at all still has its initial state to check.
  if (walks.length === 0) walks.push(internals._toTestPath({ state: adjacency[start].state, steps: [{ state: adjacency[start].state, event: { type: 'xstate.init' } }], weight: 0 }) as ModelPath<S, E>)
  return walks
}

/**
 * A TestModel of `machine`, typed by it. State keys are matched as state values ('signedOut.rejected'); '*' matches
 * every state.
 */
export function modelOf<TMachine extends AnyStateMachine>(machine: TMachine, options: Options<TMachine>): Model<TMachine> {
  // The machine's logic is walked with its internal edges too, which its declared event union does not name; and a
  // path's executors are typed tighter than xstate/graph's (they see their own event). Both are the same objects.
  const logic = machine as unknown as ActorLogic<SnapshotFrom<TMachine>, ModelEvent<TMachine>, InputFrom<TMachine>>
  return new TestModel(logic, {
    // Without this, state assertions keyed by state name never run (the default matcher only knows '*').
    stateMatcher: (snapshot, key) => key === '*' || matchesKey(snapshot, key),
    ...options,
  }) as unknown as Model<TMachine>
}

function matchesKey(snapshot: AnyMachineSnapshot, key: string) {
  return snapshot.matches(key)
}

/** What an invoked actor's done edge carries: the `output` the model's event for this step was written with. */
export function outputOf<T>(step: { event: EventObject }): T {
  if (!('output' in step.event)) throw new Error(`${step.event.type} carries no output`)
  // The model's events are written in the same test file as the executor that reads them back.
  return step.event.output as T
}

/** What an invoked actor's error edge carries (an Error, or one as the HTTP client raises it, with its status). */
export function errorOf(step: { event: EventObject }): Error & { status?: number | null } {
  if (!('error' in step.event) || !(step.event.error instanceof Error)) throw new Error(`${step.event.type} carries no error`)
  return step.event.error
}

/**
 * Sends an actor one of its machine's internal edges (a delay's end, an invoked actor's answer), as its own clock or
 * child would: the path's way to make a timer fire without waiting for it.
 */
export function sendEdge(actor: { send(event: never): void }, event: EventObject) {
  // An actor's `send` is typed with its machine's declared events; the internal edges are events it takes too.
  const send: (event: EventObject) => void = actor.send.bind(actor) as (event: EventObject) => void
  send(event)
}

/**
 * Sends an actor an event its machine's declared events do not allow: one of its own event types with a payload from
 * outside the declared set (a region no list offers), the way a hand-made request or a stale page could send one.
 * How a test proves the machine refuses it.
 */
export function sendUnchecked(actor: { send(event: never): void }, event: EventObject & Record<string, unknown>) {
  sendEdge(actor, event)
}

type AnyNode = StateNode<any, any>
type AnyTransition = TransitionDefinition<any, any>

function allNodes(node: AnyNode): AnyNode[] {
  return [node, ...Object.values<AnyNode>(node.states).flatMap(allNodes)]
}

const transitionKey = (sourceId: string, eventType: string, index: number) => `${sourceId} --${eventType}#${index}`

/** The states a machine enters on start: its initial chain (every region of a parallel state). */
function initialChain(node: AnyNode): AnyNode[] {
  const children = Object.values<AnyNode>(node.states)
  if (children.length === 0) return [node]
  if (node.type === 'parallel') return [node, ...children.flatMap(initialChain)]
  const initial = node.initial?.target?.[0]
  return initial ? [node, ...initialChain(initial)] : [node]
}

/** Every state node id and every transition definition (including eventless ones) of a machine. */
export function machineInventory(machine: AnyStateMachine) {
  const states = new Set<string>()
  const transitions = new Set<string>()
  for (const node of allNodes(machine.root)) {
    // A history state is a pointer to a state, never a state a machine is in.
    if (node !== machine.root && node.type !== 'history') states.add(node.id)
    for (const [eventType, defs] of node.transitions) {
      defs.forEach((_, index) => transitions.add(transitionKey(node.id, eventType, index)))
    }
    ;(node.always ?? []).forEach((_, index) => transitions.add(transitionKey(node.id, '(always)', index)))
  }
  return { states, transitions }
}

interface WalkedPath {
  steps: Array<{ state: AnyMachineSnapshot; event: EventObject }>
}

/** The index of the first of `node`'s eventless transitions that reached one of `reachedIds`. */
const alwaysTaken = (node: AnyNode, reachedIds: Set<string>) =>
  (node.always ?? []).findIndex((t: AnyTransition) => t.target?.some((target) => reachedIds.has(target.id)))

/** Which states and transitions the given paths reach, replaying each step through the machine. */
export function coverageOf(machine: AnyStateMachine, paths: WalkedPath[]) {
  const states = new Set<string>()
  const transitions = new Set<string>()
  for (const path of paths) {
    let previous: AnyMachineSnapshot | null = null
    for (const step of path.steps) {
      for (const node of step.state._nodes) if (node !== machine.root) states.add(node.id)
      // Nodes are compared by id: a machine made with .provide() has its own node objects.
      const reachedIds = new Set(step.state._nodes.map((n) => n.id))
      if (previous === null) {
        // The init step: a transient state on the initial chain has taken one of its eventless transitions.
        for (const node of initialChain(machine.root)) {
          const index = alwaysTaken(node, reachedIds)
          if (index < 0) continue
          states.add(node.id)
          transitions.add(transitionKey(node.id, '(always)', index))
        }
      } else {
        const taken: AnyTransition[] = machine.getTransitionData(previous, step.event) ?? []
        for (const t of taken) {
          const defs = t.source.transitions.get(t.eventType) ?? []
          transitions.add(transitionKey(t.source.id, t.eventType, defs.indexOf(t)))
        }
        // Eventless transitions fire inside the step: the one taken is the first of the transient state's
        // `always` list whose target the step ended in. A transient state entered by a transition: its target, or a
        // state the target enters by default (an initial child, a region of a parallel target).
        const enteredIds = new Set(taken.flatMap((t) => (t.target ?? []).flatMap((target) => initialChain(target).map((n) => n.id))))
        for (const node of allNodes(machine.root)) {
          if ((node.always ?? []).length === 0 || !enteredIds.has(node.id)) continue
          const index = alwaysTaken(node, reachedIds)
          if (index >= 0) {
            transitions.add(transitionKey(node.id, '(always)', index))
            states.add(node.id) // a transient state is reached when one of its eventless transitions is taken
          }
        }
      }
      previous = step.state
    }
  }
  return { states, transitions }
}

export function missingCoverage(machine: AnyStateMachine, paths: WalkedPath[]) {
  const all = machineInventory(machine)
  const reached = coverageOf(machine, paths)
  return {
    states: [...all.states].filter((s) => !reached.states.has(s)),
    transitions: [...all.transitions].filter((t) => !reached.transitions.has(t)),
  }
}

/** Serializes a snapshot by its state value plus the event (type and payload) that led to it. */
export function keyByIncomingEdge(snapshot: { value: unknown }, event: EventObject | undefined, extra = '') {
  return `${JSON.stringify(snapshot.value)}|${extra}|${event ? JSON.stringify(event, (k, v) => (k === 'error' ? String(v) : v)) : ''}`
}

export function describePath(path: { steps: Array<{ event: EventObject & { output?: unknown }; state: { value: unknown } }> }) {
  return path.steps
    .map((step) => `${step.event.type.replace(/^xstate\./, '')}${'output' in step.event ? `(${JSON.stringify(step.event.output).slice(0, 40)})` : ''} → ${JSON.stringify(step.state.value)}`)
    .join(' · ')
}

/**
 * The events of a model of `machine`, typed by it: `ev({ type: 'token.revoke', id })` is checked against the machine's
 * events (and its internal edges) where a literal would otherwise widen (in a `map`, a conditional spread).
 */
export const eventFor =
  <TMachine extends AnyStateMachine>(_machine: TMachine) =>
  (event: ModelEvent<TMachine>) =>
    event
