/**
 * Sign-up: the form's e-mail and password go to the platform, which creates the account and its personal
 * organization and signs in. On success `signedUp` hands the new session to the app (which tells the session
 * machine: the person is then signed in and lands on the project list). A refusal (a taken e-mail, the throttle)
 * or a request unanswered after requestTimeout (its signal aborted) shows the message and keeps what was typed
 * (the form's own values); the password travels in the event and the actor's input only, never in context.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { SignUpBody } from '../src/contracts/accounts'
import type { SessionData } from './session.machine'

interface Context {
  error: string | null
}

type SignUpEvent = { type: 'signUp.submit'; email: string; password: string }

const TIMED_OUT = 'The request timed out. Try again.'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

export const signUpMachine = setup({
  types: {
    context: {} as Context,
    events: {} as SignUpEvent,
    children: {} as { signUp: 'signUp' },
  },
  actors: {
    signUp: fromPromise<SessionData, SignUpBody>(async () => {
      throw new Error('signUp not provided')
    }),
  },
  actions: {
    /** Provided by the app: the session machine learns of the new session. */
    signedUp: (_, _params: { session: SessionData }) => {},
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
  },
  delays: {
    requestTimeout: 15_000,
  },
}).createMachine({
  id: 'signUp',
  context: { error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { 'signUp.submit': 'submitting' },
    },
    submitting: {
      entry: assign({ error: null }),
      invoke: {
        id: 'signUp',
        src: 'signUp',
        input: ({ event }) => {
          const { email, password } = event as SignUpEvent
          return { email, password }
        },
        onDone: { target: 'signedUp', actions: { type: 'signedUp', params: ({ event }) => ({ session: event.output }) } },
        onError: { target: 'rejected', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Unable to sign up') }) } },
      },
      after: { requestTimeout: { target: 'rejected', actions: { type: 'storeError', params: { error: TIMED_OUT } } } },
    },
    rejected: {
      on: { 'signUp.submit': 'submitting' },
    },
    signedUp: {},
  },
})

export interface SignUpView {
  submitting: boolean
  error: string | null
  done: boolean
}

export function selectSignUpView(snapshot: SnapshotFrom<typeof signUpMachine>): SignUpView {
  return {
    submitting: snapshot.matches('submitting'),
    error: snapshot.matches('rejected') ? snapshot.context.error : null,
    done: snapshot.matches('signedUp'),
  }
}
