import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { joinInvitationMachine, type JoinResult } from '../machines/joinInvitation.machine'
import { JoinPage } from '../src/views/org/JoinPage'
import { describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const TOKEN = `12.${'a'.repeat(43)}`
const UNVERIFIED = 'Verify your e-mail address before accepting this invitation: open the verification link sent to it, or send a new one.'
const unverifiedError = () => Object.assign(apiError(UNVERIFIED, 403), { body: { message: UNVERIFIED, code: 'email_not_verified' } })
const TOO_SOON = 'A verification link was sent less than a minute ago. Try again in 42 seconds.'
const RESULT: JoinResult = {
  organization: { slug: 'acme', name: 'Acme', role: 'Developer' },
  session: { profile: { id: 3, username: 'developer', primary_email: 'developer@example.com' }, permissions: [] },
}

// Two models: a well-formed token (checking → ready …) and a malformed one (checking → invalid).
const modelFor = (token: string) =>
  modelOf(joinInvitationMachine, {
    input: { token },
    events: (snapshot) => {
      if (snapshot.matches('ready') || snapshot.matches('failed')) return [{ type: 'join.accept' }]
      if (snapshot.matches('unverified')) return [{ type: 'join.accept' }, { type: 'verification.send' }]
      if (snapshot.matches('accepting')) {
        return [
          { type: 'xstate.done.actor.acceptInvitation', output: RESULT },
          { type: 'xstate.error.actor.acceptInvitation', error: apiError('This invitation has already been used', 410) },
          { type: 'xstate.error.actor.acceptInvitation', error: unverifiedError() },
          { type: 'xstate.after.requestTimeout.joinInvitation.accepting' },
        ]
      }
      if (snapshot.matches('sendingVerification')) {
        return [
          { type: 'xstate.done.actor.sendEmailVerification', output: { email: 'developer@example.com' } },
          { type: 'xstate.error.actor.sendEmailVerification', error: apiError(TOO_SOON, 429) },
          { type: 'xstate.after.requestTimeout.joinInvitation.sendingVerification' },
        ]
      }
      return []
    },
    // The state before is part of the key, so a state entered again from another one (a retry) is a path of its own.
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, JSON.stringify([(snapshot).context, previous?.value ?? null])),
  })
const paths = [...modelFor(TOKEN).getShortestPaths().map((path) => ({ path, token: TOKEN })), ...modelFor('12.cut').getShortestPaths().map((path) => ({ path, token: '12.cut' }))]
const runPath = usePathClock()

describe('join invitation model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(joinInvitationMachine, paths.map((p) => p.path))).toEqual({ states: [], transitions: [] })
  })

  for (const { path, token } of paths) {
    it(`${token === TOKEN ? 'valid token' : 'malformed token'}: ${describePath(path)}`, async () => {
      const accept = deferredActor<JoinResult, { token: string }>('acceptInvitation')
      const send = deferredActor<{ email: string }>('sendEmailVerification')
      const joined = vi.fn()
      const actor = runPath(
        createActor(
          joinInvitationMachine.provide({ actors: { acceptInvitation: accept.logic, sendEmailVerification: send.logic }, actions: { joined: (_, params) => joined(params.session) } }),
          { input: { token } },
        ).start(),
      )
      render(<JoinPage join={actor} />)
      await path.test({
        states: {
          invalid: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('This invitation link is not valid')
            expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull()
          },
          ready: () => {
            expect(screen.getByRole('button', { name: 'Accept invitation' })).toBeEnabled()
            expect(screen.queryByRole('alert')).toBeNull()
          },
          accepting: () => {
            expect(screen.getByRole('button', { name: 'Accepting…' })).toBeDisabled()
            expect(accept.pending.map((run) => run.input)).toEqual([{ token: TOKEN }])
          },
          failed: (snapshot) => {
            expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.error!)
            expect(screen.getByRole('button', { name: 'Accept invitation' })).toBeEnabled()
          },
          unverified: (snapshot) => {
            const { error, sentTo } = snapshot.context
            expect(screen.getByText(/Your e-mail address is not verified yet/)).toBeInTheDocument()
            if (error) expect(screen.getByRole('alert')).toHaveTextContent(error)
            else expect(screen.queryByRole('alert')).toBeNull()
            if (sentTo) expect(screen.getByRole('status')).toHaveTextContent(`A new verification link was sent to ${sentTo}.`)
            else expect(screen.queryByRole('status')).toBeNull()
            expect(screen.getByRole('button', { name: 'Send a new verification link' })).toBeEnabled()
            expect(screen.getByRole('button', { name: 'Accept invitation' })).toBeEnabled()
          },
          sendingVerification: () => {
            expect(screen.getByRole('button', { name: 'Sending…' })).toBeDisabled()
            expect(screen.getByRole('button', { name: 'Accept invitation' })).toBeDisabled()
            expect(send.pending).toHaveLength(1)
          },
          joined: () => {
            expect(screen.getByRole('status')).toHaveTextContent('You joined Acme as Developer.')
            expect(screen.getByRole('link', { name: 'See the team' })).toHaveAttribute('href', '/org/acme/team')
            expect(joined).toHaveBeenCalledWith(RESULT.session)
          },
        },
        events: {
          'join.accept': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Accept invitation' }))
          },
          'xstate.done.actor.acceptInvitation': async () => accept.resolve(RESULT),
          'xstate.error.actor.acceptInvitation': async (step) => accept.reject(errorOf(step)),
          'xstate.after.requestTimeout.joinInvitation.accepting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(10_000))
          },
          'verification.send': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Send a new verification link' }))
          },
          'xstate.done.actor.sendEmailVerification': async () => send.resolve({ email: 'developer@example.com' }),
          'xstate.error.actor.sendEmailVerification': async (step) => send.reject(errorOf(step)),
          'xstate.after.requestTimeout.joinInvitation.sendingVerification': async () => {
            await act(() => vi.advanceTimersByTimeAsync(10_000))
          },
        },
      })
    })
  }
})
