/**
 * Support tickets (contracts: src/contracts/support.ts):
 *   POST /platform/support/tickets   keep a ticket from /support/new (201)
 *   GET  /platform/support/tickets   the person's own tickets, newest first
 * A ticket naming a project must name one of the person's projects (404 otherwise, as for any project route).
 */
import { randomUUID } from 'node:crypto'
import { Hono } from 'hono'
import * as endpoints from '../../../contracts/endpoints'
import type { SupportCategory, SupportTicket } from '../../../contracts/support'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { iso } from '../../core/rows'
import { findMemberProject } from '../projects/access'

interface TicketRow {
  id: string
  category: SupportCategory
  project_ref: string | null
  subject: string
  message: string
  created_at: unknown
}

const toTicket = (row: TicketRow): SupportTicket => ({ ...row, created_at: iso(row.created_at) })

/** A person keeps at most this many tickets a day: a form cannot fill the store. */
export const DAILY_TICKET_LIMIT = 50

/** Class key of the transaction-scoped advisory lock that serializes one person's ticket count. */
const TICKET_COUNT_LOCK = 0x737570 // 'sup'

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
      await tx.query('select pg_advisory_xact_lock($1::integer, $2::integer)', [TICKET_COUNT_LOCK, account.id])
      const { rows: recent } = await tx.query<{ n: number }>(
        'select count(*)::int as n from support_tickets where account_id = $1 and created_at > $2',
        [account.id, new Date(now.getTime() - 86_400_000).toISOString()],
      )
      if ((recent[0]?.n ?? 0) >= DAILY_TICKET_LIMIT) return undefined
      const { rows } = await tx.query<TicketRow>(
        `insert into support_tickets (id, account_id, category, project_ref, subject, message, created_at)
         values ($1, $2, $3, $4, $5, $6, $7) returning id, category, project_ref, subject, message, created_at`,
        [randomUUID(), account.id, body.category, ref, body.subject, body.message, now.toISOString()],
      )
      return rows[0]
    })
    if (!created) return errorJson(c, 429, 'Too many support requests today: please wait for our answer to the earlier ones')
    return c.json(toTicket(created) satisfies SupportTicket, 201)
  })

  app.on(...at(endpoints.listSupportTickets), async (c) => {
    const { rows } = await db.query<TicketRow>(
      `select id, category, project_ref, subject, message, created_at from support_tickets
       where account_id = $1 order by created_at desc, id limit 200`,
      [c.get('account').id],
    )
    return c.json(rows.map(toTicket) satisfies SupportTicket[])
  })

  return app
}
