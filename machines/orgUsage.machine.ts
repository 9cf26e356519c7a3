/**
 * Organization › Usage (/org/{slug}/usage): the usage of each metric in the billing period, with the spec's exceeded
 * rule (section 5), a chart of what is measured per day, and a filter by project. What the page reads comes in one
 * load (usage records, daily figures, the organization's projects, resource warnings for the read-only banner).
 * Invariants: a skeleton shows while loading (spec 2); choosing a project loads again for it and a load answered
 * after another choice is dropped (leaving `loading` stops its actor); a request unanswered after requestTimeout is
 * abandoned and reported; a failed load shows why with a retry and keeps the chosen project.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { DailyUsage } from '../src/contracts/measured'
import type { Project } from '../src/contracts/projects'
import type { ResourceWarning, UsageMetric, UsageRecord } from '../src/contracts/usage'
import { resourceBannerFor, type ResourceBanner } from './resourceBanner'
import { isUsageExceeded } from './resourceWarnings.machine'
import { href } from '../src/href'

export interface OrgUsageData {
  /** The billing period asked for (ISO). */
  period: { start: string; end: string }
  usages: UsageRecord[]
  days: DailyUsage[]
  /** The organization's projects (the filter's choices). */
  projects: Pick<Project, 'ref' | 'name'>[]
  warnings: ResourceWarning[]
}

interface Context {
  slug: string
  /** '' for every project of the organization. */
  projectRef: string
  data: OrgUsageData | null
  error: string | null
}

type OrgUsageEvent = { type: 'project.select'; ref: string } | { type: 'usage.retry' }

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Failed to load usage')

export const orgUsageMachine = setup({
  types: {
    input: {} as { slug: string },
    context: {} as Context,
    events: {} as OrgUsageEvent,
    children: {} as { fetchOrgUsage: 'fetchOrgUsage' },
  },
  actors: {
    fetchOrgUsage: fromPromise<OrgUsageData, { slug: string; projectRef: string }>(async () => {
      throw new Error('fetchOrgUsage not provided')
    }),
  },
  actions: {
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
    chooseProject: assign((_, params: { ref: string }) => ({ projectRef: params.ref })),
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'orgUsage',
  context: ({ input }) => ({ slug: input.slug, projectRef: '', data: null, error: null }),
  initial: 'loading',
  on: {
    'project.select': { target: '.loading', actions: { type: 'chooseProject', params: ({ event }) => ({ ref: event.ref }) } },
  },
  states: {
    loading: {
      invoke: {
        id: 'fetchOrgUsage',
        src: 'fetchOrgUsage',
        input: ({ context }) => ({ slug: context.slug, projectRef: context.projectRef }),
        onDone: { target: 'loaded', actions: assign(({ event }) => ({ data: event.output, error: null })) },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error) }) } },
      },
      after: {
        requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: 'The request timed out' } } },
      },
    },
    failed: {
      on: { 'usage.retry': 'loading' },
    },
    loaded: {},
  },
})

export const METRIC_LABELS: Record<UsageMetric, string> = {
  EGRESS: 'Egress',
  DATABASE_SIZE: 'Database size',
  STORAGE_SIZE: 'Storage size',
  MONTHLY_ACTIVE_USERS: 'Monthly active users',
  FUNCTION_INVOCATIONS: 'Edge function invocations',
  REALTIME_MESSAGE_COUNT: 'Realtime messages',
  REALTIME_PEAK_CONNECTIONS: 'Realtime peak connections',
}

/** Metrics counted in GB (shown in bytes, kB, MB or GB). */
const GB_METRICS: readonly UsageMetric[] = ['EGRESS', 'DATABASE_SIZE', 'STORAGE_SIZE']
const GB = 1024 ** 3

/** Bytes in the largest 1024-based unit they reach: '0 B', '812 B', '12.4 kB', '1.5 GB'. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  const shown = unit === 0 ? String(Math.round(value)) : value >= 100 ? value.toFixed(0) : value.toFixed(1)
  return `${shown} ${units[unit]}`
}

/** A metric's amount as a person reads it (GB metrics from their GB figure). */
export function formatUsage(metric: UsageMetric, amount: number): string {
  return GB_METRICS.includes(metric) ? formatBytes(amount * GB) : Math.round(amount).toLocaleString('en-US')
}

export interface DailySeries {
  /** What one bar counts, for the chart's title and its table. */
  label: string
  points: { date: string; value: number | null }[]
  format: (value: number) => string
}

/** What the local platform measures per day for a metric; null for those it does not measure. */
export function dailySeriesOf(metric: UsageMetric, days: DailyUsage[]): DailySeries | null {
  if (metric === 'EGRESS') return { label: 'Egress per day', points: days.map((d) => ({ date: d.date, value: d.egress_bytes })), format: formatBytes }
  if (metric === 'DATABASE_SIZE') {
    return { label: 'Database size measured per day', points: days.map((d) => ({ date: d.date, value: d.database_size_bytes })), format: formatBytes }
  }
  return null
}

export interface UsageRow {
  metric: UsageMetric
  label: string
  usage: string
  /** What the plan includes ('Unlimited', or the free units). */
  included: string
  exceeded: boolean
  series: DailySeries | null
}

export type OrgUsageView =
  | { phase: 'loading'; projectRef: string; projects: OrgUsageData['projects'] }
  | { phase: 'failed'; error: string; projectRef: string; projects: OrgUsageData['projects'] }
  | {
      phase: 'loaded'
      projectRef: string
      projects: OrgUsageData['projects']
      period: OrgUsageData['period']
      rows: UsageRow[]
      requests: DailySeries
      /** Banners of the chosen projects in read-only mode (spec 4: on the usage page only read-only shows). */
      banners: (ResourceBanner & { show: true; project: string })[]
    }

export function selectOrgUsageView(snapshot: SnapshotFrom<typeof orgUsageMachine>): OrgUsageView {
  const { data, error, projectRef, slug } = snapshot.context
  const projects = data?.projects ?? []
  if (snapshot.matches('failed')) return { phase: 'failed', error: error ?? 'Failed to load usage', projectRef, projects }
  if (!snapshot.matches('loaded') || !data) return { phase: 'loading', projectRef, projects }
  const chosen = data.projects.filter((p) => projectRef === '' || p.ref === projectRef)
  const banners = chosen.flatMap((p) => {
    const banner = resourceBannerFor(
      data.warnings.find((w) => w.project === p.ref),
      p.ref,
      href.org(slug, 'usage'),
    )
    return banner.show ? [{ ...banner, project: p.name }] : []
  })
  return {
    phase: 'loaded',
    projectRef,
    projects,
    period: data.period,
    rows: data.usages.map((record) => ({
      metric: record.metric,
      label: METRIC_LABELS[record.metric],
      usage: formatUsage(record.metric, record.usage),
      included: record.unlimited ? 'Unlimited' : formatUsage(record.metric, record.pricing_free_units ?? 0),
      exceeded: isUsageExceeded(record),
      series: dailySeriesOf(record.metric, data.days),
    })),
    requests: {
      label: 'REST requests per day',
      points: data.days.map((d) => ({ date: d.date, value: d.requests })),
      format: (n) => Math.round(n).toLocaleString('en-US'),
    },
    banners,
  }
}
