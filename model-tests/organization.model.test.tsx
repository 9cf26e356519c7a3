import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { createActor, type AnyMachineSnapshot, type EventObject } from 'xstate'
import { organizationMachine, type OrganizationData } from '../machines/organization.machine'
import { OrganizationPage } from '../src/views/org/OrganizationPages'
import { ORGS } from '../tests/web/platform'
import { apiError, deferredActor, matchesStateKey, testModelOf } from './support'
import { describePath, keyByIncomingEdge, missingCoverage } from './support'

const DATA: OrganizationData = { organization: ORGS[1], subscription: { plan: { id: 'pro', name: 'Pro' }, usage_billing_enabled: false } }

const model = testModelOf(organizationMachine, {
  input: { slug: 'demo-pro' },
  events: (snapshot: AnyMachineSnapshot): EventObject[] => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.fetchOrganization', output: DATA } as EventObject,
        { type: 'xstate.error.actor.fetchOrganization', error: apiError('Organization not found', 404) } as EventObject,
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'organization.retry' }]
    return []
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot as AnyMachineSnapshot, event as EventObject | undefined, JSON.stringify(previous?.value ?? null)),
  stateMatcher: matchesStateKey,
})
const paths = model.getShortestPaths()

let stop: (() => void) | null = null
afterEach(() => stop?.())

describe('organization model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(organizationMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetchOrganization = deferredActor<OrganizationData, { slug: string }>('fetchOrganization')
      const actor = createActor(organizationMachine.provide({ actors: { fetchOrganization: fetchOrganization.logic } }), {
        input: { slug: 'demo-pro' },
      }).start()
      stop = () => actor.stop()
      render(<OrganizationPage organization={actor} kind="billing" panel="subscriptionPlan" />)
      const user = userEvent.setup()

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByText('Loading organization…')).toBeInTheDocument()
            expect(fetchOrganization.pending.at(-1)?.input).toEqual({ slug: 'demo-pro' })
          },
          failed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('Organization not found')
          },
          loaded: () => {
            expect(screen.getByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument()
            expect(screen.getAllByText('Demo Pro').length).toBeGreaterThan(0)
            expect(screen.getByText('Change subscription plan')).toBeInTheDocument()
            expect(screen.getByText('You are on the Pro plan. Plan changes arrive in a later version.')).toBeInTheDocument()
          },
        },
        events: {
          'xstate.done.actor.fetchOrganization': async (step) => fetchOrganization.resolve((step.event as unknown as { output: OrganizationData }).output),
          'xstate.error.actor.fetchOrganization': async (step) => fetchOrganization.reject((step.event as unknown as { error: unknown }).error),
          'organization.retry': async () => user.click(screen.getByRole('button', { name: 'Try again' })),
        },
      })
    })
  }
})
