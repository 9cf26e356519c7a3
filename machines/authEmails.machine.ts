/**
 * Authentication › Emails: the project's local mailbox (the e-mails its auth service sent with no SMTP server
 * set), newest first, one message open at a time with its link. Read again on request ('Refresh'), never on its
 * own: a person reading a message is not interrupted. Invariants: one read at a time; a read unanswered after
 * requestTimeout is abandoned and reported; a refresh keeps the open message open when it is still in the box.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { MailboxMessage } from '../src/contracts/auth'

interface Context {
  ref: string
  messages: MailboxMessage[]
  openId: number | null
  error: string | null
}

type AuthEmailsEvent = { type: 'emails.refresh' } | { type: 'email.open'; id: number } | { type: 'email.close' }

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

export const authEmailsMachine = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    events: {} as AuthEmailsEvent,
    children: {} as { readMailbox: 'readMailbox' },
  },
  actors: {
    readMailbox: fromPromise<MailboxMessage[], { ref: string }>(async () => {
      throw new Error('readMailbox not provided')
    }),
  },
  actions: {
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
  },
  guards: {
    isInBox: ({ context }, params: { id: number }) => context.messages.some((m) => m.id === params.id),
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'authEmails',
  context: ({ input }) => ({ ref: input.ref, messages: [], openId: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'readMailbox',
        src: 'readMailbox',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: {
          target: 'loaded',
          actions: assign(({ context, event }) => ({
            messages: event.output,
            openId: event.output.some((m) => m.id === context.openId) ? context.openId : null,
            error: null,
          })),
        },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load e-mails') }) } },
      },
      after: { requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: TIMED_OUT } } } },
    },
    failed: {
      on: { 'emails.refresh': 'loading' },
    },
    loaded: {
      on: {
        'emails.refresh': 'loading',
        'email.open': { guard: { type: 'isInBox', params: ({ event }) => ({ id: event.id }) }, actions: assign(({ event }) => ({ openId: event.id })) },
        'email.close': { actions: assign({ openId: null }) },
      },
    },
  },
})

export type AuthEmailsView =
  | { phase: 'loading'; messages: MailboxMessage[] }
  | { phase: 'failed'; error: string }
  | { phase: 'loaded'; messages: MailboxMessage[]; open: MailboxMessage | null }

export function selectAuthEmailsView(snapshot: SnapshotFrom<typeof authEmailsMachine>): AuthEmailsView {
  const { messages, openId, error } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading', messages }
  if (snapshot.matches('failed')) return { phase: 'failed', error: error ?? 'Failed to load e-mails' }
  return { phase: 'loaded', messages, open: messages.find((m) => m.id === openId) ?? null }
}
