import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { pausedMachine, type RestoreContext } from '../machines/paused.machine'
import { toastMachine } from '../machines/toast.machine'
import { pausedActors } from '../src/api/live/lifecycle'
import { PausedPage, RESTORE_DENIED, RESTORE_TOOLTIP } from '../src/views/project/lifecycle/PausedPage'
import { ToastRegion } from '../src/views/shell/ToastRegion'
import { makeProject } from '../tests/fixtures'
import { ALL_PERMISSIONS } from '../tests/fakePlatform'
import { describePath, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { usePlatform } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(pausedMachine)

const PROJECT = makeProject({ status: 'INACTIVE', organization_slug: 'demo-org' })
const RESTORED = { ...PROJECT, status: 'RESTORING' as const }
const PERMISSIONS_URL = /^\/platform\/profile\/permissions$/
const SUBSCRIPTION_URL = /^\/platform\/organizations\/demo-org\/billing\/subscription$/
const MEMBERS_URL = /^\/platform\/organizations\/demo-org\/members\/reached-free-project-limit$/
const RESTORE_URL = /^\/platform\/projects\/[a-z]{20}\/restore$/
const MEMBER = { username: 'owner', primary_email: 'owner@example.com', free_project_limit: 2 }

const CONTEXTS: Record<string, RestoreContext> = {
  owner: { permissions: ALL_PERMISSIONS, plan: 'pro', membersReachedLimit: [] },
  developer: { permissions: ALL_PERMISSIONS.filter((p) => p !== 'infra:execute:project-initialize-or-resume'), plan: 'pro', membersReachedLimit: [] },
  freeAtLimit: { permissions: ALL_PERMISSIONS, plan: 'free', membersReachedLimit: [MEMBER] },
}

const model = modelOf(pausedMachine, {
  input: { project: PROJECT },
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        ...Object.values(CONTEXTS).map((output) => (ev({ type: 'xstate.done.actor.fetchRestoreContext', output }))),
        { type: 'xstate.error.actor.fetchRestoreContext', error: new Error('Internal server error') },
      ]
    }
    if (snapshot.matches('loadFailed')) return [{ type: 'context.retry' }]
    if (snapshot.matches('idle')) return [{ type: 'restore.request' }]
    // A second click on the refused button: the payload only tells the vertex apart from the first click's.
    if (snapshot.matches('denied')) return [{ type: 'restore.request', again: true }]
    if (snapshot.matches('limitReached')) return [{ type: 'limit.close' }]
    if (snapshot.matches('confirming')) return [{ type: 'restore.confirm' }, { type: 'restore.cancel' }]
    if (snapshot.matches('restoring')) {
      return [
        { type: 'xstate.done.actor.restoreProject', output: RESTORED },
        { type: 'xstate.error.actor.restoreProject', error: new Error('Project is RESTORING') },
      ]
    }
    return []
  },
  serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
})
const paths = model.getShortestPaths()

const platform = usePlatform()

const settle = () => platform.settle()
const click = (name: string) => act(async () => fireEvent.click(screen.getByRole('button', { name })))

describe('paused model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(pausedMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const projectUpdated = vi.fn()
      const toasts = createActor(toastMachine).start()
      const actor = createActor(
        pausedMachine.provide({
          actors: pausedActors,
          actions: {
            projectUpdated: (_, params) => projectUpdated(params.project),
            showToast: (_, params) => toasts.send({ type: 'toast.show', ...params }),
          },
        }),
        { input: { project: PROJECT } },
      ).start()
      render(
        <>
          <PausedPage actor={actor} project={PROJECT} />
          <ToastRegion actor={toasts} />
        </>,
      )
      // While the confirm dialog is open Headless UI hides the rest of the page from the accessibility tree.
      const toastRegion = () => screen.getByRole('status', { name: 'Notifications', hidden: true })
      const paused = () => expect(screen.getByRole('heading', { level: 1, name: 'Project is paused' })).toBeInTheDocument()
      const noDialog = () => expect(screen.queryByRole('dialog')).toBeNull()

      await path.test({
        states: {
          loading: () => {
            paused()
            expect(screen.getByRole('button', { name: 'Checking…' })).toBeDisabled()
            expect(platform.server.isPending(PERMISSIONS_URL)).toBe(true)
          },
          loadFailed: () => {
            paused()
            expect(screen.getByRole('alert')).toHaveTextContent('Failed to check whether this project can be restored')
            expect(screen.getByRole('button', { name: 'Restore project' })).toBeDisabled()
          },
          idle: (state) => {
            paused()
            noDialog()
            const button = screen.getByRole('button', { name: 'Restore project' })
            expect(button).toBeEnabled()
            const plan = state.context.restoreContext!.plan
            if (plan === 'free') {
              expect(screen.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/org/demo-org/billing?panel=subscriptionPlan')
            } else {
              expect(screen.getByRole('link', { name: 'Project settings' })).toHaveAttribute('href', `/project/${PROJECT.ref}/settings/general`)
              expect(screen.queryByRole('link', { name: 'Upgrade to Pro' })).toBeNull()
            }
          },
          denied: () => {
            paused()
            noDialog()
            expect(screen.getByRole('alert')).toHaveTextContent(RESTORE_DENIED)
            expect(screen.getByRole('button', { name: 'Restore project' })).toHaveAccessibleDescription(RESTORE_TOOLTIP)
            expect(platform.server.isPending(RESTORE_URL)).toBe(false)
          },
          limitReached: () => {
            const dialog = screen.getByRole('dialog', { name: 'Free project limit reached' })
            expect(dialog).toHaveTextContent('owner@example.com')
            expect(dialog).toHaveTextContent('delete, pause or upgrade one of their projects first')
            expect(within(dialog).queryByRole('button', { name: 'Confirm restore' })).toBeNull()
          },
          confirming: () => {
            const dialog = screen.getByRole('dialog', { name: 'Restore this project' })
            expect(within(dialog).getByRole('button', { name: 'Confirm restore' })).toBeEnabled()
            expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeEnabled()
          },
          restoring: () => {
            const dialog = screen.getByRole('dialog', { name: 'Restore this project' })
            expect(within(dialog).getByRole('button', { name: 'Restoring…' })).toBeDisabled()
            expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled()
            expect(platform.server.isPending(RESTORE_URL)).toBe(true)
            expect(projectUpdated).not.toHaveBeenCalled()
          },
          restored: () => {
            expect(projectUpdated).toHaveBeenCalledWith(RESTORED)
            expect(toastRegion()).toHaveTextContent('Restoring project')
          },
        },
        events: {
          'xstate.done.actor.fetchRestoreContext': async (step) => {
            const output = outputOf<RestoreContext>(step)
            platform.server.json(PERMISSIONS_URL, [{ organization_id: 2, organization_slug: 'demo-org', role: 'Owner', permissions: output.permissions }])
            platform.server.json(SUBSCRIPTION_URL, { plan: { id: output.plan, name: output.plan }, usage_billing_enabled: false })
            platform.server.json(MEMBERS_URL, output.membersReachedLimit)
            await settle()
          },
          'xstate.error.actor.fetchRestoreContext': async () => {
            platform.server.json(PERMISSIONS_URL, { message: 'Internal server error' }, 500)
            await settle()
          },
          'context.retry': () => click('Try again'),
          'restore.request': () => click('Restore project'),
          'restore.confirm': () => click('Confirm restore'),
          'restore.cancel': () => click('Cancel'),
          'limit.close': () => click('Understood'),
          'xstate.done.actor.restoreProject': async (step) => {
            platform.server.json(RESTORE_URL, outputOf<unknown>(step))
            await settle()
          },
          'xstate.error.actor.restoreProject': async (step) => {
            platform.server.json(RESTORE_URL, { message: 'Project is RESTORING: only a paused (INACTIVE) project can be restored' }, 409)
            await settle()
            expect(toastRegion()).toHaveTextContent('Failed to restore project: Project is RESTORING: only a paused (INACTIVE) project can be restored')
            void step
          },
        },
      })
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
      toasts.stop()
    })
  }
})
