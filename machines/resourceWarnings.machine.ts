/**
 * Resource warnings and usage of the open project: feeds the header's 'Exceeding usage limits' badge and the
 * resource-exhaustion banner. Two regions run side by side: the resource warnings (stale after 30 minutes, then
 * read again) and the organization's usage with its subscription (read once the organization is known, and again
 * at the same staleness). A failed read hides what it would have shown and is retried when stale; neither region
 * ever blocks the page. The rules of spec sections 4 and 5 live in the selectors below, the banner's texts and the pages
 * it stays off in ./resourceBanner (loaded with the banner, which shows only once a warning is raised).
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { Subscription } from '../src/contracts/organizations'
import { RESOURCES, type ResourceWarning, type UsageRecord } from '../src/contracts/usage'
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

/** Whether the badge shows (its link needs the rest of selectUsageBadge's answer). */
export const selectShowsUsageBadge = (snapshot: SnapshotFrom<typeof resourceWarningsMachine>) => selectUsageBadge(snapshot).show

/** The resources a warning raises: at risk or exhausted. */
export const raisedResources = (warning: ResourceWarning) => RESOURCES.filter((resource) => warning[resource] !== null)

/** Whether the open project's warning raises anything (a resource, or read-only mode): the banner may show. */
export function selectWarningRaised(snapshot: SnapshotFrom<typeof resourceWarningsMachine>): boolean {
  const { warnings, ref } = snapshot.context
  const warning = warnings?.find((w) => w.project === ref)
  return warning !== undefined && (warning.is_readonly_mode_enabled || raisedResources(warning).length > 0)
}
