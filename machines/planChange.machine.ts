/**
 * The subscription plan (/org/{slug}/billing?panel=subscriptionPlan): the organization's subscription, the plans on
 * offer and the person's permissions, then a chosen plan confirmed in a dialog and changed on the server.
 * Invariants: only a member with organizations:write may choose (the server refuses others too); the current plan is
 * never chosen; the dialog stays open with the server's message when a change fails (confirm tries again); a request
 * unanswered after requestTimeout is abandoned and reported like a failure; a change asks the app to read the
 * organizations again, since what the plan gates (the free project limit, the usage badge) follows at once.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { Permission } from '../src/contracts/common'
import type { Organization, Subscription } from '../src/contracts/organizations'
import type { Plan, SelectablePlanId } from '../src/contracts/orgSettings'

const ORGANIZATION_WRITE: Permission = 'organizations:write'
export const PLAN_PERMISSION_TEXT = "You need additional permissions to change this organization's plan"

export interface BillingData {
  organization: Organization
  subscription: Subscription
  plans: Plan[]
  permissions: Permission[]
}

interface Context {
  slug: string
  data: BillingData | null
  selected: SelectablePlanId | null
  error: string | null
}

type PlanChangeEvent =
  | { type: 'billing.retry' }
  | { type: 'plan.select'; plan: SelectablePlanId }
  | { type: 'plan.confirm' }
  | { type: 'plan.cancel' }

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

export const planChangeMachine = setup({
  types: {
    input: {} as { slug: string },
    context: {} as Context,
    events: {} as PlanChangeEvent,
    children: {} as { fetchBilling: 'fetchBilling'; changePlan: 'changePlan' },
  },
  actors: {
    fetchBilling: fromPromise<BillingData, { slug: string }>(async () => {
      throw new Error('fetchBilling not provided')
    }),
    changePlan: fromPromise<Subscription, { slug: string; plan: SelectablePlanId }>(async () => {
      throw new Error('changePlan not provided')
    }),
  },
  actions: {
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
    refreshOrganizations: () => {},
  },
  guards: {
    maySelect: ({ context }, params: { plan: SelectablePlanId }) =>
      context.data !== null && context.data.permissions.includes(ORGANIZATION_WRITE) && context.data.subscription.plan.id !== params.plan,
  },
  delays: { requestTimeout: 10_000 },
}).createMachine({
  id: 'planChange',
  context: ({ input }) => ({ slug: input.slug, data: null, selected: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchBilling',
        src: 'fetchBilling',
        input: ({ context }) => ({ slug: context.slug }),
        onDone: { target: 'idle', actions: assign({ data: ({ event }) => event.output, error: null }) },
        onError: { target: 'loadFailed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load the subscription') }) } },
      },
      after: { requestTimeout: { target: 'loadFailed', actions: { type: 'storeError', params: { error: TIMED_OUT } } } },
    },
    loadFailed: { on: { 'billing.retry': 'loading' } },
    idle: {
      on: {
        'plan.select': {
          guard: { type: 'maySelect', params: ({ event }) => ({ plan: event.plan }) },
          target: 'confirming',
          actions: assign({ selected: ({ event }) => event.plan, error: null }),
        },
      },
    },
    confirming: { on: { 'plan.confirm': 'changing', 'plan.cancel': { target: 'idle', actions: assign({ selected: null }) } } },
    changing: {
      invoke: {
        id: 'changePlan',
        src: 'changePlan',
        input: ({ context }) => ({ slug: context.slug, plan: context.selected! }),
        onDone: {
          target: 'changed',
          actions: [assign({ data: ({ context, event }) => ({ ...context.data!, subscription: event.output }), error: null }), 'refreshOrganizations'],
        },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to change the plan') }) } },
      },
      after: { requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: TIMED_OUT } } } },
    },
    changed: {
      on: {
        'plan.select': {
          guard: { type: 'maySelect', params: ({ event }) => ({ plan: event.plan }) },
          target: 'confirming',
          actions: assign({ selected: ({ event }) => event.plan, error: null }),
        },
      },
    },
    failed: { on: { 'plan.confirm': 'changing', 'plan.cancel': { target: 'idle', actions: assign({ selected: null, error: null }) } } },
  },
})

type Snapshot = SnapshotFrom<typeof planChangeMachine>

export type PlanChangeView =
  | { phase: 'loading' }
  | { phase: 'loadFailed'; error: string }
  | {
      phase: 'ready'
      data: BillingData
      canChange: boolean
      /** The confirm dialog: the plan chosen, whether the change is under way, and a failure's message. */
      dialog: { plan: Plan; changing: boolean; error: string | null } | null
      /** After a change: the line saying so. */
      changedTo: string | null
    }

export function selectPlanChangeView(snapshot: Snapshot): PlanChangeView {
  const { data, selected, error } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('loadFailed') || data === null) return { phase: 'loadFailed', error: error ?? 'Failed to load the subscription' }
  const plan = data.plans.find((p) => p.id === selected) ?? null
  const dialogOpen = snapshot.matches('confirming') || snapshot.matches('changing') || snapshot.matches('failed')
  return {
    phase: 'ready',
    data,
    canChange: data.permissions.includes(ORGANIZATION_WRITE),
    dialog: dialogOpen && plan ? { plan, changing: snapshot.matches('changing'), error: snapshot.matches('failed') ? error : null } : null,
    changedTo: snapshot.matches('changed') ? data.subscription.plan.name : null,
  }
}

export const selectCanSelectPlan = (plan: SelectablePlanId) => (snapshot: Snapshot) => snapshot.can({ type: 'plan.select', plan })
