import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, fromCallback, fromPromise, type AnyMachineSnapshot, type EventObject, type SnapshotFrom } from 'xstate'
import { githubIntegrationsMachine } from '../machines/githubIntegrations.machine'
import {
  LINKED_MESSAGE,
  repositoryRelinkMachine,
  repositoryConnectedMessage,
  type CreateInput,
  type LinkerData,
} from '../machines/repositoryRelink.machine'
import { toastMachine } from '../machines/toast.machine'
import type { Connection } from '../src/contracts/github'
import { GitHubIntegrations } from '../src/views/org/integrations/GitHubIntegrations'
import { ACME, ACME_NOTES, INSTALLATION, LANDING_PAGE, LINKER_DATA, NOTES_APP, ORG, PORTAL, connection } from '../tests/fixtures.github'
import { type ModelEvent, coveringWalks, describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(repositoryRelinkMachine)

const REQUEST_TIMEOUT = 10_000
const INSTALL_POLL_INTERVAL = 3_000
const NOT_INSTALLED: LinkerData = { ...LINKER_DATA, installed: false }
const PORTAL_LANDING = connection(2, LANDING_PAGE, PORTAL)
const ACME_LANDING = connection(3, LANDING_PAGE, ACME)

const contextOf = (snapshot: SnapshotFrom<typeof repositoryRelinkMachine>) => snapshot.context

const model = modelOf(repositoryRelinkMachine, {
  input: { organization: { id: ORG.id, slug: ORG.slug }, toasts: createActor(toastMachine), connectionsOwner: null },
  events: (snapshot) => {
    const context = contextOf(snapshot)
    if (snapshot.matches('closed')) return context.data === null ? [ev({ type: 'panel.open' })] : []
    if (snapshot.matches({ open: 'loading' })) {
      return [
        ev({ type: 'xstate.done.actor.loadLinker', output: LINKER_DATA }),
        ev({ type: 'xstate.done.actor.loadLinker', output: NOT_INSTALLED }),
        ev({ type: 'xstate.error.actor.loadLinker', error: apiError('Malformed response from /platform/integrations/github/repositories at repositories', 200) }),
        ev({ type: 'xstate.after.requestTimeout.repositoryRelink.open.loading' }),
      ]
    }
    if (snapshot.matches({ open: 'failed' })) return [ev({ type: 'linker.retry' }), ev({ type: 'panel.close' })]
    if (snapshot.matches({ open: 'needsInstall' })) return [ev({ type: 'install.start' }), ev({ type: 'panel.close' })]
    if (snapshot.matches({ open: { installing: 'waiting' } })) {
      return [
        ev({ type: 'xstate.after.installPollInterval.repositoryRelink.open.installing.waiting' }),
        ev({ type: 'install.completed' }),
        ev({ type: 'install.failed', error: 'The install window could not open: allow pop-ups for this site and try again' }),
        ev({ type: 'install.cancel' }),
        ev({ type: 'panel.close' }),
      ]
    }
    if (snapshot.matches({ open: { installing: 'checking' } })) {
      return [
        ev({ type: 'xstate.done.actor.checkInstallation', output: true }),
        ev({ type: 'xstate.done.actor.checkInstallation', output: false }),
        ev({ type: 'xstate.error.actor.checkInstallation', error: apiError('Unable to reach the server', null) }),
        ev({ type: 'xstate.after.requestTimeout.repositoryRelink.open.installing.checking' }),
      ]
    }
    if (snapshot.matches({ open: 'choosing' })) {
      // One order keeps the graph small: at most one search, then the project, then the repository, then Connect.
      const events: Array<ModelEvent<typeof repositoryRelinkMachine>> = []
      const searched = context.projectSearch !== '' || context.repositorySearch !== ''
      if (context.projectRef === null) {
        if (!searched) events.push(ev({ type: 'project.search', text: 'portal' }), ev({ type: 'repository.search', text: 'LANDING' }), ev({ type: 'panel.close' }))
        events.push(ev({ type: 'project.select', ref: PORTAL.ref }))
        // Acme Storefront (linked to notes-app) is hidden by the project search.
        if (context.projectSearch === '') events.push(ev({ type: 'project.select', ref: ACME.ref }))
      } else if (context.repositoryId === null) {
        events.push(ev({ type: 'repository.select', id: LANDING_PAGE.id }))
        // notes-app (already linked) is hidden by the repository search.
        if (context.repositorySearch === '') events.push(ev({ type: 'repository.select', id: NOTES_APP.id }))
      }
      if (snapshot.can({ type: 'connect' })) events.push(ev({ type: 'connect' }))
      return events
    }
    if (snapshot.matches({ open: { connecting: 'removingPrevious' } })) {
      return [
        ev({ type: 'xstate.done.actor.deleteConnection' }),
        ev({ type: 'xstate.error.actor.deleteConnection', error: apiError('Connection 1 not found', 404) }),
        ev({ type: 'xstate.after.requestTimeout.repositoryRelink.open.connecting.removingPrevious' }),
      ]
    }
    if (snapshot.matches({ open: { connecting: 'creating' } })) {
      const made = context.projectRef === ACME.ref ? ACME_LANDING : PORTAL_LANDING
      return [
        ev({ type: 'xstate.done.actor.createConnection', output: made }),
        ev({ type: 'xstate.done.actor.createConnection', output: null }),
        ev({ type: 'xstate.error.actor.createConnection', error: apiError('Selected repository already has an installed connection to a project', 409) }),
        ev({ type: 'xstate.after.requestTimeout.repositoryRelink.open.connecting.creating' }),
        ev({ type: 'panel.close' }),
      ]
    }
    return []
  },
  serializeState: (snapshot, event) => {
    const { data, organization: _organization, toasts: _toasts, connectionsOwner: _owner, ...rest } = snapshot.context
    return keyByIncomingEdge(snapshot, event, JSON.stringify({ ...rest, loaded: data === null ? null : data.installed }))
  },
})
const paths = coveringWalks(model)

const runPath = usePathClock()

const panel = () => screen.getByRole('dialog', { name: 'Add GitHub repository' })

describe('repository relink model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(repositoryRelinkMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const integrations = runPath(
        createActor(
          githubIntegrationsMachine.provide({
            actors: {
              loadIntegrations: fromPromise(async () => ({ organization: ORG, installations: [INSTALLATION], connections: [ACME_NOTES] })),
              listConnections: fromPromise(async () => [ACME_NOTES]),
            },
          }),
          { input: { slug: ORG.slug } },
        ).start(),
      )
      await act(() => vi.advanceTimersByTimeAsync(0))
      const load = deferredActor<LinkerData, { organizationId: number | null; slug: string }>('loadLinker')
      const check = deferredActor<boolean, { slug: string }>('checkInstallation')
      const remove = deferredActor<void, { organizationId: number | null; connectionId: number }>('deleteConnection')
      const create = deferredActor<Connection | null, CreateInput>('createConnection')
      const popups: Array<{ send: (event: EventObject) => void; open: boolean }> = []
      const actor = createActor(
        repositoryRelinkMachine.provide({
          actors: {
            loadLinker: load.logic,
            checkInstallation: check.logic,
            deleteConnection: remove.logic,
            createConnection: create.logic,
            watchInstallPopup: fromCallback(({ sendBack }) => {
              const popup = { send: sendBack, open: true }
              popups.push(popup)
              return () => {
                popup.open = false
              }
            }),
          },
        }),
        { input: { organization: { id: ORG.id, slug: ORG.slug }, toasts: integrations.getSnapshot().context.toasts, connectionsOwner: integrations } },
      ).start()
      render(<GitHubIntegrations integrations={integrations} linker={actor} />)
      const openPopups = () => popups.filter((p) => p.open)

      const choosingShown = (snapshot: AnyMachineSnapshot, connecting: boolean) => {
        const context = contextOf(snapshot)
        const view = within(panel())
        const repositories = view.getAllByRole('radio').filter((radio) => radio.getAttribute('name') === 'repository')
        const projects = view.getAllByRole('radio').filter((radio) => radio.getAttribute('name') === 'project')
        const repoNames = context.repositorySearch === 'LANDING' ? [LANDING_PAGE.name] : LINKER_DATA.repositories.map((r) => r.name)
        const projectNames = context.projectSearch === 'portal' ? [PORTAL.name] : LINKER_DATA.projects.map((p) => p.name)
        expect(repositories.map((r) => r.closest('label')!.textContent)).toEqual(repoNames.map((name) => (name === NOTES_APP.name ? `${name}Linked to ${ACME.name}` : name)))
        expect(projects.map((r) => r.closest('label')!.textContent)).toEqual(projectNames.map((name) => (name === ACME.name ? `${name}Linked to ${NOTES_APP.name}` : name)))
        expect(view.getByLabelText('Search repositories')).toHaveValue(context.repositorySearch)
        expect(view.getByLabelText('Search projects')).toHaveValue(context.projectSearch)
        for (const radio of [...repositories, ...projects]) expect(radio).toHaveProperty('disabled', connecting)
        expect(view.getByRole('radio', { name: new RegExp(`^${PORTAL.name}`) })).toHaveProperty('checked', context.projectRef === PORTAL.ref)
        const alerts = view.queryAllByRole('alert').map((a) => a.textContent)
        const conflict = context.repositoryId === NOTES_APP.id ? repositoryConnectedMessage(NOTES_APP.name) : null
        expect(alerts).toEqual([conflict, context.connectError].filter((text): text is string => text !== null && text !== undefined).filter((t, i, all) => all.indexOf(t) === i))
        if (context.projectRef === ACME.ref && conflict === null) expect(view.getByText(`The project is linked to ${NOTES_APP.name}: connecting replaces that link.`)).toBeInTheDocument()
      }

      await path.test({
        states: {
          closed: () => {
            expect(screen.queryByRole('dialog')).toBeNull()
            expect(screen.getByRole('button', { name: 'Add GitHub repository' })).toBeEnabled()
            expect(openPopups()).toHaveLength(0)
          },
          'open.loading': () => {
            expect(within(panel()).getByRole('status')).toHaveTextContent('Loading GitHub repositories…')
            expect(load.pending.map((run) => run.input)).toEqual([{ organizationId: ORG.id, slug: ORG.slug }])
          },
          'open.failed': (snapshot) => {
            const alert = within(panel()).getByRole('alert')
            expect(within(alert).getByRole('heading')).toHaveTextContent('Failed to retrieve repositories')
            expect(alert).toHaveTextContent(contextOf(snapshot).loadError!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          'open.needsInstall': (snapshot) => {
            const { installError } = contextOf(snapshot)
            expect(within(panel()).getByRole('button', { name: 'Install GitHub' })).toBeEnabled()
            if (installError) expect(within(panel()).getByRole('alert')).toHaveTextContent(installError)
            else expect(within(panel()).queryByRole('alert')).toBeNull()
            expect(openPopups()).toHaveLength(0)
          },
          'open.installing': () => {
            expect(within(panel()).getByRole('status')).toHaveTextContent('Waiting for the GitHub install window…')
            expect(within(panel()).getByRole('button', { name: 'Cancel' })).toBeEnabled()
            expect(openPopups()).toHaveLength(1)
          },
          'open.installing.waiting': () => expect(check.pending).toHaveLength(0),
          'open.installing.checking': () => expect(check.pending.map((run) => run.input)).toEqual([{ slug: ORG.slug }]),
          'open.choosing': (snapshot) => {
            choosingShown(snapshot, false)
            expect(within(panel()).getByRole('button', { name: 'Connect' })).toHaveProperty('disabled', !snapshot.can({ type: 'connect' }))
          },
          'open.connecting': (snapshot) => {
            choosingShown(snapshot, true)
            expect(within(panel()).getByRole('button', { name: 'Connecting…' })).toBeDisabled()
            expect(within(panel()).getByRole('button', { name: 'Close' })).toBeDisabled()
          },
          'open.connecting.removingPrevious': () => {
            expect(remove.pending.map((run) => run.input)).toEqual([{ organizationId: ORG.id, connectionId: ACME_NOTES.id }])
            expect(create.pending).toHaveLength(0)
          },
          'open.connecting.creating': (snapshot) => {
            const { projectRef } = contextOf(snapshot)
            expect(create.pending.map((run) => run.input)).toEqual([
              { organizationId: ORG.id, body: { installation_id: INSTALLATION.id, project_ref: projectRef, repository_id: LANDING_PAGE.id } },
            ])
          },
        },
        events: {
          'panel.open': async () => fireEvent.click(screen.getByRole('button', { name: 'Add GitHub repository' })),
          'panel.close': async () => fireEvent.click(within(panel()).getByRole('button', { name: 'Close' })),
          'linker.retry': async () => fireEvent.click(within(panel()).getByRole('button', { name: 'Try again' })),
          'install.start': async () => fireEvent.click(within(panel()).getByRole('button', { name: 'Install GitHub' })),
          'install.cancel': async () => fireEvent.click(within(panel()).getByRole('button', { name: 'Cancel' })),
          'install.completed': async () => act(() => openPopups()[0].send({ type: 'install.completed' })),
          'install.failed': async (step) => act(() => openPopups()[0].send(step.event)),
          'project.search': async (step) => fireEvent.change(within(panel()).getByLabelText('Search projects'), { target: { value: step.event.text } }),
          'repository.search': async (step) =>
            fireEvent.change(within(panel()).getByLabelText('Search repositories'), { target: { value: step.event.text } }),
          'project.select': async (step) => {
            const name = step.event.ref === PORTAL.ref ? PORTAL.name : ACME.name
            fireEvent.click(within(panel()).getByRole('radio', { name: new RegExp(`^${name}`) }))
          },
          'repository.select': async (step) => {
            const name = step.event.id === LANDING_PAGE.id ? LANDING_PAGE.name : NOTES_APP.name
            fireEvent.click(within(panel()).getByRole('radio', { name: new RegExp(`^${name}`) }))
          },
          connect: async () => fireEvent.click(within(panel()).getByRole('button', { name: 'Connect' })),
          'xstate.done.actor.loadLinker': async (step) => load.resolve(outputOf<LinkerData>(step)),
          'xstate.error.actor.loadLinker': async (step) => load.reject(errorOf(step)),
          'xstate.after.requestTimeout.repositoryRelink.open.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'xstate.after.installPollInterval.repositoryRelink.open.installing.waiting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(INSTALL_POLL_INTERVAL))
          },
          'xstate.done.actor.checkInstallation': async (step) => check.resolve(outputOf<boolean>(step)),
          'xstate.error.actor.checkInstallation': async (step) => check.reject(errorOf(step)),
          'xstate.after.requestTimeout.repositoryRelink.open.installing.checking': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'xstate.done.actor.deleteConnection': async () => remove.resolve(undefined),
          'xstate.error.actor.deleteConnection': async (step) => remove.reject(errorOf(step)),
          'xstate.after.requestTimeout.repositoryRelink.open.connecting.removingPrevious': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'xstate.done.actor.createConnection': async (step) => {
            await create.resolve(outputOf<Connection | null>(step))
            const output = outputOf<Connection | null>(step)
            const notifications = screen.getByRole('status', { name: 'Notifications', hidden: true })
            expect(notifications).toHaveTextContent(output ? LINKED_MESSAGE : 'Failed to create Github connection: No new connection')
          },
          'xstate.error.actor.createConnection': async (step) => {
            await create.reject(errorOf(step))
            expect(screen.getByRole('status', { name: 'Notifications', hidden: true })).toHaveTextContent(repositoryConnectedMessage(LANDING_PAGE.name))
          },
          'xstate.after.requestTimeout.repositoryRelink.open.connecting.creating': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
            expect(screen.getByRole('status', { name: 'Notifications', hidden: true })).toHaveTextContent('Failed to create Github connection: The request timed out')
          },
        },
      })
    })
  }
})
