/**
 * Support tickets (contracts: src/contracts/support.ts):
 *   POST /platform/support/tickets   keep a ticket from /support/new (201)
 *   GET  /platform/support/tickets   the person's own tickets, newest first
 * A ticket naming a project must name one of the person's projects (404 otherwise, as for any project route).
 */
import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import * as endpoints from '../../../contracts/endpoints'
import type { SupportTicket } from '../../../contracts/support'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { iso } from '../../core/rows'
import { findMemberProject } from '../projects/access'
import { countTicketsSince, insertTicket, listTickets, lockTicketCount, type TicketRow } from './store'

const toTicket = (row: TicketRow): SupportTicket => ({ ...row, created_at: iso(row.created_at) })

/** A person keeps at most this many tickets a day: a form cannot fill the store. */
export const DAILY_TICKET_LIMIT = 50

export function supportRoutes({ db, clock }: Deps) {
  const app = new Hono<AppEnv>()

  app.on(...at(endpoints.createSupportTicket), validate('json', endpoints.createSupportTicket.body), async (c) => {
    const body = c.req.valid('json')
    const account = c.get('account')
    const ref = body.project_ref ? body.project_ref : null
    if (ref !== null && !(await findMemberProject(db, account.id, ref))) return errorJson(c, 404, 'Project not found')
    const now = clock.now()
    // Counted and inserted in one transaction under the person's lock: parallel tickets wait for each other, so the
    // count each one reads includes those committed before it.
    const created = await db.transaction(async (tx) => {
      await lockTicketCount(tx, account.id)
      if ((await countTicketsSince(tx, account.id, new Date(now.getTime() - 86_400_000))) >= DAILY_TICKET_LIMIT) return undefined
      return insertTicket(tx, {
        id: randomUUID(),
        accountId: account.id,
        category: body.category,
        projectRef: ref,
        subject: body.subject,
        message: body.message,
        now,
      })
    })
    if (!created) return errorJson(c, 429, 'Too many support requests today: please wait for our answer to the earlier ones')
    return c.json(toTicket(created) satisfies SupportTicket, 201)
  })

  app.on(...at(endpoints.listSupportTickets), async (c) => {
    return c.json((await listTickets(db, c.get('account').id)).map(toTicket) satisfies SupportTicket[])
  })

  return app
}
