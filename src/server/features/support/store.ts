/** The SQL of support tickets: a person's tickets, and the count of those kept in the last day under the person's lock. */
import type { SupportCategory } from '../../../contracts/support'
import type { Queryable } from '../../db'

export interface TicketRow {
  id: string
  category: SupportCategory
  project_ref: string | null
  subject: string
  message: string
  created_at: unknown
}

/** Class key of the transaction-scoped advisory lock that serializes one person's ticket count. */
const TICKET_COUNT_LOCK = 0x737570 // 'sup'

/** Takes, until the end of the transaction, the lock on the account's ticket count. */
export async function lockTicketCount(tx: Queryable, accountId: number): Promise<void> {
  await tx.query('select pg_advisory_xact_lock($1::integer, $2::integer)', [TICKET_COUNT_LOCK, accountId])
}

/** How many tickets the account kept after `since`. */
export async function countTicketsSince(tx: Queryable, accountId: number, since: Date): Promise<number> {
  const { rows } = await tx.query<{ n: number }>('select count(*)::int as n from support_tickets where account_id = $1 and created_at > $2', [
    accountId,
    since.toISOString(),
  ])
  return rows[0]?.n ?? 0
}

export async function insertTicket(
  tx: Queryable,
  t: { id: string; accountId: number; category: SupportCategory; projectRef: string | null; subject: string; message: string; now: Date },
): Promise<TicketRow> {
  const { rows } = await tx.query<TicketRow>(
    `insert into support_tickets (id, account_id, category, project_ref, subject, message, created_at)
     values ($1, $2, $3, $4, $5, $6, $7) returning id, category, project_ref, subject, message, created_at`,
    [t.id, t.accountId, t.category, t.projectRef, t.subject, t.message, t.now.toISOString()],
  )
  return rows[0]
}

/** The account's latest tickets, newest first (at most 200). */
export async function listTickets(db: Queryable, accountId: number): Promise<TicketRow[]> {
  const { rows } = await db.query<TicketRow>(
    `select id, category, project_ref, subject, message, created_at from support_tickets
     where account_id = $1 order by created_at desc, id limit 200`,
    [accountId],
  )
  return rows
}
