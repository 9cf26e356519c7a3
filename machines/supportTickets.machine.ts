/**
 * /support: the support requests the person sent (GET /platform/support/tickets), newest first.
 * Invariants: a request unanswered after requestTimeout is abandoned and reported; a failed load offers a retry.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { SupportTicket } from '../src/contracts/support'

interface Context {
  tickets: SupportTicket[]
  error: string | null
}

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Failed to retrieve support requests')

export const supportTicketsMachine = setup({
  types: {
    context: {} as Context,
    events: {} as { type: 'tickets.retry' },
    children: {} as { listTickets: 'listTickets' },
  },
  actors: {
    listTickets: fromPromise<SupportTicket[]>(async () => {
      throw new Error('listTickets not provided')
    }),
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'supportTickets',
  context: { tickets: [], error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'listTickets',
        src: 'listTickets',
        onDone: { target: 'loaded', actions: assign(({ event }) => ({ tickets: event.output, error: null })) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ error: messageOf(event.error) })) },
      },
      after: { requestTimeout: { target: 'failed', actions: assign({ error: 'The request timed out' }) } },
    },
    failed: { on: { 'tickets.retry': 'loading' } },
    loaded: {},
  },
})

export type SupportTicketsView = { phase: 'loading' } | { phase: 'failed'; error: string } | { phase: 'loaded'; tickets: SupportTicket[] }

export function selectSupportTicketsView(snapshot: SnapshotFrom<typeof supportTicketsMachine>): SupportTicketsView {
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed')) return { phase: 'failed', error: snapshot.context.error ?? 'Failed to retrieve support requests' }
  return { phase: 'loaded', tickets: snapshot.context.tickets }
}
