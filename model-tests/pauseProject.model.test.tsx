import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { pauseProjectMachine } from '../machines/pauseProject.machine'
import { livePauseProjectMachine } from '../src/api/live/pause'
import type { Permission, ProjectStatus } from '../src/contracts/common'
import { PauseProjectPanel } from '../src/views/project/settings/PauseProjectSection'
import { REF } from '../tests/fixtures'
import { describePath, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { usePlatform } from './fakes'

const PERMISSIONS_URL = /^\/platform\/profile\/permissions$/
const PAUSE_URL = /^\/v1\/projects\/[a-z]{20}\/pause$/
const NO_PERMISSION = 'You need additional permissions to pause this project'

function modelFor(status: ProjectStatus) {
  return modelOf(pauseProjectMachine, {
    input: { ref: REF, organizationSlug: 'demo-org', status },
    events: (snapshot) => {
      if (snapshot.matches('loading')) {
        return [
          { type: 'xstate.done.actor.fetchPermissions', output: ['projects:write'] },
          { type: 'xstate.done.actor.fetchPermissions', output: [] },
          { type: 'xstate.error.actor.fetchPermissions', error: new Error('Internal server error') },
        ]
      }
      if (snapshot.matches('loadFailed')) return [{ type: 'permissions.retry' }]
      if (snapshot.matches('idle')) return [{ type: 'pause.request' }]
      if (snapshot.matches('confirming')) return [{ type: 'pause.confirm' }, { type: 'pause.cancel' }]
      if (snapshot.matches('pausing')) {
        return [
          { type: 'xstate.done.actor.pauseProject', output: null },
          { type: 'xstate.error.actor.pauseProject', error: new Error('Project is PAUSING') },
        ]
      }
      return []
    },
    serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
  })
}
const paths = [...modelFor('ACTIVE_HEALTHY').getShortestPaths(), ...modelFor('INACTIVE').getShortestPaths()]
const statusOf = (path: (typeof paths)[number]) => path.steps[0].state.context.status

const platform = usePlatform()

const settle = () => platform.settle()
const click = (name: string) => act(async () => fireEvent.click(screen.getByRole('button', { name })))

describe('pause project model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(pauseProjectMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(`${statusOf(path)}: ${describePath(path)}`, async () => {
      const refreshProject = vi.fn()
      const actor = createActor(livePauseProjectMachine.provide({ actions: { refreshProject } }), {
        input: { ref: REF, organizationSlug: 'demo-org', status: statusOf(path) },
      }).start()
      render(<PauseProjectPanel actor={actor} projectName="Analytics" />)
      const action = () => screen.getByRole('button', { name: 'Pause project' })

      await path.test({
        states: {
          loading: () => {
            expect(action()).toBeDisabled()
            expect(platform.server.isPending(PERMISSIONS_URL)).toBe(true)
          },
          loadFailed: () => {
            expect(action()).toBeDisabled()
            expect(screen.getByRole('alert')).toHaveTextContent('Internal server error')
          },
          idle: (state) => {
            expect(screen.queryByRole('dialog')).toBeNull()
            const { permissions, status } = state.context
            if (!permissions.includes('projects:write')) {
              expect(action()).toBeDisabled()
              expect(action()).toHaveAccessibleDescription(NO_PERMISSION)
            } else if (status !== 'ACTIVE_HEALTHY') {
              expect(action()).toBeDisabled()
              expect(action()).toHaveAccessibleDescription(`Only a healthy project can be paused; this one is ${status}`)
            } else {
              expect(action()).toBeEnabled()
            }
          },
          confirming: (state) => {
            const dialog = screen.getByRole('dialog', { name: 'Pause this project' })
            expect(within(dialog).getByRole('button', { name: 'Confirm pause' })).toBeEnabled()
            const error = state.context.error
            if (error) expect(within(dialog).getByRole('alert')).toHaveTextContent(error)
          },
          pausing: () => {
            const dialog = screen.getByRole('dialog', { name: 'Pause this project' })
            expect(within(dialog).getByRole('button', { name: 'Pausing…' })).toBeDisabled()
            expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled()
            expect(platform.server.isPending(PAUSE_URL)).toBe(true)
          },
          requested: () => {
            expect(refreshProject).toHaveBeenCalledTimes(1)
          },
        },
        events: {
          'xstate.done.actor.fetchPermissions': async (step) => {
            const permissions = outputOf<Permission[]>(step)
            platform.server.json(PERMISSIONS_URL, [{ organization_id: 2, organization_slug: 'demo-org', role: 'Owner', permissions }])
            await settle()
          },
          'xstate.error.actor.fetchPermissions': async () => {
            platform.server.json(PERMISSIONS_URL, { message: 'Internal server error' }, 500)
            await settle()
          },
          'permissions.retry': () => click('Try again'),
          'pause.request': () => click('Pause project'),
          'pause.confirm': () => click('Confirm pause'),
          'pause.cancel': () => click('Cancel'),
          'xstate.done.actor.pauseProject': async () => {
            platform.server.text(PAUSE_URL, '')
            await settle()
          },
          'xstate.error.actor.pauseProject': async () => {
            platform.server.json(PAUSE_URL, { message: 'Project is PAUSING: only an ACTIVE_HEALTHY project can be paused' }, 409)
            await settle()
          },
        },
      })
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
