import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot } from 'xstate'
import { profileMachine } from '../machines/profile.machine'
import type { Profile } from '../src/contracts/session'
import { ProfileForm } from '../src/views/account/ProfileForm'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(profileMachine)

const PROFILE: Profile = { id: 9, username: 'newcomer', primary_email: 'newcomer@example.com' }
const RULE = 'Username must be 3 to 40 characters: letters, digits, dots, dashes or underscores'

const model = modelOf(profileMachine, {
  input: { profile: PROFILE },
  events: (snapshot) => {
    const { draft } = snapshot.context
    if (snapshot.matches('saving')) {
      return [
        { type: 'xstate.done.actor.updateProfile', output: { ...PROFILE, username: draft.trim() } },
        { type: 'xstate.error.actor.updateProfile', error: apiError('This username is taken', 409) },
        { type: 'xstate.after.requestTimeout.profile.saving' },
      ]
    }
    // Typing: the saved name may become a bad one or a good one; a bad one is corrected; then it is saved.
    // After a save or a failure, the name is edited once more (to a bad one), which is then corrected.
    const edits = draft === 'a b' ? ['renamed'] : draft === PROFILE.username ? ['a b', 'renamed'] : snapshot.matches('saved') || snapshot.matches('failed') ? ['a b'] : []
    return [...edits.map((username) => (ev({ type: 'username.edit', username }))), ...(snapshot.matches('saved') ? [] : [ev({ type: 'username.save' })])]
  },
  // The state before is part of the key, so a state entered again from another one (a retry) is a path of its own.
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, JSON.stringify([(snapshot).context, previous?.value ?? null])),
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('profile model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(profileMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const update = deferredActor<Profile, { username: string }>('updateProfile')
      const saved = vi.fn()
      const actor = runPath(
        createActor(profileMachine.provide({ actors: { updateProfile: update.logic }, actions: { profileSaved: (_, params) => saved(params.profile) } }), { input: { profile: PROFILE } }).start(),
      )
      render(<ProfileForm profile={actor} />)
      const field = () => screen.getByLabelText('Username')
      const editable = (snapshot: AnyMachineSnapshot) => {
        const { draft, profile } = snapshot.context
        expect(field()).toHaveValue(draft)
        expect(screen.getByText(PROFILE.primary_email)).toBeInTheDocument()
        const bad = draft !== profile.username && draft === 'a b'
        if (bad) expect(screen.getByText(RULE)).toBeInTheDocument()
        else expect(screen.queryByText(RULE)).toBeNull()
        expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', bad || draft === profile.username)
      }

      await path.test({
        states: {
          idle: (snapshot) => {
            editable(snapshot)
            expect(screen.queryByRole('alert')).toBeNull()
            expect(screen.queryByRole('status')).toBeNull()
          },
          saving: (snapshot) => {
            expect(screen.getByRole('button', { name: 'Saving…' })).toBeDisabled()
            expect(update.pending.map((run) => run.input)).toEqual([{ username: snapshot.context.draft }])
          },
          saved: (snapshot) => {
            editable(snapshot)
            expect(screen.getByRole('status')).toHaveTextContent('Profile saved')
            expect(saved).toHaveBeenCalledWith({ ...PROFILE, username: 'renamed' })
          },
          failed: (snapshot) => {
            editable(snapshot)
            expect(screen.getByRole('alert')).toHaveTextContent(snapshot.context.error!)
            expect(saved).not.toHaveBeenCalled()
          },
        },
        events: {
          'username.edit': async (step) => {
            fireEvent.change(field(), { target: { value: step.event.username } })
          },
          'username.save': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Save' }))
          },
          'xstate.done.actor.updateProfile': async (step) => update.resolve(outputOf<Profile>(step)),
          'xstate.error.actor.updateProfile': async (step) => update.reject(errorOf(step)),
          'xstate.after.requestTimeout.profile.saving': async () => {
            await act(() => vi.advanceTimersByTimeAsync(10_000))
          },
        },
      })
    })
  }
})
