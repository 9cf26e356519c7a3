import { act, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, type EventFrom } from 'xstate'
import { PLAN_PERMISSION_TEXT, planChangeMachine, type BillingData } from '../machines/planChange.machine'
import type { Subscription } from '../src/contracts/organizations'
import type { Plan, SelectablePlanId } from '../src/contracts/orgSettings'
import { OrganizationBillingPage } from '../src/views/org/OrganizationBillingPage'
import { ORGS } from '../tests/fakePlatform'
import { describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor } from './fakes'

const PLANS: Plan[] = [
  { id: 'free', name: 'Free', price_monthly: 0, description: 'Free plan', features: ['Each member may have 2 active free projects'] },
  { id: 'pro', name: 'Pro', price_monthly: 25, description: 'Pro plan', features: ['No free project limit'] },
  { id: 'team', name: 'Team', price_monthly: 599, description: 'Team plan', features: ['Usage billing'] },
]
const FREE: Subscription = { plan: { id: 'free', name: 'Free' }, usage_billing_enabled: false }
const PRO: Subscription = { plan: { id: 'pro', name: 'Pro' }, usage_billing_enabled: false }
const OWNER_DATA: BillingData = { organization: ORGS[0], subscription: FREE, plans: PLANS, permissions: ['projects:write', 'organizations:write'] }
const DEVELOPER_DATA: BillingData = { ...OWNER_DATA, permissions: ['projects:write'] }
const REQUEST_TIMEOUT = 10_000

const model = modelOf(planChangeMachine, {
  input: { slug: 'demo-free' },
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.fetchBilling', output: OWNER_DATA },
        { type: 'xstate.done.actor.fetchBilling', output: DEVELOPER_DATA },
        { type: 'xstate.error.actor.fetchBilling', error: apiError('Organization not found', 404) },
        { type: 'xstate.after.requestTimeout.planChange.loading' },
      ]
    }
    if (snapshot.matches('loadFailed')) return [{ type: 'billing.retry' }]
    if (snapshot.matches('confirming') || snapshot.matches('failed')) return [{ type: 'plan.confirm' }, { type: 'plan.cancel' }]
    if (snapshot.matches('changing')) {
      return [
        { type: 'xstate.done.actor.changePlan', output: PRO },
        { type: 'xstate.error.actor.changePlan', error: apiError("You need additional permissions to change this organization's plan", 403) },
        { type: 'xstate.after.requestTimeout.planChange.changing' },
      ]
    }
    return (['pro', 'team'] as const).map((plan): EventFrom<typeof planChangeMachine> => ({ type: 'plan.select', plan })).filter((event) => snapshot.can(event))
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, JSON.stringify(previous?.value ?? null)),
})
const paths = model.getShortestPaths()

let stop: (() => void) | null = null
beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => {
  stop?.()
  vi.useRealTimers()
})

describe('planChange model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(planChangeMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetchBilling = deferredActor<BillingData, { slug: string }>('fetchBilling')
      const changePlan = deferredActor<Subscription, { slug: string; plan: SelectablePlanId }>('changePlan')
      const refreshOrganizations = vi.fn()
      const actor = createActor(
        planChangeMachine.provide({ actors: { fetchBilling: fetchBilling.logic, changePlan: changePlan.logic }, actions: { refreshOrganizations } }),
        { input: { slug: 'demo-free' } },
      ).start()
      stop = () => actor.stop()
      render(<OrganizationBillingPage planChange={actor} panel="subscriptionPlan" />)
      const dialog = () => screen.getByRole('dialog')
      const current = () => actor.getSnapshot().context.data?.subscription.plan.name

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByText('Loading subscription…')).toBeInTheDocument()
          },
          loadFailed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('Failed to load the subscription')
          },
          idle: () => {
            expect(screen.getByRole('heading', { name: 'Change subscription plan' })).toBeInTheDocument()
            expect(screen.getByText('Current plan')).toBeInTheDocument()
            expect(screen.queryByRole('dialog')).toBeNull()
            const pro = screen.queryByRole('button', { name: 'Change to Pro' })
            if (actor.getSnapshot().context.data?.permissions.includes('organizations:write')) {
              expect(pro).toBeEnabled()
              expect(screen.queryByText(PLAN_PERMISSION_TEXT)).toBeNull()
            } else {
              expect(pro).toBeDisabled()
              expect(screen.getByRole('button', { name: 'Change to Team' })).toBeDisabled()
              expect(screen.getByText(PLAN_PERMISSION_TEXT)).toBeInTheDocument()
            }
          },
          confirming: () => {
            expect(within(dialog()).getByText(/It takes effect at once\./)).toBeInTheDocument()
            expect(within(dialog()).getByRole('button', { name: /^Confirm (Pro|Team) plan$/ })).toBeEnabled()
            expect(within(dialog()).queryByRole('alert')).toBeNull()
          },
          changing: () => {
            expect(within(dialog()).getByRole('button', { name: 'Changing plan…' })).toBeDisabled()
            expect(within(dialog()).getByRole('button', { name: 'Cancel' })).toBeDisabled()
            expect(changePlan.pending.at(-1)?.input.slug).toBe('demo-free')
          },
          changed: () => {
            expect(screen.queryByRole('dialog')).toBeNull()
            expect(screen.getByRole('status')).toHaveTextContent(`Your organization is now on the ${current()} plan`)
            expect(refreshOrganizations).toHaveBeenCalledTimes(1)
          },
          failed: () => {
            expect(within(dialog()).getByRole('alert')).toHaveTextContent(/^Failed to change the plan: /)
            expect(within(dialog()).getByRole('button', { name: /^Confirm (Pro|Team) plan$/ })).toBeEnabled()
          },
        },
        events: {
          'xstate.done.actor.fetchBilling': async (step) => fetchBilling.resolve(outputOf<BillingData>(step)),
          'xstate.error.actor.fetchBilling': async (step) => fetchBilling.reject(errorOf(step)),
          'xstate.after.requestTimeout.planChange.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'billing.retry': async () => {
            await act(async () => screen.getByRole('button', { name: 'Try again' }).click())
          },
          'plan.select': async (step) => {
            const name = step.event.plan === 'pro' ? 'Pro' : 'Team'
            await act(async () => screen.getByRole('button', { name: `Change to ${name}` }).click())
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'plan.confirm': async () => {
            await act(async () => within(dialog()).getByRole('button', { name: /^Confirm (Pro|Team) plan$/ }).click())
          },
          'plan.cancel': async () => {
            await act(async () => within(dialog()).getByRole('button', { name: 'Cancel' }).click())
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'xstate.done.actor.changePlan': async (step) => changePlan.resolve(outputOf<Subscription>(step)),
          'xstate.error.actor.changePlan': async (step) => changePlan.reject(errorOf(step)),
          'xstate.after.requestTimeout.planChange.changing': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
        },
      })
    })
  }
})
