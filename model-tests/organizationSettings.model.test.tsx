import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, type EventFrom } from 'xstate'
import {
  NO_PERMISSION_TEXT,
  SAVED_TEXT,
  organizationSettingsMachine,
  type OrganizationSettingsData,
} from '../machines/organizationSettings.machine'
import type { Organization } from '../src/contracts/organizations'
import type { UpdateOrganizationBody } from '../src/contracts/orgSettings'
import { OrganizationGeneralPage } from '../src/views/org/OrganizationGeneralPage'
import { ALL_PERMISSIONS, ORGS } from '../tests/fakePlatform'
import { type ModelEvent, describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor } from './fakes'

const ORG: Organization = ORGS[0]
const OWNER_DATA: OrganizationSettingsData = { organization: ORG, permissions: [...ALL_PERMISSIONS, 'organizations:write'] }
const READONLY_DATA: OrganizationSettingsData = { organization: ORG, permissions: [] }
const NEW_NAME = 'Renamed Org'
const REQUEST_TIMEOUT = 10_000

const model = modelOf(organizationSettingsMachine, {
  input: { slug: ORG.slug },
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.fetchOrganizationSettings', output: OWNER_DATA },
        { type: 'xstate.done.actor.fetchOrganizationSettings', output: READONLY_DATA },
        { type: 'xstate.error.actor.fetchOrganizationSettings', error: apiError('Organization not found', 404) },
        { type: 'xstate.after.requestTimeout.organizationSettings.loading' },
      ]
    }
    if (snapshot.matches('loadFailed')) return [{ type: 'settings.retry' }]
    if (snapshot.matches('saving')) {
      return [
        { type: 'xstate.done.actor.saveOrganization', output: { ...ORG, name: NEW_NAME } },
        { type: 'xstate.error.actor.saveOrganization', error: apiError('Internal server error', 500) },
        { type: 'xstate.after.requestTimeout.organizationSettings.saving' },
      ]
    }
    const events: Array<ModelEvent<typeof organizationSettingsMachine>> = []
    const edit: EventFrom<typeof organizationSettingsMachine> = { type: 'draft.edit', draft: { name: NEW_NAME } }
    if (snapshot.can(edit)) events.push(edit)
    if (snapshot.can({ type: 'settings.save' })) events.push({ type: 'settings.save' })
    return events
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

describe('organizationSettings model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(organizationSettingsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetchSettings = deferredActor<OrganizationSettingsData, { slug: string }>('fetchOrganizationSettings')
      const saveOrganization = deferredActor<Organization, { slug: string; body: UpdateOrganizationBody }>('saveOrganization')
      const refreshOrganizations = vi.fn()
      const actor = createActor(
        organizationSettingsMachine.provide({
          actors: { fetchOrganizationSettings: fetchSettings.logic, saveOrganization: saveOrganization.logic },
          actions: { refreshOrganizations },
        }),
        { input: { slug: ORG.slug } },
      ).start()
      stop = () => actor.stop()
      render(<OrganizationGeneralPage settings={actor} />)
      const nameInput = () => screen.getByRole('textbox', { name: 'Organization name' })
      const save = () => screen.getByRole('button', { name: /^Sav/ })
      const mayWrite = () => actor.getSnapshot().context.permissions.includes('organizations:write')

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByText('Loading organization…')).toBeInTheDocument()
            expect(fetchSettings.pending.at(-1)?.input).toEqual({ slug: ORG.slug })
          },
          loadFailed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('Failed to load organization')
          },
          idle: () => {
            expect(screen.getByText(ORG.slug)).toBeInTheDocument()
            expect(screen.getByRole('switch', { name: 'Share anonymous schema metadata with the AI' })).not.toBeChecked()
            if (mayWrite()) {
              expect(nameInput()).toBeEnabled()
              expect(screen.queryByText(NO_PERMISSION_TEXT)).toBeNull()
              // Save is enabled exactly when the draft differs from the organization.
              if ((nameInput() as HTMLInputElement).value === actor.getSnapshot().context.organization?.name) expect(save()).toBeDisabled()
              else expect(save()).toBeEnabled()
            } else {
              expect(nameInput()).toBeDisabled()
              expect(screen.getByRole('switch', { name: 'Share anonymous schema metadata with the AI' })).toBeDisabled()
              expect(screen.getByText(NO_PERMISSION_TEXT)).toBeInTheDocument()
              expect(save()).toBeDisabled()
            }
          },
          saving: () => {
            expect(save()).toHaveTextContent('Saving…')
            expect(nameInput()).toBeDisabled()
            expect(saveOrganization.pending.at(-1)?.input).toEqual({ slug: ORG.slug, body: { name: (nameInput() as HTMLInputElement).value } })
          },
          saved: () => {
            expect(screen.getByRole('status')).toHaveTextContent(SAVED_TEXT)
            expect(nameInput()).toHaveValue(NEW_NAME)
            expect(screen.getByRole('heading', { level: 1 }).parentElement).toHaveTextContent(NEW_NAME)
            expect(save()).toBeDisabled()
            expect(refreshOrganizations).toHaveBeenCalledTimes(1)
          },
          failed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent(/^Failed to save settings: /)
            // What was typed is kept.
            expect(nameInput()).toHaveValue(actor.getSnapshot().context.draft.name)
            expect(nameInput()).not.toHaveValue(ORG.name)
            expect(save()).toBeEnabled()
          },
        },
        events: {
          'xstate.done.actor.fetchOrganizationSettings': async (step) =>
            fetchSettings.resolve(outputOf<OrganizationSettingsData>(step)),
          'xstate.error.actor.fetchOrganizationSettings': async (step) => fetchSettings.reject(errorOf(step)),
          'xstate.after.requestTimeout.organizationSettings.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'settings.retry': async () => {
            await act(async () => screen.getByRole('button', { name: 'Try again' }).click())
          },
          'draft.edit': async () => {
            await act(async () => {
              // A change the person makes: the new name, or (when it is already typed) one more character.
              const typed = (nameInput() as HTMLInputElement).value
              fireEvent.change(nameInput(), { target: { value: typed === NEW_NAME ? `${NEW_NAME}!` : NEW_NAME } })
            })
          },
          'settings.save': async () => {
            await act(async () => save().click())
          },
          'xstate.done.actor.saveOrganization': async (step) => saveOrganization.resolve(outputOf<Organization>(step)),
          'xstate.error.actor.saveOrganization': async (step) => saveOrganization.reject(errorOf(step)),
          'xstate.after.requestTimeout.organizationSettings.saving': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
        },
      })
    })
  }
})
