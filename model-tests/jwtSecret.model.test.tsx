import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { jwtSecretMachine } from '../machines/jwtSecret.machine'
import { fetchJwtStatus, requestJwtSecretUpdate } from '../src/api/live/jwtSecret'
import type { JwtSecretUpdateStatusResponse } from '../src/contracts/keys'
import { GenerateAction, JwtNotice } from '../src/views/project/ApiKeysPanels'
import { GenerateJwtSecretDialog } from '../src/views/project/GenerateJwtSecretDialog'
import { REF } from '../tests/fixtures'
import { type InternalEvent, describePath, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { usePlatform } from './fakes'

const STATUS_URL = /\/platform\/props\/project\/[a-z]{20}\/jwt-secret-update-status$/
const UPDATE_URL = /\/platform\/props\/project\/[a-z]{20}\/jwt-secret-update$/
/** Spec: while updating, the status read every 1 s; the beat is each read's slot (shorter than the 2 s time-out). */
const BEAT = 1_000
/** Every poll's answer comes this late: a slow platform must not stretch the beat. */
const ANSWER_AFTER = 600
const BEAT_EDGE: InternalEvent = { type: 'xstate.after.statusPollInterval.jwtSecret.updating.polling' }
const CUSTOM = 'a-custom-secret-long-enough-0123456789-abcdef'

const status = (s: 'updating' | 'updated' | 'failed' | null): JwtSecretUpdateStatusResponse => ({
  jwtSecretUpdateStatus: s === null ? null : { meta: { change_tracking_id: 'c-1', error: null, progress: 'Started', status: s } },
})
const done = (id: string, output: unknown): InternalEvent => ({ type: `xstate.done.actor.${id}`, output })
const fail = (id: string, message: string): InternalEvent => ({ type: `xstate.error.actor.${id}`, error: new Error(message) })

const model = modelOf(jwtSecretMachine, {
  input: { ref: REF, canUpdate: true },
  events: (snapshot) => {
    if (snapshot.matches('checking')) {
      return [
        done('fetchJwtStatus', status(null)),
        done('fetchJwtStatus', status('updating')),
        done('fetchJwtStatus', status('failed')),
        fail('fetchJwtStatus', 'Internal server error'),
        { type: 'xstate.after.requestTimeout.jwtSecret.checking' },
      ]
    }
    if (snapshot.matches('checkFailed')) return [{ type: 'xstate.after.statusPollInterval.jwtSecret.checkFailed' }]
    if (snapshot.matches('updated') || snapshot.matches('failed')) return [{ type: 'secret.generate' }]
    if (snapshot.matches('confirming')) {
      return [{ type: 'secret.cancel' }, { type: 'secret.confirm' }, { type: 'secret.confirm', jwt_secret: CUSTOM }]
    }
    if (snapshot.matches('requesting')) {
      return [done('updateJwtSecret', { change_tracking_id: 'c-2' }), fail('updateJwtSecret', 'A JWT secret update is already in progress for this project')]
    }
    if (snapshot.matches({ updating: { polling: 'settled' } })) return [BEAT_EDGE]
    if (snapshot.matches({ updating: { polling: 'requesting' } })) {
      return [
        done('pollJwtStatus', status('updating')),
        done('pollJwtStatus', status('updated')),
        done('pollJwtStatus', status('failed')),
        fail('pollJwtStatus', 'Internal server error'),
        // Unanswered when the next beat comes: abandoned, and the next read goes out.
        BEAT_EDGE,
      ]
    }
    return []
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(
      snapshot,
      event,
      `${String(snapshot.context.error)}|${JSON.stringify((previous)?.value ?? null)}`,
    ),
})
const paths = model.getShortestPaths()

const platform = usePlatform()
const settle = () => platform.settle()
const dialog = () => screen.queryByRole('dialog', { name: 'Generate a new JWT secret' })

describe('JWT secret model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(jwtSecretMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const reportStatus = vi.fn()
      const refreshSettings = vi.fn()
      const actor = createActor(
        jwtSecretMachine.provide({
          actors: { fetchJwtStatus, updateJwtSecret: requestJwtSecretUpdate },
          actions: { reportStatus: (_, params) => reportStatus(params.status), refreshSettings },
        }),
        { input: { ref: REF, canUpdate: true } },
      ).start()
      render(
        <>
          <GenerateAction jwt={actor} />
          <JwtNotice jwt={actor} />
          <GenerateJwtSecretDialog jwt={actor} />
        </>,
      )
      const { server } = platform
      // An open modal hides the page behind it from the accessibility tree.
      const generate = () => screen.getByRole('button', { name: 'Generate a new JWT secret', hidden: true })

      await path.test({
        states: {
          checking: () => {
            expect(server.isPending(STATUS_URL)).toBe(true)
            expect(dialog()).toBeNull()
          },
          checkFailed: () => {
            expect(server.pending).toHaveLength(0)
            expect(generate()).toBeDisabled()
          },
          updated: (state) => {
            expect(generate()).toBeEnabled()
            expect(reportStatus).toHaveBeenLastCalledWith('updated')
            expect(screen.queryByText('Updating JWT secret...')).toBeNull()
            if (state.context.error) {
              expect(screen.getByRole('alert')).toHaveTextContent('Failed to update JWT secret')
              expect(screen.getByRole('alert')).toHaveTextContent('already in progress')
            }
          },
          failed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('JWT secret update failed')
            expect(reportStatus).toHaveBeenLastCalledWith('failed')
            expect(generate()).toBeEnabled()
          },
          confirming: () => {
            expect(within(dialog()!).getByText('Every API key changes.')).toBeInTheDocument()
            expect(generate()).toBeDisabled()
          },
          requesting: () => {
            expect(server.isPending(UPDATE_URL)).toBe(true)
            expect(screen.getByRole('status', { hidden: true })).toHaveTextContent('Updating JWT secret...')
            expect(within(dialog()!).getByRole('button', { name: 'Generating…' })).toBeDisabled()
          },
          updating: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Updating JWT secret...')
            expect(reportStatus).toHaveBeenLastCalledWith('updating')
            expect(generate()).toBeDisabled()
            expect(dialog()).toBeNull()
          },
          'updating.polling.settled': () => expect(server.isPending(STATUS_URL)).toBe(false),
          'updating.polling.requesting': () => expect(server.pending.filter((p) => STATUS_URL.test(p.url))).toHaveLength(1),
        },
        events: {
          'xstate.done.actor.fetchJwtStatus': async (step) => {
            server.json(STATUS_URL, outputOf<unknown>(step))
            await settle()
          },
          'xstate.error.actor.fetchJwtStatus': async () => {
            server.json(STATUS_URL, { message: 'Internal server error' }, 500)
            await settle()
          },
          'xstate.done.actor.pollJwtStatus': async (step) => {
            await platform.advance(ANSWER_AFTER)
            server.json(STATUS_URL, outputOf<unknown>(step))
            await settle()
            const phase = outputOf<JwtSecretUpdateStatusResponse>(step).jwtSecretUpdateStatus?.meta.status
            expect(refreshSettings).toHaveBeenCalledTimes(phase === 'updated' ? 1 : 0)
          },
          'xstate.error.actor.pollJwtStatus': async () => {
            await platform.advance(ANSWER_AFTER)
            server.text(STATUS_URL, 'Bad gateway', 502)
            await settle()
          },
          'xstate.after.requestTimeout.jwtSecret.checking': () => platform.advance(2_000),
          'xstate.after.statusPollInterval.jwtSecret.checkFailed': () => platform.advance(1_000),
          'xstate.after.statusPollInterval.jwtSecret.updating.polling': () => platform.nextBeat(STATUS_URL, BEAT),
          'secret.generate': async () => {
            fireEvent.click(generate())
            await settle()
          },
          'secret.cancel': async () => {
            fireEvent.click(within(dialog()!).getByRole('button', { name: 'Cancel' }))
            await settle()
          },
          'secret.confirm': async (step) => {
            const secret = step.event.jwt_secret
            const d = dialog()!
            if (secret !== undefined) {
              fireEvent.click(within(d).getByRole('radio', { name: 'Create my own secret' }))
              fireEvent.change(within(d).getByLabelText('Custom JWT secret'), { target: { value: 'too-short' } })
              expect(within(d).getByRole('button', { name: 'Generate new JWT secret' })).toBeDisabled()
              fireEvent.change(within(d).getByLabelText('Custom JWT secret'), { target: { value: secret } })
            }
            fireEvent.click(within(d).getByRole('button', { name: 'Generate new JWT secret' }))
            await settle()
            expect(server.isPending(UPDATE_URL)).toBe(true)
          },
          'xstate.done.actor.updateJwtSecret': async () => {
            server.json(UPDATE_URL, { change_tracking_id: 'c-2' }, 202)
            await settle()
          },
          'xstate.error.actor.updateJwtSecret': async () => {
            server.json(UPDATE_URL, { message: 'A JWT secret update is already in progress for this project' }, 409)
            await settle()
          },
        },
      })
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
