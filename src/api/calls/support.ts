import type { CreateTicketBody } from '../../contracts/support'
import * as endpoints from '../../contracts/endpoints/support'
import { call, type CallOptions } from '../http'

// Support tickets.
export const createSupportTicket = (body: CreateTicketBody, options?: CallOptions) => call(endpoints.createSupportTicket, {}, { ...options, body })
export const listSupportTickets = (options?: CallOptions) => call(endpoints.listSupportTickets, {}, options)
