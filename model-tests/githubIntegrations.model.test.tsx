import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { githubIntegrationsMachine, type IntegrationsData } from '../machines/githubIntegrations.machine'
import type { Connection } from '../src/contracts/github'
import { GitHubIntegrations, formatAddedAt } from '../src/views/org/integrations/GitHubIntegrations'
import { ACME_NOTES, INSTALLATION, LANDING_PAGE, ORG, PORTAL, connection } from '../tests/fixtures.github'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(githubIntegrationsMachine)

const REQUEST_TIMEOUT = 10_000
const PORTAL_LANDING = connection(2, LANDING_PAGE, PORTAL)
const DATA: IntegrationsData = { organization: ORG, installations: [INSTALLATION], connections: [ACME_NOTES, PORTAL_LANDING] }

const contextOf = (snapshot: SnapshotFrom<typeof githubIntegrationsMachine>) => snapshot.context

const model = modelOf(githubIntegrationsMachine, {
  input: { slug: ORG.slug },
  events: (snapshot) => {
    const context = contextOf(snapshot)
    if (snapshot.matches('loading')) {
      return [
        ev({ type: 'xstate.done.actor.loadIntegrations', output: DATA }),
        ev({ type: 'xstate.error.actor.loadIntegrations', error: apiError('Organization not found', 404) }),
        ev({ type: 'xstate.after.requestTimeout.githubIntegrations.loading' }),
      ]
    }
    if (snapshot.matches('failed')) return [ev({ type: 'integrations.retry' })]
    if (snapshot.matches({ loaded: 'idle' })) {
      const untouched = context.data?.connections.length === 2
      return [ev({ type: 'connections.refresh' }), ...(untouched ? [ev({ type: 'connection.delete', id: ACME_NOTES.id })] : [])]
    }
    if (snapshot.matches({ loaded: 'refreshing' })) {
      return [
        ev({ type: 'xstate.done.actor.listConnections', output: [PORTAL_LANDING] }),
        ev({ type: 'xstate.error.actor.listConnections', error: apiError('Unable to reach the server', null) }),
        ev({ type: 'xstate.after.requestTimeout.githubIntegrations.loaded.refreshing' }),
      ]
    }
    if (snapshot.matches({ loaded: 'confirming' })) return [ev({ type: 'delete.confirm' }), ev({ type: 'delete.cancel' })]
    if (snapshot.matches({ loaded: 'deleting' })) {
      return [
        ev({ type: 'xstate.done.actor.deleteConnection' }),
        ev({ type: 'xstate.error.actor.deleteConnection', error: apiError('Your role in this organization (Read-only) cannot change its integrations', 403) }),
        ev({ type: 'xstate.after.requestTimeout.githubIntegrations.loaded.deleting' }),
      ]
    }
    return []
  },
  serializeState: (snapshot, event) => {
    const { data, loadError, deleteId } = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, JSON.stringify({ loadError, deleteId, connections: data?.connections.map((c) => c.id) ?? null }))
  },
})
const paths = model.getShortestPaths()

const runPath = usePathClock()

const cardsShown = (connections: Connection[]) => {
  const list = screen.getByRole('list', { name: 'Connections', hidden: true })
  expect(within(list).queryAllByRole('listitem', { hidden: true }).map((item) => [...item.querySelectorAll('p')].map((p) => p.textContent))).toEqual(
    connections.map((c) => [`${c.repository.name} → ${c.project.name}`, `Added by ${c.user.primary_email} on ${formatAddedAt(c.inserted_at)}`]),
  )
}

describe('GitHub integrations model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(githubIntegrationsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const load = deferredActor<IntegrationsData, { slug: string }>('loadIntegrations')
      const list = deferredActor<Connection[], { organizationId: number }>('listConnections')
      const remove = deferredActor<void, { organizationId: number; connectionId: number }>('deleteConnection')
      const actor = runPath(
        createActor(githubIntegrationsMachine.provide({ actors: { loadIntegrations: load.logic, listConnections: list.logic, deleteConnection: remove.logic } }), {
          input: { slug: ORG.slug },
        }).start(),
      )
      render(<GitHubIntegrations integrations={actor} linker={null} />)
      const notifications = () => screen.getByRole('status', { name: 'Notifications', hidden: true })

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByText('Loading integrations…')).toBeInTheDocument()
            expect(load.pending.map((run) => run.input)).toEqual([{ slug: ORG.slug }])
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(within(alert).getByRole('heading')).toHaveTextContent('Failed to load integrations')
            expect(alert).toHaveTextContent(contextOf(snapshot).loadError!)
          },
          loaded: (snapshot) => {
            const installations = screen.getByRole('list', { name: 'Installations', hidden: true })
            expect(within(installations).getByText('demo-pro')).toBeInTheDocument()
            expect(within(installations).getByText(`GitHub · Added by owner@example.com on ${formatAddedAt(INSTALLATION.inserted_at)}`)).toBeInTheDocument()
            cardsShown(contextOf(snapshot).data!.connections)
          },
          'loaded.idle': () => {
            expect(screen.queryByRole('dialog')).toBeNull()
            for (const button of screen.getAllByRole('button', { name: /^Delete connection of/ })) expect(button).toBeEnabled()
          },
          'loaded.refreshing': () => expect(list.pending.map((run) => run.input)).toEqual([{ organizationId: ORG.id }]),
          'loaded.confirming': () => {
            const dialog = screen.getByRole('dialog', { name: 'Delete GitHub connection' })
            expect(dialog).toHaveTextContent(`Unlink ${ACME_NOTES.project.name} from ${ACME_NOTES.repository.name}?`)
            expect(within(dialog).getByRole('button', { name: 'Delete connection' })).toBeEnabled()
            expect(remove.pending).toHaveLength(0)
          },
          'loaded.deleting': () => {
            const dialog = screen.getByRole('dialog', { name: 'Delete GitHub connection' })
            expect(within(dialog).getByRole('button', { name: 'Deleting…' })).toBeDisabled()
            expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled()
            expect(remove.pending.map((run) => run.input)).toEqual([{ organizationId: ORG.id, connectionId: ACME_NOTES.id }])
          },
        },
        events: {
          'xstate.done.actor.loadIntegrations': async () => load.resolve(DATA),
          'xstate.error.actor.loadIntegrations': async (step) => load.reject(errorOf(step)),
          'xstate.after.requestTimeout.githubIntegrations.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'integrations.retry': async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })),
          // Sent by the repository linker after it linked a project.
          'connections.refresh': async () => act(() => actor.send({ type: 'connections.refresh' })),
          'connection.delete': async () =>
            fireEvent.click(screen.getByRole('button', { name: `Delete connection of ${ACME_NOTES.project.name} to ${ACME_NOTES.repository.name}` })),
          'delete.confirm': async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete connection' })),
          'delete.cancel': async () => fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' })),
          'xstate.done.actor.listConnections': async () => list.resolve([PORTAL_LANDING]),
          'xstate.error.actor.listConnections': async (step) => list.reject(errorOf(step)),
          'xstate.after.requestTimeout.githubIntegrations.loaded.refreshing': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'xstate.done.actor.deleteConnection': async () => remove.resolve(undefined),
          'xstate.error.actor.deleteConnection': async (step) => {
            await remove.reject(errorOf(step))
            expect(notifications()).toHaveTextContent('Failed to delete Github connection: Your role in this organization (Read-only) cannot change its integrations')
          },
          'xstate.after.requestTimeout.githubIntegrations.loaded.deleting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
            expect(notifications()).toHaveTextContent('Failed to delete Github connection: The request timed out')
          },
        },
      })
    })
  }
})
