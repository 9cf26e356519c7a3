/**
 * Organization page data: the organization and its subscription, loaded together for the org pages
 * (/org/{slug}/…, /new/{slug}). A failed load shows its message with a retry.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { Organization, Subscription } from '../src/contracts/organizations'

export interface OrganizationData {
  organization: Organization
  subscription: Subscription
}

interface Context {
  slug: string
  data: OrganizationData | null
  error: string | null
}

export const organizationMachine = setup({
  types: {
    input: {} as { slug: string },
    context: {} as Context,
    events: {} as { type: 'organization.retry' },
    children: {} as { fetchOrganization: 'fetchOrganization' },
  },
  actors: {
    fetchOrganization: fromPromise<OrganizationData, { slug: string }>(async () => {
      throw new Error('fetchOrganization not provided')
    }),
  },
}).createMachine({
  id: 'organization',
  context: ({ input }) => ({ slug: input.slug, data: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchOrganization',
        src: 'fetchOrganization',
        input: ({ context }) => ({ slug: context.slug }),
        onDone: { target: 'loaded', actions: assign({ data: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => (event.error instanceof Error ? event.error.message : 'Failed to load organization') }),
        },
      },
    },
    failed: { on: { 'organization.retry': 'loading' } },
    loaded: {},
  },
})

type OrganizationView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | { phase: 'loaded'; data: OrganizationData }

export function selectOrganizationView(snapshot: SnapshotFrom<typeof organizationMachine>): OrganizationView {
  const { data, error } = snapshot.context
  if (snapshot.matches('loaded') && data) return { phase: 'loaded', data }
  if (snapshot.matches('failed')) return { phase: 'failed', error: error ?? 'Failed to load organization' }
  return { phase: 'loading' }
}
