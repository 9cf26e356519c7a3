import { endpoint } from '../endpoint'
import { CreateTicketBody, SupportTicket, SupportTicketList } from '../support'

// Support tickets (src/contracts/support.ts).
export const createSupportTicket = /* @__PURE__ */ endpoint('POST', 'platform', '/support/tickets', { body: CreateTicketBody, response: SupportTicket })
export const listSupportTickets = /* @__PURE__ */ endpoint('GET', 'platform', '/support/tickets', { response: SupportTicketList })
