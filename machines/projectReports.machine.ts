/**
 * Project › Reports (/project/{ref}/reports): the project's REST requests and response times per day, as the REST
 * endpoint measured them (the organization's daily usage for this one project), over the last 7 or 30 days.
 * Invariants: choosing a range or Refresh loads again, and an answer to an earlier choice is dropped (leaving
 * `loading` stops its actor); a request unanswered after requestTimeout is abandoned and reported; a failed load
 * shows why with a retry and keeps the chosen range.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { DailyUsage } from '../src/contracts/measured'
import { type DailySeries } from './orgUsage.machine'

export const REPORT_RANGES = [7, 30] as const
export type ReportRange = (typeof REPORT_RANGES)[number]

interface Context {
  ref: string
  organizationSlug: string
  days: ReportRange
  data: DailyUsage[]
  error: string | null
}

type ProjectReportsEvent = { type: 'range.select'; days: ReportRange } | { type: 'reports.refresh' }

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Failed to load reports')

export const projectReportsMachine = setup({
  types: {
    input: {} as { ref: string; organizationSlug: string },
    context: {} as Context,
    events: {} as ProjectReportsEvent,
    children: {} as { fetchProjectDailyUsage: 'fetchProjectDailyUsage' },
  },
  actors: {
    fetchProjectDailyUsage: fromPromise<DailyUsage[], { ref: string; organizationSlug: string; days: ReportRange }>(async () => {
      throw new Error('fetchProjectDailyUsage not provided')
    }),
  },
  actions: {
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'projectReports',
  context: ({ input }) => ({ ref: input.ref, organizationSlug: input.organizationSlug, days: 7, data: [], error: null }),
  initial: 'loading',
  on: {
    'range.select': { target: '.loading', actions: assign(({ event }) => ({ days: event.days })) },
  },
  states: {
    loading: {
      invoke: {
        id: 'fetchProjectDailyUsage',
        src: 'fetchProjectDailyUsage',
        input: ({ context }) => ({ ref: context.ref, organizationSlug: context.organizationSlug, days: context.days }),
        onDone: { target: 'loaded', actions: assign(({ event }) => ({ data: event.output, error: null })) },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error) }) } },
      },
      after: {
        requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: 'The request timed out' } } },
      },
    },
    failed: { on: { 'reports.refresh': 'loading' } },
    loaded: { on: { 'reports.refresh': 'loading' } },
  },
})

const formatMs = (ms: number) => (ms >= 100 ? `${Math.round(ms)} ms` : `${ms.toFixed(1)} ms`)

export type ProjectReportsView =
  | { phase: 'loading'; days: ReportRange }
  | { phase: 'failed'; days: ReportRange; error: string }
  | { phase: 'loaded'; days: ReportRange; requests: DailySeries; responseTime: DailySeries; totalRequests: number }

export function selectProjectReportsView(snapshot: SnapshotFrom<typeof projectReportsMachine>): ProjectReportsView {
  const { days, data, error } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading', days }
  if (snapshot.matches('failed')) return { phase: 'failed', days, error: error ?? 'Failed to load reports' }
  return {
    phase: 'loaded',
    days,
    totalRequests: data.reduce((sum, d) => sum + d.requests, 0),
    requests: { label: 'REST requests per day', points: data.map((d) => ({ date: d.date, value: d.requests })), format: (n) => Math.round(n).toLocaleString('en-US') },
    responseTime: { label: 'Mean response time per day', points: data.map((d) => ({ date: d.date, value: d.response_ms_avg })), format: formatMs },
  }
}
