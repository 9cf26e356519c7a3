/**
 * Elapsed: how long a lifecycle transition has been running, counted from the server's timestamp (so a reload
 * keeps the count), and whether it is overdue — past the point where a person should be told it is taking
 * longer than usual. Ticks once a second while its waiting screen is up; it does no I/O.
 * Invariant: once overdue, it stays overdue.
 */
import { assign, setup, type SnapshotFrom } from 'xstate'

interface ElapsedInput {
  /** ISO time the transition started, from the server. */
  since: string
  overdueAfterMs: number
}

interface Context {
  since: number
  now: number
  overdueAfterMs: number
}

export const elapsedMachine = setup({
  types: { input: {} as ElapsedInput, context: {} as Context },
  actions: {
    readClock: assign({ now: () => Date.now() }),
  },
  delays: { tick: 1_000 },
  guards: {
    isOverdue: ({ context }) => context.now - context.since >= context.overdueAfterMs,
  },
}).createMachine({
  id: 'elapsed',
  context: ({ input }) => {
    const since = Date.parse(input.since)
    // An unreadable timestamp counts from now rather than showing nonsense.
    return { since: Number.isNaN(since) ? Date.now() : since, now: Date.now(), overdueAfterMs: input.overdueAfterMs }
  },
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'isOverdue', target: 'overdue' }, { target: 'onTime' }],
    },
    onTime: {
      after: { tick: { target: 'checking', actions: 'readClock' } },
    },
    overdue: {
      after: { tick: { target: 'overdue', reenter: true, actions: 'readClock' } },
    },
  },
})

/** "12 s", "3 min 05 s", "2 h 07 min"; clock skew between server and browser never shows a negative time. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000))
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return `${minutes} min ${String(seconds % 60).padStart(2, '0')} s`
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`
}

interface ElapsedView {
  elapsedText: string
  overdue: boolean
}

export function selectElapsed(snapshot: SnapshotFrom<typeof elapsedMachine>): ElapsedView {
  return {
    elapsedText: formatElapsed(snapshot.context.now - snapshot.context.since),
    overdue: snapshot.matches('overdue'),
  }
}
