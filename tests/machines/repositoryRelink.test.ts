import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromCallback, fromPromise } from 'xstate'
import {
  LINKED_MESSAGE,
  repositoryRelinkMachine,
  selectRepositoryRelinkView,
  type CreateInput,
  type LinkerData,
} from '../../machines/repositoryRelink.machine'
import { toastMachine } from '../../machines/toast.machine'
import { REPOSITORY_ALREADY_CONNECTED, type Connection } from '../../src/contracts/github'
import { ACME, ACME_NOTES, ACME_PREVIEW, BROKEN, LANDING_PAGE, LINKER_DATA, NOTES_APP, ORG, PORTAL, connection } from '../fixtures.github'

interface Run<I, O> {
  input: I
  signal: AbortSignal
  resolve: (output: O) => void
  reject: (error: unknown) => void
}
const deferred = <I, O>(runs: Array<Run<I, O>>) =>
  fromPromise(({ input, signal }: { input: I; signal: AbortSignal }) => new Promise<O>((resolve, reject) => runs.push({ input, signal, resolve, reject })))

function start(organizationId: number | null = ORG.id) {
  const loads: Array<Run<{ organizationId: number | null; slug: string }, LinkerData>> = []
  const checks: Array<Run<{ slug: string }, boolean>> = []
  const deletes: Array<Run<{ organizationId: number | null; connectionId: number }, void>> = []
  const creates: Array<Run<CreateInput, Connection | null>> = []
  const popups: Array<{ slug: string; send: (event: { type: 'install.completed' } | { type: 'install.failed'; error: string }) => void; closed: boolean }> = []
  const toasts = createActor(toastMachine).start()
  const refreshes: string[] = []
  const owner = createActor(
    fromCallback(({ receive }) => {
      receive((event) => refreshes.push(event.type))
    }),
  ).start()
  const actor = createActor(
    repositoryRelinkMachine.provide({
      actors: {
        loadLinker: deferred(loads),
        checkInstallation: deferred(checks),
        deleteConnection: deferred(deletes),
        createConnection: deferred(creates),
        watchInstallPopup: fromCallback(({ input, sendBack }: { input: { slug: string }; sendBack: (event: any) => void }) => {
          const popup = { slug: input.slug, send: sendBack, closed: false }
          popups.push(popup)
          return () => {
            popup.closed = true
          }
        }),
      },
    }),
    { input: { organization: { id: organizationId, slug: ORG.slug }, toasts, connectionsOwner: owner } },
  ).start()
  const view = () => selectRepositoryRelinkView(actor.getSnapshot())
  const choosing = () => {
    const v = view()
    if (v.phase !== 'choosing') throw new Error(`not choosing: ${v.phase}`)
    return v
  }
  const toast = () => toasts.getSnapshot().context.toast
  return { actor, loads, checks, deletes, creates, popups, view, choosing, toast, refreshes }
}

async function opened(data: LinkerData = LINKER_DATA, projectRef?: string) {
  const s = start()
  s.actor.send({ type: 'panel.open', ...(projectRef ? { projectRef } : {}) })
  s.loads[0].resolve(data)
  await vi.advanceTimersByTimeAsync(0)
  return s
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('repository relink machine', () => {
  it('starts closed and loads the organization’s repositories, projects and connections when opened', async () => {
    const s = start()
    expect(s.view()).toEqual({ phase: 'closed' })
    expect(s.loads).toHaveLength(0)
    s.actor.send({ type: 'panel.open' })
    expect(s.view()).toEqual({ phase: 'loading' })
    expect(s.loads[0].input).toEqual({ organizationId: ORG.id, slug: ORG.slug })
  })

  it('enables Connect only when both a repository and a project are chosen', async () => {
    const s = await opened()
    expect(s.choosing().canConnect).toBe(false)
    s.actor.send({ type: 'repository.select', id: LANDING_PAGE.id })
    expect(s.choosing().canConnect).toBe(false)
    s.actor.send({ type: 'connect' })
    expect(s.creates).toHaveLength(0)
    s.actor.send({ type: 'project.select', ref: PORTAL.ref })
    expect(s.choosing().canConnect).toBe(true)
  })

  it('filters each list by text, case-insensitively, and marks what is already linked', async () => {
    const s = await opened()
    s.actor.send({ type: 'repository.search', text: 'NOTES' })
    expect(s.choosing().repositories).toEqual([{ id: NOTES_APP.id, name: NOTES_APP.name, connectedTo: ACME.name }])
    s.actor.send({ type: 'project.search', text: 'portal' })
    expect(s.choosing().projects).toEqual([{ ref: PORTAL.ref, name: PORTAL.name, connectedTo: null }])
    s.actor.send({ type: 'project.search', text: 'nothing like it' })
    expect(s.choosing().projects).toEqual([])
    expect(s.choosing().noProjects).toBe(false)
  })

  it('says a repository with a connection cannot be connected, and keeps Connect disabled', async () => {
    const s = await opened()
    s.actor.send({ type: 'project.select', ref: PORTAL.ref })
    s.actor.send({ type: 'repository.select', id: NOTES_APP.id })
    expect(s.choosing().conflict).toBe(`Unable to connect to demo-pro/notes-app: ${REPOSITORY_ALREADY_CONNECTED}`)
    expect(s.choosing().canConnect).toBe(false)
  })

  it('links a project without a connection: creates it, closes with the toast and refreshes the connections', async () => {
    const s = await opened()
    s.actor.send({ type: 'project.select', ref: PORTAL.ref })
    s.actor.send({ type: 'repository.select', id: LANDING_PAGE.id })
    s.actor.send({ type: 'connect' })
    expect(s.deletes).toHaveLength(0)
    expect(s.creates[0].input).toEqual({ organizationId: ORG.id, body: { installation_id: LANDING_PAGE.installation_id, project_ref: PORTAL.ref, repository_id: LANDING_PAGE.id } })
    expect(s.choosing().connecting).toBe(true)
    s.creates[0].resolve(connection(2, LANDING_PAGE, PORTAL))
    await vi.advanceTimersByTimeAsync(0)
    expect(s.view()).toEqual({ phase: 'closed' })
    expect(s.toast()).toMatchObject({ tone: 'success', message: LINKED_MESSAGE })
    expect(s.refreshes).toEqual(['connections.refresh'])
  })

  it('relinks: deletes the project’s connection first, then creates the new one', async () => {
    const s = await opened(LINKER_DATA, ACME.ref)
    expect(s.choosing().projectRef).toBe(ACME.ref)
    expect(s.choosing().replaces).toBe(NOTES_APP.name)
    s.actor.send({ type: 'repository.select', id: LANDING_PAGE.id })
    s.actor.send({ type: 'connect' })
    expect(s.deletes.map((d) => d.input)).toEqual([{ organizationId: ORG.id, connectionId: ACME_NOTES.id }])
    expect(s.creates).toHaveLength(0)
    s.deletes[0].resolve()
    await vi.advanceTimersByTimeAsync(0)
    expect(s.creates[0].input.body).toEqual({ installation_id: LANDING_PAGE.installation_id, project_ref: ACME.ref, repository_id: LANDING_PAGE.id })
  })

  it('ignores a failed or unanswered deletion of the old connection and creates the new one', async () => {
    const s = await opened(LINKER_DATA, ACME.ref)
    s.actor.send({ type: 'repository.select', id: BROKEN.id })
    s.actor.send({ type: 'connect' })
    s.deletes[0].reject(new Error('Connection 1 not found'))
    await vi.advanceTimersByTimeAsync(0)
    expect(s.creates).toHaveLength(1)

    const t = await opened(LINKER_DATA, ACME.ref)
    t.actor.send({ type: 'repository.select', id: BROKEN.id })
    t.actor.send({ type: 'connect' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(t.deletes[0].signal.aborted).toBe(true)
    expect(t.creates).toHaveLength(1)
  })

  it('a failed create keeps the panel and both selections, with the spec’s toast', async () => {
    const s = await opened()
    s.actor.send({ type: 'project.select', ref: PORTAL.ref })
    s.actor.send({ type: 'repository.select', id: LANDING_PAGE.id })
    s.actor.send({ type: 'connect' })
    s.creates[0].reject(new Error('Internal server error'))
    await vi.advanceTimersByTimeAsync(0)
    const v = s.choosing()
    expect(v).toMatchObject({ projectRef: PORTAL.ref, repositoryId: LANDING_PAGE.id, error: 'Failed to create Github connection: Internal server error', canConnect: true })
    expect(s.toast()).toMatchObject({ tone: 'error', message: 'Failed to create Github connection: Internal server error' })
  })

  it('a 409 on the repository is told in the spec’s words', async () => {
    const s = await opened()
    s.actor.send({ type: 'project.select', ref: PORTAL.ref })
    s.actor.send({ type: 'repository.select', id: LANDING_PAGE.id })
    s.actor.send({ type: 'connect' })
    s.creates[0].reject(new Error(REPOSITORY_ALREADY_CONNECTED))
    await vi.advanceTimersByTimeAsync(0)
    expect(s.choosing().error).toBe(`Unable to connect to demo-pro/landing-page: ${REPOSITORY_ALREADY_CONNECTED}`)
  })

  it('an answer without a connection is "No new connection"; an unanswered create times out', async () => {
    const s = await opened()
    s.actor.send({ type: 'project.select', ref: PORTAL.ref })
    s.actor.send({ type: 'repository.select', id: LANDING_PAGE.id })
    s.actor.send({ type: 'connect' })
    s.creates[0].resolve(null)
    await vi.advanceTimersByTimeAsync(0)
    expect(s.choosing().error).toBe('Failed to create Github connection: No new connection')
    s.actor.send({ type: 'connect' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(s.creates[1].signal.aborted).toBe(true)
    expect(s.choosing().error).toBe('Failed to create Github connection: The request timed out')
  })

  it('cannot be closed while connecting', async () => {
    const s = await opened()
    s.actor.send({ type: 'project.select', ref: PORTAL.ref })
    s.actor.send({ type: 'repository.select', id: LANDING_PAGE.id })
    s.actor.send({ type: 'connect' })
    s.actor.send({ type: 'panel.close' })
    expect(s.choosing().connecting).toBe(true)
    expect(s.creates[0].signal.aborted).toBe(false)
  })

  it('a failed or unanswered load shows its message and loads again on retry', async () => {
    const s = start()
    s.actor.send({ type: 'panel.open' })
    s.loads[0].reject(new Error('Malformed response from /platform/integrations/github/repositories at repositories.0.id'))
    await vi.advanceTimersByTimeAsync(0)
    expect(s.view()).toEqual({ phase: 'failed', error: 'Malformed response from /platform/integrations/github/repositories at repositories.0.id' })
    s.actor.send({ type: 'linker.retry' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(s.loads[1].signal.aborted).toBe(true)
    expect(s.view()).toEqual({ phase: 'failed', error: 'The request timed out' })
  })

  it('drops a project asked for at opening that the organization does not have', async () => {
    const s = await opened(LINKER_DATA, 'notaprojectofthisorg1')
    expect(s.choosing().projectRef).toBeNull()
  })

  it('with no projects, says so', async () => {
    const s = await opened({ ...LINKER_DATA, projects: [] })
    expect(s.choosing()).toMatchObject({ noProjects: true, projects: [] })
  })

  describe('preview branches', () => {
    const WITH_PREVIEW: LinkerData = { ...LINKER_DATA, projects: [ACME, ACME_PREVIEW, PORTAL] }

    it('are not offered: the project picker lists only projects that are not a preview branch', async () => {
      const s = await opened(WITH_PREVIEW)
      expect(s.choosing().projects.map((p) => p.ref)).toEqual([ACME.ref, PORTAL.ref])
      s.actor.send({ type: 'project.search', text: 'preview' })
      expect(s.choosing().projects).toEqual([])
    })

    it('one asked for at opening is not kept chosen, and one sent as chosen cannot be connected', async () => {
      const s = await opened(WITH_PREVIEW, ACME_PREVIEW.ref)
      expect(s.choosing().projectRef).toBeNull()
      s.actor.send({ type: 'repository.select', id: LANDING_PAGE.id })
      s.actor.send({ type: 'project.select', ref: ACME_PREVIEW.ref })
      expect(s.choosing().canConnect).toBe(false)
      s.actor.send({ type: 'connect' })
      expect(s.creates).toHaveLength(0)
      s.actor.send({ type: 'project.select', ref: PORTAL.ref })
      expect(s.choosing().canConnect).toBe(true)
    })

    it('an organization whose only projects are preview branches has no projects to link', async () => {
      const s = await opened({ ...LINKER_DATA, projects: [ACME_PREVIEW] })
      expect(s.choosing()).toMatchObject({ noProjects: true, projects: [] })
    })
  })

  describe('install step', () => {
    it('a person without the installation is asked to install; the popup’s message reloads the lists', async () => {
      const s = start()
      s.actor.send({ type: 'panel.open' })
      s.loads[0].resolve({ ...LINKER_DATA, installed: false })
      await vi.advanceTimersByTimeAsync(0)
      expect(s.view()).toEqual({ phase: 'install', installing: false, error: null })
      s.actor.send({ type: 'install.start' })
      expect(s.popups.map((p) => p.slug)).toEqual([ORG.slug])
      expect(s.view()).toEqual({ phase: 'install', installing: true, error: null })
      s.popups[0].send({ type: 'install.completed' })
      expect(s.popups[0].closed).toBe(true)
      expect(s.view()).toEqual({ phase: 'loading' })
      expect(s.loads).toHaveLength(2)
    })

    it('polls while the popup is open and reloads once the installation is found', async () => {
      const s = start()
      s.actor.send({ type: 'panel.open' })
      s.loads[0].resolve({ ...LINKER_DATA, installed: false })
      await vi.advanceTimersByTimeAsync(0)
      s.actor.send({ type: 'install.start' })
      await vi.advanceTimersByTimeAsync(2_999)
      expect(s.checks).toHaveLength(0)
      await vi.advanceTimersByTimeAsync(1)
      expect(s.checks).toHaveLength(1)
      s.checks[0].resolve(false)
      await vi.advanceTimersByTimeAsync(3_000)
      s.checks[1].reject(new Error('Unable to reach the server'))
      await vi.advanceTimersByTimeAsync(3_000)
      s.checks[2].resolve(true)
      await vi.advanceTimersByTimeAsync(0)
      expect(s.view()).toEqual({ phase: 'loading' })
      expect(s.popups[0].closed).toBe(true)
    })

    it('a blocked popup says so; Cancel goes back to the install button', async () => {
      const s = start()
      s.actor.send({ type: 'panel.open' })
      s.loads[0].resolve({ ...LINKER_DATA, installed: false })
      await vi.advanceTimersByTimeAsync(0)
      s.actor.send({ type: 'install.start' })
      s.popups[0].send({ type: 'install.failed', error: 'blocked' })
      expect(s.view()).toEqual({ phase: 'install', installing: false, error: 'blocked' })
      s.actor.send({ type: 'install.start' })
      s.actor.send({ type: 'install.cancel' })
      expect(s.popups[1].closed).toBe(true)
      expect(s.view()).toEqual({ phase: 'install', installing: false, error: null })
    })
  })

  it('without a connections owner, linking still closes with its toast', async () => {
    const toasts = createActor(toastMachine).start()
    const creates: Array<Run<CreateInput, Connection | null>> = []
    const loads: Array<Run<{ organizationId: number | null; slug: string }, LinkerData>> = []
    const actor = createActor(repositoryRelinkMachine.provide({ actors: { loadLinker: deferred(loads), createConnection: deferred(creates) } }), {
      input: { organization: { id: ORG.id, slug: ORG.slug }, toasts, connectionsOwner: null },
    }).start()
    actor.send({ type: 'panel.open', projectRef: PORTAL.ref })
    loads[0].resolve(LINKER_DATA)
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'repository.select', id: LANDING_PAGE.id })
    actor.send({ type: 'connect' })
    creates[0].resolve(connection(3, LANDING_PAGE, PORTAL))
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().matches('closed')).toBe(true)
  })
})
