/**
 * /join?token=…: the signed-in person accepts an invitation to an organization. The token's shape is checked
 * first (a link cut short is said so without a request); accepting is one request, unanswered after
 * requestTimeout it is abandoned (signal aborted) and reported. A refusal (another e-mail, expired, already used)
 * shows the server's message and may be tried again. An account whose e-mail address is not verified yet is told so
 * (`unverified`) and may send itself a new verification link, then accept again once it has opened it. On success
 * `joined` hands the refreshed session (the new organization's permissions) to the app.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { type EmailVerificationSent } from '../src/contracts/accounts'
import { EMAIL_NOT_VERIFIED, InvitationToken, type JoinedOrganization } from '../src/contracts/members'
import type { SessionData } from './session.machine'

export interface JoinResult {
  organization: JoinedOrganization
  session: SessionData
}

interface Context {
  token: string
  joined: JoinedOrganization | null
  error: string | null
  /** The address a new verification link went to. */
  sentTo: string | null
}

type JoinEvent = { type: 'join.accept' } | { type: 'verification.send' }

const TIMED_OUT = 'The request timed out. Try again.'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)
/** The `code` of an error answer's body (the API client keeps the body on its error). */
const codeOf = (error: unknown) => {
  const body = error !== null && typeof error === 'object' && 'body' in error ? error.body : null
  return body !== null && typeof body === 'object' && 'code' in body ? body.code : undefined
}

export const joinInvitationMachine = setup({
  types: {
    input: {} as { token: string },
    context: {} as Context,
    events: {} as JoinEvent,
    children: {} as { acceptInvitation: 'acceptInvitation'; sendEmailVerification: 'sendEmailVerification' },
  },
  actors: {
    acceptInvitation: fromPromise<JoinResult, { token: string }>(async () => {
      throw new Error('acceptInvitation not provided')
    }),
    sendEmailVerification: fromPromise<EmailVerificationSent>(async () => {
      throw new Error('sendEmailVerification not provided')
    }),
  },
  actions: {
    /** Provided by the app: the session takes the new permissions, the project list loads again. */
    joined: (_, _params: { session: SessionData }) => {},
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
  },
  guards: {
    isTokenValid: ({ context }) => InvitationToken.safeParse(context.token).success,
    isEmailNotVerified: (_, params: { error: unknown }) => codeOf(params.error) === EMAIL_NOT_VERIFIED,
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'joinInvitation',
  context: ({ input }) => ({ token: input.token, joined: null, error: null, sentTo: null }),
  initial: 'checking',
  states: {
    checking: {
      always: [{ guard: 'isTokenValid', target: 'ready' }, { target: 'invalid' }],
    },
    invalid: {},
    ready: {
      on: { 'join.accept': 'accepting' },
    },
    accepting: {
      entry: assign({ error: null }),
      invoke: {
        id: 'acceptInvitation',
        src: 'acceptInvitation',
        input: ({ context }) => ({ token: context.token }),
        onDone: {
          target: 'joined',
          actions: [assign(({ event }) => ({ joined: event.output.organization })), { type: 'joined', params: ({ event }) => ({ session: event.output.session }) }],
        },
        onError: [
          {
            guard: { type: 'isEmailNotVerified', params: ({ event }) => ({ error: event.error }) },
            target: 'unverified',
            actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Verify your e-mail address first') }) },
          },
          { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to accept the invitation') }) } },
        ],
      },
      after: { requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: TIMED_OUT } } } },
    },
    failed: {
      on: { 'join.accept': 'accepting' },
    },
    unverified: {
      on: { 'join.accept': 'accepting', 'verification.send': 'sendingVerification' },
    },
    sendingVerification: {
      invoke: {
        id: 'sendEmailVerification',
        src: 'sendEmailVerification',
        onDone: { target: 'unverified', actions: assign({ sentTo: ({ event }) => event.output.email, error: null }) },
        onError: { target: 'unverified', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to send a new link') }) } },
      },
      after: { requestTimeout: { target: 'unverified', actions: { type: 'storeError', params: { error: TIMED_OUT } } } },
    },
    joined: {},
  },
})

export type JoinView =
  | { phase: 'invalid' }
  | { phase: 'ready'; accepting: boolean; error: string | null }
  | { phase: 'unverified'; sending: boolean; error: string | null; sentTo: string | null }
  | { phase: 'joined'; organization: JoinedOrganization }

export function selectJoinView(snapshot: SnapshotFrom<typeof joinInvitationMachine>): JoinView {
  const { joined, error, sentTo } = snapshot.context
  if (snapshot.matches('invalid')) return { phase: 'invalid' }
  if (snapshot.matches('joined') && joined) return { phase: 'joined', organization: joined }
  if (snapshot.matches('unverified') || snapshot.matches('sendingVerification')) {
    return { phase: 'unverified', sending: snapshot.matches('sendingVerification'), error, sentTo }
  }
  return { phase: 'ready', accepting: snapshot.matches('accepting'), error: snapshot.matches('failed') ? error : null }
}
