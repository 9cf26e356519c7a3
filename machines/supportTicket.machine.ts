/**
 * Contact support (/support/new): the form as typed is the draft ('ticket.edit'), first filled from the link that
 * opened it (input: category, project, subject, message); sending it is this flow. A sent ticket is kept by the
 * platform and listed on /support.
 * Invariants: one send at a time; a failed or timed-out send keeps everything typed and says why; after a send the
 * ticket is shown and another can be written (same category and project, a new subject and message).
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { CreateTicketBody, SupportCategory, type SupportTicket } from '../src/contracts/support'

/** The form as typed; the category as its select holds it. */
export interface TicketDraft {
  category: SupportCategory
  ref: string
  subject: string
  message: string
}

/** What a link may fill the form with (a category the form does not offer is left at its default). */
export interface TicketPrefill {
  category?: string
  ref?: string
  subject?: string
  message?: string
}

/** The request the draft makes: the project reference without the spaces around it. */
export const ticketBodyOf = (draft: TicketDraft): CreateTicketBody => ({
  category: draft.category,
  project_ref: draft.ref.trim(),
  subject: draft.subject,
  message: draft.message,
})

function draftOf(prefill: TicketPrefill = {}): TicketDraft {
  const category = SupportCategory.safeParse(prefill.category)
  return { category: category.success ? category.data : 'Problem', ref: prefill.ref ?? '', subject: prefill.subject ?? '', message: prefill.message ?? '' }
}

interface Context {
  draft: TicketDraft
  ticket: SupportTicket | null
  error: string | null
}

type SupportTicketEvent = { type: 'ticket.edit'; draft: Partial<TicketDraft> } | { type: 'ticket.send' } | { type: 'ticket.new' }

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Failed to send the support request')

export const supportTicketMachine = setup({
  types: {
    context: {} as Context,
    events: {} as SupportTicketEvent,
    input: {} as { prefill?: TicketPrefill },
    children: {} as { sendTicket: 'sendTicket' },
  },
  actors: {
    sendTicket: fromPromise<SupportTicket, CreateTicketBody>(async () => {
      throw new Error('sendTicket not provided')
    }),
  },
  guards: {
    /** The contract's rules (category, subject and message given), so the server would accept it. */
    isComplete: ({ context }) => CreateTicketBody.safeParse(ticketBodyOf(context.draft)).success,
  },
  actions: {
    editDraft: assign(({ context }, params: { draft: Partial<TicketDraft> }) => ({ draft: { ...context.draft, ...params.draft } })),
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'supportTicket',
  context: ({ input }) => ({ draft: draftOf(input.prefill), ticket: null, error: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'ticket.edit': { actions: { type: 'editDraft', params: ({ event }) => ({ draft: event.draft }) } },
        'ticket.send': {
          guard: 'isComplete',
          target: 'sending',
          actions: assign({ error: null }),
        },
      },
    },
    sending: {
      invoke: {
        id: 'sendTicket',
        src: 'sendTicket',
        input: ({ context }) => ticketBodyOf(context.draft),
        onDone: { target: 'sent', actions: assign(({ event }) => ({ ticket: event.output })) },
        onError: { target: 'editing', actions: assign(({ event }) => ({ error: messageOf(event.error) })) },
      },
      after: { requestTimeout: { target: 'editing', actions: assign({ error: 'The request timed out: the support request was not sent' }) } },
    },
    sent: {
      on: {
        'ticket.new': {
          target: 'editing',
          actions: assign(({ context }) => ({ draft: { ...context.draft, subject: '', message: '' }, ticket: null, error: null })),
        },
      },
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

export const selectTicketDraft = (snapshot: SnapshotFrom<typeof supportTicketMachine>) => snapshot.context.draft
