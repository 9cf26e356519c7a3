import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { githubIntegrationsMachine, selectGitHubIntegrationsView, type IntegrationsData } from '../../machines/githubIntegrations.machine'
import { toastMachine } from '../../machines/toast.machine'
import type { Connection } from '../../src/contracts/github'
import { ACME_NOTES, INSTALLATION, LANDING_PAGE, ORG, PORTAL, connection } from '../fixtures.github'
import { deferredActor, usePathClock } from '../../model-tests/fakes'

const DATA: IntegrationsData = { organization: ORG, installations: [INSTALLATION], connections: [ACME_NOTES] }
const PORTAL_LANDING = connection(2, LANDING_PAGE, PORTAL)

function start(toasts?: ReturnType<typeof createActor<typeof toastMachine>>) {
  const load = deferredActor<IntegrationsData, { slug: string }>('loadIntegrations')
  const list = deferredActor<Connection[], { organizationId: number }>('listConnections')
  const remove = deferredActor<void, { organizationId: number; connectionId: number }>('deleteConnection')
  const actor = createActor(
    githubIntegrationsMachine.provide({ actors: { loadIntegrations: load.logic, listConnections: list.logic, deleteConnection: remove.logic } }),
    { input: { slug: ORG.slug, toasts } },
  ).start()
  const view = () => selectGitHubIntegrationsView(actor.getSnapshot())
  const toast = () => (toasts ?? actor.getSnapshot().children.toasts!).getSnapshot().context.toast
  return { actor, loads: load.runs, lists: list.runs, deletes: remove.runs, view, toast }
}

async function loaded(toasts?: ReturnType<typeof createActor<typeof toastMachine>>) {
  const s = start(toasts)
  s.loads[0].resolve({ ...DATA, connections: [ACME_NOTES, PORTAL_LANDING] })
  await vi.advanceTimersByTimeAsync(0)
  return s
}

usePathClock()

describe('GitHub integrations machine', () => {
  it('loads the organization’s installations and connections', async () => {
    const s = start()
    expect(s.view()).toEqual({ phase: 'loading' })
    expect(s.loads[0].input).toEqual({ slug: ORG.slug })
    s.loads[0].resolve(DATA)
    await vi.advanceTimersByTimeAsync(0)
    expect(s.view()).toMatchObject({ phase: 'loaded', installations: [INSTALLATION], connections: [ACME_NOTES], remove: null, refreshing: false })
  })

  it('a failed or unanswered load shows its message; retry loads again', async () => {
    const s = start()
    s.loads[0].reject(new Error('Organization not found'))
    await vi.advanceTimersByTimeAsync(0)
    expect(s.view()).toEqual({ phase: 'failed', error: 'Organization not found' })
    s.actor.send({ type: 'integrations.retry' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(s.loads[1].signal.aborted).toBe(true)
    expect(s.view()).toEqual({ phase: 'failed', error: 'The request timed out' })
  })

  it('deletes a connection after a confirmation, then reads the connections again', async () => {
    const s = await loaded()
    s.actor.send({ type: 'connection.delete', id: ACME_NOTES.id })
    expect(s.view()).toMatchObject({ remove: { connection: ACME_NOTES, deleting: false } })
    expect(s.deletes).toHaveLength(0)
    s.actor.send({ type: 'delete.confirm' })
    expect(s.deletes[0].input).toEqual({ organizationId: ORG.id, connectionId: ACME_NOTES.id })
    s.deletes[0].resolve()
    await vi.advanceTimersByTimeAsync(0)
    expect(s.view()).toMatchObject({ connections: [PORTAL_LANDING], refreshing: true, remove: null })
    s.lists[0].resolve([PORTAL_LANDING])
    await vi.advanceTimersByTimeAsync(0)
    expect(s.view()).toMatchObject({ connections: [PORTAL_LANDING], refreshing: false })
  })

  it('a cancelled deletion deletes nothing', async () => {
    const s = await loaded()
    s.actor.send({ type: 'connection.delete', id: ACME_NOTES.id })
    s.actor.send({ type: 'delete.cancel' })
    expect(s.view()).toMatchObject({ remove: null, connections: [ACME_NOTES, PORTAL_LANDING] })
    expect(s.deletes).toHaveLength(0)
  })

  it('a failed deletion keeps the card and says so in a toast of its own', async () => {
    const s = await loaded()
    s.actor.send({ type: 'connection.delete', id: ACME_NOTES.id })
    s.actor.send({ type: 'delete.confirm' })
    s.deletes[0].reject(new Error('Your role in this organization (Read-only) cannot change its integrations'))
    await vi.advanceTimersByTimeAsync(0)
    expect(s.view()).toMatchObject({ connections: [ACME_NOTES, PORTAL_LANDING], remove: null })
    expect(s.toast()).toMatchObject({ tone: 'error', message: 'Failed to delete Github connection: Your role in this organization (Read-only) cannot change its integrations' })
  })

  it('an unanswered deletion times out into the toast, in the region handed in', async () => {
    const region = createActor(toastMachine).start()
    const s = await loaded(region)
    expect(s.actor.getSnapshot().children.toasts).toBeUndefined()
    s.actor.send({ type: 'connection.delete', id: PORTAL_LANDING.id })
    s.actor.send({ type: 'delete.confirm' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(s.deletes[0].signal.aborted).toBe(true)
    expect(region.getSnapshot().context.toast).toMatchObject({ tone: 'error', message: 'Failed to delete Github connection: The request timed out' })
  })

  it('a refresh keeps the cards on a failure or a time-out', async () => {
    const s = await loaded()
    s.actor.send({ type: 'connections.refresh' })
    expect(s.lists[0].input).toEqual({ organizationId: ORG.id })
    s.lists[0].reject(new Error('Unable to reach the server'))
    await vi.advanceTimersByTimeAsync(0)
    expect(s.view()).toMatchObject({ refreshing: false, connections: [ACME_NOTES, PORTAL_LANDING] })
    s.actor.send({ type: 'connections.refresh' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(s.lists[1].signal.aborted).toBe(true)
    expect(s.view()).toMatchObject({ refreshing: false, connections: [ACME_NOTES, PORTAL_LANDING] })
  })
})
