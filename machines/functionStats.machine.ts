/**
 * A function's overview figures (its invocations chart, execution time, CPU time and memory): the Management API's
 * functions.combined-stats for the period chosen (15 minutes, 1 hour, 3 hours, 1 day), polled on a fixed beat.
 * Invariants: polls never overlap (./polling); choosing another period asks at once and shows nothing of the previous
 * period's figures; a failed or timed-out poll keeps the last figures and says why.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { COMBINED_STATS_INTERVALS, type CombinedStatsRow } from '../src/contracts/functions'
import { onBeat } from './polling'

export type StatsInterval = (typeof COMBINED_STATS_INTERVALS)[number]

interface Context {
  ref: string
  functionId: string
  interval: StatsInterval
  rows: CombinedStatsRow[] | null
  error: string | null
}

type FunctionStatsEvent = { type: 'interval.select'; interval: StatsInterval }

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Failed to load the figures')

export const functionStatsMachine = setup({
  types: {
    input: {} as { ref: string; functionId: string },
    context: {} as Context,
    events: {} as FunctionStatsEvent,
    children: {} as { fetchStats: 'fetchStats' },
  },
  actors: {
    fetchStats: fromPromise<CombinedStatsRow[], { ref: string; functionId: string; interval: StatsInterval }>(async () => {
      throw new Error('fetchStats not provided')
    }),
  },
  actions: {
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
  },
  delays: {
    statsPollInterval: 5_000,
    statsRequestTimeout: 4_000,
  },
}).createMachine({
  id: 'functionStats',
  context: ({ input }) => ({ ref: input.ref, functionId: input.functionId, interval: '1hr', rows: null, error: null }),
  initial: 'live',
  states: {
    live: {
      ...onBeat('statsPollInterval'),
      on: {
        'interval.select': {
          target: '.requesting',
          reenter: true,
          actions: assign(({ event }) => ({ interval: event.interval, rows: null, error: null })),
        },
      },
      states: {
        requesting: {
          invoke: {
            id: 'fetchStats',
            src: 'fetchStats',
            input: ({ context }) => ({ ref: context.ref, functionId: context.functionId, interval: context.interval }),
            onDone: { target: 'settled', actions: assign(({ event }) => ({ rows: event.output, error: null })) },
            onError: { target: 'settled', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error) }) } },
          },
          // ./polling's slot, with the reason kept: the figures shown say they may be old.
          after: { statsRequestTimeout: { target: 'settled', actions: { type: 'storeError', params: { error: TIMED_OUT } } } },
        },
        settled: {},
      },
    },
  },
})

export type FunctionStatsSnapshot = SnapshotFrom<typeof functionStatsMachine>

/** Each period's bars: a minute each for the shorter two, an hour each for the longer two (as the platform buckets). */
export const STATS_PERIODS: Record<StatsInterval, { label: string; bars: number; unit: 'minute' | 'hour' }> = {
  '15min': { label: '15 minutes', bars: 15, unit: 'minute' },
  '1hr': { label: '1 hour', bars: 60, unit: 'minute' },
  '3hr': { label: '3 hours', bars: 3, unit: 'hour' },
  '1day': { label: '1 day', bars: 24, unit: 'hour' },
}
const UNIT_MS = { minute: 60_000, hour: 3_600_000 }

export interface InvocationBucket {
  /** The bucket's start (ms since the epoch, UTC). */
  start: number
  ok: number
  failed: number
}

export interface FunctionStatsView {
  interval: StatsInterval
  unit: 'minute' | 'hour'
  /** No figures yet for this period (the first answer is awaited). */
  loading: boolean
  error: string | null
  /** The period's bars up to the newest bucket with something (the answer holds only those; gaps are zeros). */
  buckets: InvocationBucket[]
  totals: {
    requests: number
    failed: number
    /** Milliseconds, averaged over the period's invocations. */
    avgExecutionTime: number
    maxExecutionTime: number
    avgCpuTime: number
    maxCpuTime: number
    /** Megabytes, averaged over the period's invocations. */
    avgMemory: number
    avgHeapMemory: number
    avgExternalMemory: number
  } | null
}

export function selectFunctionStatsView(snapshot: FunctionStatsSnapshot): FunctionStatsView {
  const { interval, rows, error } = snapshot.context
  const { bars, unit } = STATS_PERIODS[interval]
  const loading = rows === null && error === null
  if (rows === null || rows.length === 0) return { interval, unit, loading, error, buckets: [], totals: rows === null ? null : emptyTotals() }
  const step = UNIT_MS[unit]
  const starts = rows.map((r) => Math.floor(Date.parse(r.timestamp) / step) * step)
  const end = Math.max(...starts)
  const buckets = Array.from({ length: bars }, (_, i) => ({ start: end - (bars - 1 - i) * step, ok: 0, failed: 0 }))
  rows.forEach((row, i) => {
    const index = bars - 1 - (end - starts[i]) / step
    if (index < 0) return
    buckets[index].failed += row.client_err_count + row.server_err_count
    buckets[index].ok += row.success_count + row.redirect_count
  })
  // Averages of the rows weighed by their invocations, as one average over the period.
  const requests = rows.reduce((n, r) => n + r.requests_count, 0)
  const weighed = (key: 'avg_execution_time' | 'avg_cpu_time_used' | 'avg_memory_used' | 'avg_heap_memory_used' | 'avg_external_memory_used') =>
    requests === 0 ? 0 : rows.reduce((n, r) => n + r[key] * r.requests_count, 0) / requests
  return {
    interval,
    unit,
    loading: false,
    error,
    buckets,
    totals: {
      requests,
      failed: rows.reduce((n, r) => n + r.client_err_count + r.server_err_count, 0),
      avgExecutionTime: weighed('avg_execution_time'),
      maxExecutionTime: Math.max(...rows.map((r) => r.max_execution_time)),
      avgCpuTime: weighed('avg_cpu_time_used'),
      maxCpuTime: Math.max(...rows.map((r) => r.max_cpu_time_used)),
      avgMemory: weighed('avg_memory_used'),
      avgHeapMemory: weighed('avg_heap_memory_used'),
      avgExternalMemory: weighed('avg_external_memory_used'),
    },
  }
}

function emptyTotals(): NonNullable<FunctionStatsView['totals']> {
  return { requests: 0, failed: 0, avgExecutionTime: 0, maxExecutionTime: 0, avgCpuTime: 0, maxCpuTime: 0, avgMemory: 0, avgHeapMemory: 0, avgExternalMemory: 0 }
}
