import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import type { SessionData } from '../machines/session.machine'
import { signUpMachine } from '../machines/signUp.machine'
import type { SignUpBody } from '../src/contracts/accounts'
import { SignUpPage } from '../src/views/auth/SignUpPage'
import { describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const SESSION: SessionData = { profile: { id: 9, username: 'newcomer', primary_email: 'newcomer@example.com' }, permissions: [] }
const TAKEN = 'An account with this e-mail address already exists. Sign in instead.'

const model = modelOf(signUpMachine, {
  events: (snapshot) => {
    if (snapshot.matches('idle') || snapshot.matches('rejected')) return [{ type: 'signUp.submit', email: 'newcomer@example.com', password: 'long enough' }]
    if (snapshot.matches('submitting')) {
      return [
        { type: 'xstate.done.actor.signUp', output: SESSION },
        { type: 'xstate.error.actor.signUp', error: apiError(TAKEN, 409) },
        { type: 'xstate.after.requestTimeout.signUp.submitting' },
      ]
    }
    return []
  },
  // The state before is part of the key, so a state entered again from another one (a retry) is a path of its own.
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, JSON.stringify([(snapshot).context, previous?.value ?? null])),
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('sign-up model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(signUpMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const signUp = deferredActor<SessionData, SignUpBody>('signUp')
      const signedUp = vi.fn()
      const actor = runPath(createActor(signUpMachine.provide({ actors: { signUp: signUp.logic }, actions: { signedUp: (_, params) => signedUp(params.session) } })).start())
      render(<SignUpPage signUp={actor} />)
      const email = () => screen.getByLabelText('Email')

      await path.test({
        states: {
          idle: () => {
            expect(screen.getByRole('heading', { level: 1, name: 'Get started' })).toBeInTheDocument()
            expect(screen.getByRole('button', { name: 'Sign up' })).toBeEnabled()
            expect(screen.queryByRole('alert')).toBeNull()
            expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in')
          },
          submitting: () => {
            expect(screen.getByRole('button', { name: 'Signing up…' })).toBeDisabled()
            expect(signUp.pending.map((run) => run.input)).toEqual([{ email: 'newcomer@example.com', password: 'long enough' }])
          },
          rejected: (snapshot) => {
            expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.error!)
            expect(email()).toHaveValue('newcomer@example.com')
            expect(screen.getByRole('button', { name: 'Sign up' })).toBeEnabled()
          },
          signedUp: () => {
            expect(signedUp).toHaveBeenCalledWith(SESSION)
            expect(screen.getByRole('button', { name: 'Signing up…' })).toBeDisabled()
          },
        },
        events: {
          'signUp.submit': async () => {
            fireEvent.change(email(), { target: { value: 'newcomer@example.com' } })
            fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'long enough' } })
            fireEvent.click(screen.getByRole('button', { name: 'Sign up' }))
          },
          'xstate.done.actor.signUp': async () => signUp.resolve(SESSION),
          'xstate.error.actor.signUp': async (step) => signUp.reject(errorOf(step)),
          'xstate.after.requestTimeout.signUp.submitting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(15_000))
          },
        },
      })
    })
  }
})
