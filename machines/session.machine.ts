/**
 * Session: whether someone is signed in, and signing in and out. Starts by asking the server for the profile
 * (checking); a 401 means signed out, any other failure is shown with a retry. A failed sign-in keeps the
 * server's message until the next attempt. Any 401 anywhere (`session.expired`, sent by the app from the HTTP
 * client's onUnauthorized hook) ends a signed-in session; while signed out it is ignored, because a wrong password
 * is itself a 401. Signing out always ends in signedOut, even when the server call fails. `session.changed` carries
 * a session opened or changed by another flow (sign-up signs in; a saved profile renames the person).
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { OrganizationPermissions, Profile } from '../src/contracts/session'
import type { Permission } from '../src/contracts/common'

export interface SessionData {
  profile: Profile
  permissions: OrganizationPermissions[]
}

export interface SignInCredentials {
  email: string
  password: string
}

interface Context {
  session: SessionData | null
  error: string | null
}

type SessionEvent =
  | { type: 'session.signIn'; email: string; password: string }
  | { type: 'session.signOut' }
  | { type: 'session.expired' }
  | { type: 'session.retry' }
  /** The session was opened or changed elsewhere (sign-up signed in; the profile was saved): the new data. */
  | { type: 'session.changed'; session: SessionData }

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

export const sessionMachine = setup({
  types: {
    context: {} as Context,
    events: {} as SessionEvent,
    children: {} as { fetchSession: 'fetchSession'; signIn: 'signIn'; signOut: 'signOut' },
  },
  actors: {
    fetchSession: fromPromise<SessionData>(async () => {
      throw new Error('fetchSession not provided')
    }),
    signIn: fromPromise<SessionData, SignInCredentials>(async () => {
      throw new Error('signIn not provided')
    }),
    signOut: fromPromise<void>(async () => {
      throw new Error('signOut not provided')
    }),
  },
  guards: {
    isUnauthorized: (_, params: { error: unknown }) =>
      typeof params.error === 'object' && params.error !== null && (params.error as { status?: unknown }).status === 401,
  },
  actions: {
    forgetSession: assign({ session: null }),
  },
}).createMachine({
  id: 'session',
  context: { session: null, error: null },
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        id: 'fetchSession',
        src: 'fetchSession',
        onDone: { target: 'signedIn', actions: assign({ session: ({ event }) => event.output, error: null }) },
        onError: [
          { guard: { type: 'isUnauthorized', params: ({ event }) => ({ error: event.error }) }, target: 'signedOut' },
          { target: 'checkFailed', actions: assign({ error: ({ event }) => messageOf(event.error, 'Unable to reach the server') }) },
        ],
      },
    },
    checkFailed: {
      on: { 'session.retry': { target: 'checking', actions: assign({ error: null }) } },
    },
    signedOut: {
      id: 'signedOut',
      entry: 'forgetSession',
      initial: 'idle',
      on: { 'session.changed': { target: '#signedIn', actions: assign({ session: ({ event }) => event.session, error: null }) } },
      states: {
        idle: {
          on: { 'session.signIn': 'signingIn' },
        },
        signingIn: {
          invoke: {
            id: 'signIn',
            src: 'signIn',
            input: ({ event }) => {
              const { email, password } = event as Extract<SessionEvent, { type: 'session.signIn' }>
              return { email, password }
            },
            onDone: { target: '#signedIn', actions: assign({ session: ({ event }) => event.output, error: null }) },
            onError: { target: 'rejected', actions: assign({ error: ({ event }) => messageOf(event.error, 'Unable to sign in') }) },
          },
        },
        rejected: {
          on: { 'session.signIn': { target: 'signingIn', actions: assign({ error: null }) } },
        },
      },
    },
    signedIn: {
      id: 'signedIn',
      initial: 'idle',
      on: {
        'session.expired': '#signedOut',
        'session.changed': { actions: assign({ session: ({ event }) => event.session }) },
      },
      states: {
        idle: {
          on: { 'session.signOut': 'signingOut' },
        },
        signingOut: {
          invoke: { id: 'signOut', src: 'signOut', onDone: '#signedOut', onError: '#signedOut' },
        },
      },
    },
  },
})

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>

type SessionPhase = 'checking' | 'checkFailed' | 'signedOut' | 'signedIn'

export function selectSessionPhase(snapshot: SessionSnapshot): SessionPhase {
  if (snapshot.matches('checking')) return 'checking'
  if (snapshot.matches('checkFailed')) return 'checkFailed'
  return snapshot.matches('signedIn') ? 'signedIn' : 'signedOut'
}

interface SignInView {
  submitting: boolean
  error: string | null
}

export function selectSignInView(snapshot: SessionSnapshot): SignInView {
  return {
    submitting: snapshot.matches({ signedOut: 'signingIn' }),
    error: snapshot.matches({ signedOut: 'rejected' }) ? snapshot.context.error : null,
  }
}

export const selectCheckError = (snapshot: SessionSnapshot) => snapshot.context.error
export const selectProfile = (snapshot: SessionSnapshot) => snapshot.context.session?.profile ?? null

/** The permissions the person holds in one organization (empty when unknown). */
export function selectOrgPermissions(slug: string | null) {
  return (snapshot: SessionSnapshot): readonly Permission[] =>
    snapshot.context.session?.permissions.find((entry) => entry.organization_slug === slug)?.permissions ?? NO_PERMISSIONS
}
const NO_PERMISSIONS: readonly Permission[] = []
