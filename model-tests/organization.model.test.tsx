import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { organizationMachine, type OrganizationData } from '../machines/organization.machine'
import { newProjectMachine } from '../machines/newProject.machine'
import { NewProjectPage } from '../src/views/projects/NewProjectPage'
import { ORGS } from '../tests/fakePlatform'
import { describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor } from './fakes'

const DATA: OrganizationData = { organization: ORGS[1], subscription: { plan: { id: 'pro', name: 'Pro' }, usage_billing_enabled: false } }

const model = modelOf(organizationMachine, {
  input: { slug: 'demo-pro' },
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.fetchOrganization', output: DATA },
        { type: 'xstate.error.actor.fetchOrganization', error: apiError('Organization not found', 404) },
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'organization.retry' }]
    return []
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, JSON.stringify(previous?.value ?? null)),
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
      // The organization machine's page is /new/{slug}: the organization and its plan above the new project's form.
      const newProject = createActor(newProjectMachine, { input: { slug: 'demo-pro' } }).start()
      stop = () => {
        actor.stop()
        newProject.stop()
      }
      render(<NewProjectPage organization={actor} newProject={newProject} />)
      const user = userEvent.setup()

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('heading', { level: 1, name: 'Create a new project' })).toBeInTheDocument()
            expect(screen.queryByText('Demo Pro')).toBeNull()
            expect(fetchOrganization.pending.at(-1)?.input).toEqual({ slug: 'demo-pro' })
          },
          failed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('Failed to load organization')
            expect(screen.getByRole('alert')).toHaveTextContent('Organization not found')
          },
          loaded: () => {
            expect(screen.getByText('Demo Pro')).toBeInTheDocument()
            expect(screen.getByText('Pro')).toBeInTheDocument()
            expect(screen.queryByRole('alert')).toBeNull()
          },
        },
        events: {
          'xstate.done.actor.fetchOrganization': async (step) => fetchOrganization.resolve(outputOf<OrganizationData>(step)),
          'xstate.error.actor.fetchOrganization': async (step) => fetchOrganization.reject(errorOf(step)),
          'organization.retry': async () => user.click(screen.getByRole('button', { name: 'Try again' })),
        },
      })
    })
  }
})
