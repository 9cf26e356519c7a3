import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type EventObject } from 'xstate'
import { joinInvitationMachine, type JoinResult } from '../machines/joinInvitation.machine'
import { JoinPage } from '../src/views/org/JoinPage'
import { apiError, deferredActor, describePath, keyByIncomingEdge, missingCoverage, modelOf, usePathClock } from './support'

const TOKEN = `12.${'a'.repeat(43)}`
const RESULT: JoinResult = {
  organization: { slug: 'acme', name: 'Acme', role: 'Developer' },
  session: { profile: { id: 3, username: 'developer', primary_email: 'developer@example.com' }, permissions: [] },
}

// Two models: a well-formed token (checking → ready …) and a malformed one (checking → invalid).
const modelFor = (token: string) =>
  modelOf(joinInvitationMachine, {
    input: { token },
    events: (snapshot: AnyMachineSnapshot): EventObject[] => {
      if (snapshot.matches('ready') || snapshot.matches('failed')) return [{ type: 'join.accept' }]
      if (snapshot.matches('accepting')) {
        return [
          { type: 'xstate.done.actor.acceptInvitation', output: RESULT } as EventObject,
          { type: 'xstate.error.actor.acceptInvitation', error: apiError('This invitation has already been used', 410) } as EventObject,
          { type: 'xstate.after.requestTimeout.joinInvitation.accepting' },
        ]
      }
      return []
    },
    // The state before is part of the key, so a state entered again from another one (a retry) is a path of its own.
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot as AnyMachineSnapshot, event as EventObject | undefined, JSON.stringify([(snapshot as AnyMachineSnapshot).context, previous?.value ?? null])),
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
      const joined = vi.fn()
      const actor = runPath(
        createActor(joinInvitationMachine.provide({ actors: { acceptInvitation: accept.logic }, actions: { joined: (_, params) => joined(params.session) } }), { input: { token } }).start(),
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
            expect(screen.getByRole('alert')).toHaveTextContent((snapshot.context as { error: string }).error)
            expect(screen.getByRole('button', { name: 'Accept invitation' })).toBeEnabled()
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
          'xstate.error.actor.acceptInvitation': async (step) => accept.reject((step.event as unknown as { error: unknown }).error),
          'xstate.after.requestTimeout.joinInvitation.accepting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(10_000))
            accept.pending.splice(0)
          },
        },
      })
    })
  }
})
