/**
 * Project › Logs (/project/{ref}/logs/explorer): the project's REST request log, newest first, filtered by status
 * class, read again on Refresh.
 * Invariants: the entries shown stay while a refresh or a new filter loads (the list says it is refreshing); an
 * answer to an earlier filter is dropped (leaving `loading` stops its actor); a request unanswered after
 * requestTimeout is abandoned and reported; a failed load shows why with a retry and keeps the filter.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { RequestLogEntry, StatusClass } from '../src/contracts/measured'

/** 'all' or one status class. */
export type LogFilter = StatusClass | 'all'
export const LOG_FILTERS: readonly LogFilter[] = ['all', '2xx', '3xx', '4xx', '5xx']
/** Entries one read shows. */
export const LOG_PAGE = 100

interface Context {
  ref: string
  filter: LogFilter
  entries: RequestLogEntry[]
  error: string | null
}

type ProjectLogsEvent = { type: 'filter.select'; filter: LogFilter } | { type: 'logs.refresh' }

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Failed to load logs')

export const projectLogsMachine = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    events: {} as ProjectLogsEvent,
    children: {} as { fetchRequestLog: 'fetchRequestLog' },
  },
  actors: {
    fetchRequestLog: fromPromise<RequestLogEntry[], { ref: string; filter: LogFilter }>(async () => {
      throw new Error('fetchRequestLog not provided')
    }),
  },
  actions: {
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'projectLogs',
  context: ({ input }) => ({ ref: input.ref, filter: 'all', entries: [], error: null }),
  initial: 'loading',
  on: {
    'filter.select': { target: '.loading', actions: assign(({ event }) => ({ filter: event.filter })) },
  },
  states: {
    loading: {
      invoke: {
        id: 'fetchRequestLog',
        src: 'fetchRequestLog',
        input: ({ context }) => ({ ref: context.ref, filter: context.filter }),
        onDone: { target: 'loaded', actions: assign(({ event }) => ({ entries: event.output, error: null })) },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error) }) } },
      },
      after: {
        requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: 'The request timed out' } } },
      },
    },
    failed: { on: { 'logs.refresh': 'loading' } },
    loaded: { on: { 'logs.refresh': 'loading' } },
  },
})

export type ProjectLogsView =
  | { phase: 'loading'; filter: LogFilter; entries: RequestLogEntry[] }
  | { phase: 'failed'; filter: LogFilter; error: string }
  | { phase: 'loaded'; filter: LogFilter; entries: RequestLogEntry[] }

export function selectProjectLogsView(snapshot: SnapshotFrom<typeof projectLogsMachine>): ProjectLogsView {
  const { filter, entries, error } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading', filter, entries }
  if (snapshot.matches('failed')) return { phase: 'failed', filter, error: error ?? 'Failed to load logs' }
  return { phase: 'loaded', filter, entries }
}

/** A log line's time in UTC, 'YYYY-MM-DD HH:mm:ss'. */
export const logTime = (iso: string) => iso.replace('T', ' ').slice(0, 19)
