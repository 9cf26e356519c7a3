/**
 * Resource warnings and usage of the open project: feeds the header's 'Exceeding usage limits' badge and the
 * resource-exhaustion banner. Two regions run side by side: the resource warnings (stale after 30 minutes, then
 * read again) and the organization's usage with its subscription (read once the organization is known, and again
 * at the same staleness). A failed read hides what it would have shown and is retried when stale; neither region
 * ever blocks the page. The rules of spec sections 4 and 5 live in the selectors below.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { Subscription } from '../src/contracts/organizations'
import { RESOURCES, type Resource, type ResourceWarning, type UsageRecord } from '../src/contracts/usage'
import { href } from '../src/href'

interface ResourceWarningsInput {
  ref: string
  organizationSlug: string | null
}

export interface UsageSummary {
  subscription: Subscription
  usages: UsageRecord[]
}

interface Context {
  ref: string
  organizationSlug: string | null
  warnings: ResourceWarning[] | null
  usage: UsageSummary | null
}

type ResourceWarningsEvent = { type: 'organization.known'; slug: string }

export const resourceWarningsMachine = setup({
  types: {
    input: {} as ResourceWarningsInput,
    context: {} as Context,
    events: {} as ResourceWarningsEvent,
    children: {} as { fetchResourceWarnings: 'fetchResourceWarnings'; fetchUsageSummary: 'fetchUsageSummary' },
  },
  actors: {
    fetchResourceWarnings: fromPromise<ResourceWarning[], void>(async () => {
      throw new Error('fetchResourceWarnings not provided')
    }),
    fetchUsageSummary: fromPromise<UsageSummary, { organizationSlug: string }>(async () => {
      throw new Error('fetchUsageSummary not provided')
    }),
  },
  delays: {
    /** Spec: resource warnings stale after 1,800,000 ms (30 min). */
    resourceWarningsStaleTime: 1_800_000,
    /** Usage is read again at the same pace. */
    usageStaleTime: 1_800_000,
  },
  guards: {
    knowsOrganization: ({ context }) => context.organizationSlug !== null,
  },
}).createMachine({
  id: 'resourceWarnings',
  context: ({ input }) => ({ ref: input.ref, organizationSlug: input.organizationSlug, warnings: null, usage: null }),
  type: 'parallel',
  states: {
    warnings: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'fetchResourceWarnings',
            src: 'fetchResourceWarnings',
            onDone: { target: 'fresh', actions: assign({ warnings: ({ event }) => event.output }) },
            onError: { target: 'failed', actions: assign({ warnings: null }) },
          },
        },
        fresh: { after: { resourceWarningsStaleTime: 'loading' } },
        failed: { after: { resourceWarningsStaleTime: 'loading' } },
      },
    },
    usage: {
      initial: 'checking',
      states: {
        checking: {
          always: [{ guard: 'knowsOrganization', target: 'loading' }, { target: 'awaitingOrganization' }],
        },
        awaitingOrganization: {
          on: {
            'organization.known': { target: 'loading', actions: assign({ organizationSlug: ({ event }) => event.slug }) },
          },
        },
        loading: {
          invoke: {
            id: 'fetchUsageSummary',
            src: 'fetchUsageSummary',
            input: ({ context }) => ({ organizationSlug: context.organizationSlug ?? '' }),
            onDone: { target: 'loaded', actions: assign({ usage: ({ event }) => event.output }) },
            onError: { target: 'failed', actions: assign({ usage: null }) },
          },
        },
        loaded: { after: { usageStaleTime: 'loading' } },
        failed: { after: { usageStaleTime: 'loading' } },
      },
    },
  },
})

/** Spec section 5: capped, available in plan, not unlimited, and usage greater than free units (0 if missing). */
export function isUsageExceeded(record: UsageRecord): boolean {
  return record.capped && record.available_in_plan && !record.unlimited && record.usage > (record.pricing_free_units ?? 0)
}

/** Spec section 4: free or pro plan, usage billing off, and some metric exceeded. */
export function showsUsageBadge(usage: UsageSummary | null): boolean {
  if (usage === null) return false
  const plan = usage.subscription.plan.id
  return (plan === 'free' || plan === 'pro') && !usage.subscription.usage_billing_enabled && usage.usages.some(isUsageExceeded)
}

export function selectUsageBadge(snapshot: SnapshotFrom<typeof resourceWarningsMachine>): { show: boolean; href: string | null } {
  const { usage, organizationSlug } = snapshot.context
  const show = organizationSlug !== null && showsUsageBadge(usage)
  return { show, href: show ? href.org(organizationSlug, 'usage') : null }
}

export const RESOURCE_TEXT: Record<Resource, { name: string; anchor: string }> = {
  disk_io_exhaustion: { name: 'Disk IO budget', anchor: 'disk_io' },
  disk_space_exhaustion: { name: 'disk space', anchor: 'disk_space' },
  cpu_exhaustion: { name: 'CPU', anchor: 'cpu' },
  memory_and_swap_exhaustion: { name: 'memory and swap', anchor: 'ram' },
}

export type ResourceBanner =
  | { show: false }
  | { show: true; variant: 'destructive' | 'warning'; title: string; message: string; href: string; linkLabel: string }

const isUsagePage = (pathname: string) => /^\/org\/[^/]+\/usage(\/|$)/.test(pathname)
const isInfrastructurePage = (pathname: string) => /^\/project\/[^/]+\/settings\/infrastructure(\/|$)/.test(pathname)
const isDatabaseSettingsPage = (pathname: string) => /^\/project\/[^/]+\/settings\/database(\/|$)/.test(pathname)

/** The banner for the page at `pathname` (without query or hash), by the rules of spec section 4. */
export function resourceBannerFor(warning: ResourceWarning | undefined, ref: string, pathname: string): ResourceBanner {
  if (!warning) return { show: false }
  const raised = RESOURCES.filter((resource) => warning[resource] !== null)
  const readOnly = warning.is_readonly_mode_enabled
  if (!readOnly && raised.length === 0) return { show: false }
  if (!readOnly && (isUsagePage(pathname) || isInfrastructurePage(pathname))) return { show: false }
  if (readOnly && isDatabaseSettingsPage(pathname)) return { show: false }
  const critical = raised.some((resource) => warning[resource] === 'critical')
  const variant = readOnly || critical ? 'destructive' : 'warning'
  if (readOnly) {
    return {
      show: true,
      variant,
      title: 'Your project is in read-only mode',
      message: 'The database ran out of disk space and now only accepts reads. Increase the disk size to accept writes again.',
      href: href.project(ref, 'settings/database'),
      linkLabel: 'Increase disk size',
    }
  }
  const names = raised.map((resource) => RESOURCE_TEXT[resource].name)
  const what = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
  return {
    show: true,
    variant,
    title: critical ? `Your project has exhausted its ${what}` : `Your project is running out of ${what}`,
    message: critical
      ? 'Requests may fail or slow down until the load drops or the compute is upgraded.'
      : 'Performance may degrade soon. Review the usage or upgrade the compute before it runs out.',
    href: href.infrastructure(ref, RESOURCE_TEXT[raised[0]].anchor),
    linkLabel: 'Check usage',
  }
}

export function selectResourceBanner(pathname: string) {
  return (snapshot: SnapshotFrom<typeof resourceWarningsMachine>): ResourceBanner => {
    const { warnings, ref } = snapshot.context
    return resourceBannerFor(warnings?.find((w) => w.project === ref), ref, pathname)
  }
}
