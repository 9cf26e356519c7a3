/** The live actors of support tickets: send one, list the person's own. */
import { fromPromise } from 'xstate'
import { supportTicketMachine } from '../../../machines/supportTicket.machine'
import { supportTicketsMachine } from '../../../machines/supportTickets.machine'
import type { CreateTicketBody } from '../../contracts/support'
import * as calls from '../calls/support'

type Signal = { signal: AbortSignal }

export const liveSupportTicketMachine = supportTicketMachine.provide({
  actors: {
    sendTicket: fromPromise(({ input, signal }: Signal & { input: CreateTicketBody }) => calls.createSupportTicket(input, { signal })),
  },
})

export const liveSupportTicketsMachine = supportTicketsMachine.provide({
  actors: {
    listTickets: fromPromise(({ signal }: Signal) => calls.listSupportTickets({ signal })),
  },
})
