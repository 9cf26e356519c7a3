/**
 * The SQL of accounts: sign-up (the account, its personal organization with the person as Owner), the profile's
 * username, the names already taken, and the e-mail verification links.
 */
import type { Queryable } from '../../db'

export interface AccountRow {
  id: number
  username: string
  primary_email: string
}

/** Whether an account already has this primary e-mail. */
export async function emailTaken(db: Queryable, email: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from accounts where primary_email = $1', [email])
  return rows.length > 0
}

/** Usernames starting with the pattern's prefix (`base%`). */
export async function takenUsernames(tx: Queryable, like: string): Promise<string[]> {
  const { rows } = await tx.query<{ name: string }>('select username as name from accounts where username like $1', [like])
  return rows.map((r) => r.name)
}

/** Organization slugs starting with the pattern's prefix (`base%`). */
export async function takenSlugs(tx: Queryable, like: string): Promise<string[]> {
  const { rows } = await tx.query<{ name: string }>('select slug as name from organizations where slug like $1', [like])
  return rows.map((r) => r.name)
}

/** The new account; a taken e-mail throws the unique index's violation (the caller answers 409). */
export async function insertAccount(
  tx: Queryable,
  account: { username: string; email: string; passwordHash: string; now: string },
): Promise<AccountRow> {
  const { rows } = await tx.query<AccountRow>(
    `insert into accounts (username, primary_email, password_hash, created_at) values ($1, $2, $3, $4)
     returning id, username, primary_email`,
    [account.username, account.email, account.passwordHash, account.now],
  )
  return rows[0]
}

/** A new account's own free organization, the account its Owner. */
export async function insertPersonalOrganization(
  tx: Queryable,
  org: { slug: string; name: string; ownerId: number; now: string },
): Promise<void> {
  const { rows } = await tx.query<{ id: number }>(
    `insert into organizations (slug, name, plan_id, created_at) values ($1, $2, 'free', $3) returning id`,
    [org.slug, org.name, org.now],
  )
  await tx.query(`insert into members (organization_id, account_id, role) values ($1, $2, 'Owner')`, [rows[0].id, org.ownerId])
}

/** Sets the username; a taken one throws the unique index's violation (the caller answers 409). */
export async function updateUsername(db: Queryable, accountId: number, username: string): Promise<AccountRow> {
  const { rows } = await db.query<AccountRow>(
    'update accounts set username = $2 where id = $1 returning id, username, primary_email',
    [accountId, username],
  )
  return rows[0]
}

/** Stores the account's one verification link (replacing any earlier one). */
export async function upsertVerification(
  tx: Queryable,
  v: { accountId: number; email: string; secretHash: string; createdAt: string; expiresAt: string },
): Promise<void> {
  await tx.query(
    `insert into email_verifications (account_id, email, secret_hash, created_at, expires_at) values ($1, $2, $3, $4, $5)
     on conflict (account_id) do update set email = excluded.email, secret_hash = excluded.secret_hash,
       created_at = excluded.created_at, expires_at = excluded.expires_at`,
    [v.accountId, v.email, v.secretHash, v.createdAt, v.expiresAt],
  )
}

export interface PendingVerificationRow {
  secret_hash: string
  email: string
  expires_at: Date | string
  primary_email: string
}

/** The account's pending verification with its current primary e-mail, the verification's row locked. */
export async function lockVerification(tx: Queryable, accountId: number): Promise<PendingVerificationRow | undefined> {
  const { rows } = await tx.query<PendingVerificationRow>(
    `select v.secret_hash, v.email, v.expires_at, a.primary_email from email_verifications v
     join accounts a on a.id = v.account_id where v.account_id = $1 for update of v`,
    [accountId],
  )
  return rows[0]
}

/** Marks the address verified (once) and drops the used link. */
export async function markVerified(tx: Queryable, accountId: number, now: string): Promise<void> {
  await tx.query('update accounts set email_verified_at = $2 where id = $1 and email_verified_at is null', [accountId, now])
  await tx.query('delete from email_verifications where account_id = $1', [accountId])
}

export interface VerificationStateRow {
  email_verified_at: Date | string | null
  sent_at: Date | string | null
}

/** Whether the account is verified and when its last link was sent, the account's row locked. */
export async function lockVerificationState(tx: Queryable, accountId: number): Promise<VerificationStateRow | undefined> {
  const { rows } = await tx.query<VerificationStateRow>(
    `select a.email_verified_at, v.created_at as sent_at from accounts a
     left join email_verifications v on v.account_id = a.id where a.id = $1 for update of a`,
    [accountId],
  )
  return rows[0]
}
