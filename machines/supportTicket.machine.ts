/**
 * Contact support (/support/new): the form's values are the view's; sending one is this flow. A sent ticket is kept
 * by the platform and listed on /support.
 * Invariants: one send at a time; a failed or timed-out send keeps everything typed (the view's state) and says why;
 * after a send the ticket is shown and another can be written.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { CreateTicketBody, type SupportTicket } from '../src/contracts/support'

interface Context {
  ticket: SupportTicket | null
  error: string | null
}

type SupportTicketEvent = { type: 'ticket.send'; body: CreateTicketBody } | { type: 'ticket.new' }

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Failed to send the support request')

export const supportTicketMachine = setup({
  types: {
    context: {} as Context,
    events: {} as SupportTicketEvent,
    children: {} as { sendTicket: 'sendTicket' },
  },
  actors: {
    sendTicket: fromPromise<SupportTicket, CreateTicketBody>(async () => {
      throw new Error('sendTicket not provided')
    }),
  },
  guards: {
    /** The contract's rules (category, subject and message given), so the server would accept it. */
    isComplete: (_, params: { body: CreateTicketBody }) => CreateTicketBody.safeParse(params.body).success,
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'supportTicket',
  context: { ticket: null, error: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'ticket.send': {
          guard: { type: 'isComplete', params: ({ event }) => ({ body: event.body }) },
          target: 'sending',
          actions: assign({ error: null }),
        },
      },
    },
    sending: {
      invoke: {
        id: 'sendTicket',
        src: 'sendTicket',
        input: ({ event }) => (event as Extract<SupportTicketEvent, { type: 'ticket.send' }>).body,
        onDone: { target: 'sent', actions: assign(({ event }) => ({ ticket: event.output })) },
        onError: { target: 'editing', actions: assign(({ event }) => ({ error: messageOf(event.error) })) },
      },
      after: { requestTimeout: { target: 'editing', actions: assign({ error: 'The request timed out: the support request was not sent' }) } },
    },
    sent: {
      on: { 'ticket.new': { target: 'editing', actions: assign({ ticket: null, error: null }) } },
    },
  },
})

export type SupportTicketView =
  | { phase: 'editing' | 'sending'; error: string | null }
  | { phase: 'sent'; ticket: SupportTicket }

export function selectSupportTicketView(snapshot: SnapshotFrom<typeof supportTicketMachine>): SupportTicketView {
  if (snapshot.matches('sent') && snapshot.context.ticket) return { phase: 'sent', ticket: snapshot.context.ticket }
  return { phase: snapshot.matches('sending') ? 'sending' : 'editing', error: snapshot.context.error }
}
