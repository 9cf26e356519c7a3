/**
 * /join?token=…: the signed-in person accepts an invitation to an organization. The token's shape is checked
 * first (a link cut short is said so without a request); accepting is one request, unanswered after
 * requestTimeout it is abandoned (signal aborted) and reported. A refusal (another e-mail, expired, already used)
 * shows the server's message and may be tried again. On success `joined` hands the refreshed session (the new
 * organization's permissions) to the app.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { InvitationToken, type JoinedOrganization } from '../src/contracts/members'
import type { SessionData } from './session.machine'

export interface JoinResult {
  organization: JoinedOrganization
  session: SessionData
}

interface Context {
  token: string
  joined: JoinedOrganization | null
  error: string | null
}

type JoinEvent = { type: 'join.accept' }

const TIMED_OUT = 'The request timed out. Try again.'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

export const joinInvitationMachine = setup({
  types: {
    input: {} as { token: string },
    context: {} as Context,
    events: {} as JoinEvent,
    children: {} as { acceptInvitation: 'acceptInvitation' },
  },
  actors: {
    acceptInvitation: fromPromise<JoinResult, { token: string }>(async () => {
      throw new Error('acceptInvitation not provided')
    }),
  },
  actions: {
    /** Provided by the app: the session takes the new permissions, the project list loads again. */
    joined: (_, _params: { session: SessionData }) => {},
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
  },
  guards: {
    isTokenValid: ({ context }) => InvitationToken.safeParse(context.token).success,
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'joinInvitation',
  context: ({ input }) => ({ token: input.token, joined: null, error: null }),
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
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to accept the invitation') }) } },
      },
      after: { requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: TIMED_OUT } } } },
    },
    failed: {
      on: { 'join.accept': 'accepting' },
    },
    joined: {},
  },
})

export type JoinView =
  | { phase: 'invalid' }
  | { phase: 'ready'; accepting: boolean; error: string | null }
  | { phase: 'joined'; organization: JoinedOrganization }

export function selectJoinView(snapshot: SnapshotFrom<typeof joinInvitationMachine>): JoinView {
  const { joined, error } = snapshot.context
  if (snapshot.matches('invalid')) return { phase: 'invalid' }
  if (snapshot.matches('joined') && joined) return { phase: 'joined', organization: joined }
  return { phase: 'ready', accepting: snapshot.matches('accepting'), error: snapshot.matches('failed') ? error : null }
}
