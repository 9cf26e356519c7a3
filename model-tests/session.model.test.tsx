import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fromPromise } from 'xstate'
import { sessionMachine, type SessionData } from '../machines/session.machine'
import { getProfile } from '../src/api/calls/session'
import { LIVE_LOGIC } from '../src/app/logic'
import { mapLoaded } from '../src/views/shell/lazy'
import { ALL_PERMISSIONS, OWNER, fakePlatform, renderApp } from '../tests/fakePlatform'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(sessionMachine)

const SESSION: SessionData = {
  profile: OWNER,
  permissions: [{ organization_id: 2, organization_slug: 'demo-pro', role: 'Owner', permissions: ALL_PERMISSIONS }],
}
const UNAUTHORIZED = apiError('Not signed in', 401)
const UNREACHABLE = apiError('Unable to reach the server', null)
const WRONG_PASSWORD = apiError('Invalid e-mail or password', 401)
/** The session a sign-up opens, and the session after the profile is renamed (both by session.changed). */
const SIGNED_UP: SessionData = { profile: { id: 9, username: 'newcomer', primary_email: 'newcomer@example.com' }, permissions: [] }
const RENAMED = 'boss'

const model = modelOf(sessionMachine, {
  events: (snapshot) => {
    if (snapshot.matches('checking')) {
      return [
        { type: 'xstate.done.actor.fetchSession', output: SESSION },
        { type: 'xstate.error.actor.fetchSession', error: UNAUTHORIZED },
        { type: 'xstate.error.actor.fetchSession', error: UNREACHABLE },
      ]
    }
    if (snapshot.matches('checkFailed')) return [{ type: 'session.retry' }]
    if (snapshot.matches({ signedOut: 'idle' })) {
      return [
        { type: 'session.signIn', email: 'owner@example.com', password: 'demo1234' },
        { type: 'session.changed', session: SIGNED_UP },
      ]
    }
    if (snapshot.matches({ signedOut: 'rejected' })) {
      return [{ type: 'session.signIn', email: 'owner@example.com', password: 'demo1234' }]
    }
    if (snapshot.matches({ signedOut: 'signingIn' })) {
      return [
        { type: 'xstate.done.actor.signIn', output: SESSION },
        { type: 'xstate.error.actor.signIn', error: WRONG_PASSWORD },
      ]
    }
    if (snapshot.matches({ signedIn: 'idle' })) {
      // Renaming once, on the account page, from a session that was signed into.
      const session = snapshot.context.session!
      const mayRename = session.profile.id === OWNER.id && session.profile.username !== RENAMED
      return [ev({ type: 'session.signOut' }), ev({ type: 'session.expired' }), ...(mayRename ? [ev({ type: 'session.changed', session: { ...session, profile: { ...session.profile, username: RENAMED } } })] : [])]
    }
    if (snapshot.matches({ signedIn: 'signingOut' })) {
      return [
        { type: 'xstate.done.actor.signOut' },
        { type: 'xstate.error.actor.signOut', error: UNREACHABLE },
        { type: 'session.expired' },
      ]
    }
    return []
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(
      snapshot,
      event,
      JSON.stringify([previous?.value ?? null, (snapshot).context.session?.profile.username ?? null]),
    ),
})

const paths = model.getShortestPaths()

afterEach(() => vi.unstubAllGlobals())

describe('session model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(sessionMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const platform = fakePlatform()
      const fetchSession = deferredActor<SessionData>('fetchSession')
      const signIn = deferredActor<SessionData, { email: string; password: string }>('signIn')
      const signOut = deferredActor<void>('signOut')
      const machine = sessionMachine.provide({ actors: { fetchSession: fetchSession.logic, signIn: signIn.logic, signOut: signOut.logic } })
      // Sign-up and the profile answer at once: what is under test is the session taking what they hand it.
      // Their machines derive from the live ones (loaded before the tests), so their screens render without a loading pass.
      const signUp = mapLoaded(LIVE_LOGIC.signUp, (live) => live.provide({ actors: { signUp: fromPromise(async () => SIGNED_UP) } }))
      const profile = mapLoaded(LIVE_LOGIC.profile, (live) =>
        live.provide({ actors: { updateProfile: fromPromise(async ({ input }: { input: { username: string } }) => ({ ...OWNER, username: input.username })) } }),
      )
      const { location } = renderApp('/projects', { logic: { session: machine, signUp, profile } })
      const user = userEvent.setup()
      const signInPage = () => screen.findByRole('heading', { name: 'Welcome back' })

      await path.test({
        states: {
          checking: async () => {
            expect(await screen.findByText('Loading your session…')).toBeInTheDocument()
          },
          checkFailed: async () => {
            expect(await screen.findByRole('alert')).toHaveTextContent('Unable to reach the server')
            expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          'signedOut.idle': async () => {
            expect(await signInPage()).toBeInTheDocument()
            expect(location.history.at(-1)).toBe('/sign-in')
            expect(screen.queryByRole('alert')).not.toBeInTheDocument()
          },
          'signedOut.signingIn': async () => {
            expect(await screen.findByRole('button', { name: 'Signing in…' })).toBeDisabled()
          },
          'signedOut.rejected': async () => {
            expect(await screen.findByRole('alert')).toHaveTextContent('Invalid e-mail or password')
            expect(screen.getByLabelText('Email')).toHaveValue('owner@example.com')
          },
          'signedIn.idle': async () => {
            expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument()
            await waitFor(() => expect(location.history.at(-1)).toBe('/projects'))
          },
          'signedIn.signingOut': async () => {
            expect(screen.getByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument()
          },
        },
        events: {
          'xstate.done.actor.fetchSession': async (step) => fetchSession.resolve(outputOf<SessionData>(step)),
          'xstate.error.actor.fetchSession': async (step) => fetchSession.reject(errorOf(step)),
          'session.retry': async () => user.click(screen.getByRole('button', { name: 'Try again' })),
          'session.signIn': async () => {
            await user.clear(screen.getByLabelText('Email'))
            await user.type(screen.getByLabelText('Email'), 'owner@example.com')
            await user.clear(screen.getByLabelText('Password'))
            await user.type(screen.getByLabelText('Password'), 'demo1234')
            await user.click(screen.getByRole('button', { name: 'Sign in' }))
          },
          'xstate.done.actor.signIn': async (step) => signIn.resolve(outputOf<SessionData>(step)),
          'xstate.error.actor.signIn': async (step) => signIn.reject(errorOf(step)),
          // signedOut: sign-up hands the new session over; signedIn: the account page's saved profile does.
          'session.changed': async () => {
            if (location.history.at(-1) === '/sign-in') {
              await user.click(await screen.findByRole('link', { name: 'Sign up' }))
              await user.type(await screen.findByLabelText('Email'), 'newcomer@example.com')
              await user.type(screen.getByLabelText('Password'), 'long enough')
              await user.click(screen.getByRole('button', { name: 'Sign up' }))
              return
            }
            act(() => location.navigate('/account/me'))
            const field = await screen.findByLabelText('Username')
            await user.clear(field)
            await user.type(field, RENAMED)
            await user.click(screen.getByRole('button', { name: 'Save' }))
            await screen.findByText('Profile saved')
            expect(screen.getByRole('button', { name: /Account/ })).toHaveTextContent(RENAMED)
            act(() => location.navigate('/projects'))
          },
          'session.signOut': async () => {
            await user.click(screen.getByRole('button', { name: /^Account\b/ }))
            await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Log out' }))
          },
          'xstate.done.actor.signOut': async () => signOut.resolve(undefined),
          'xstate.error.actor.signOut': async (step) => signOut.reject(errorOf(step)),
          // A 401 from any call, through the real HTTP client's onUnauthorized hook.
          'session.expired': async () => {
            platform.state.signedIn = false
            await act(async () => {
              await getProfile().catch(() => undefined)
            })
            platform.state.signedIn = true
          },
        },
      })
    })
  }
})
