/**
 * The SQL of an organization's members and invitations. The role checks run in one transaction with the rows they
 * read locked (lockOwners, lockMemberRole), so two changes at once cannot both pass the last-Owner rule.
 */
import type { Role } from '../../../contracts/common'
import type { Member } from '../../../contracts/members'
import type { Queryable } from '../../db'

export interface InvitationRow {
  id: number
  email: string
  role: Role
  created_at: Date | string
  expires_at: Date | string
}

/** The members, Owners first, then by username. */
export async function listMembers(db: Queryable, organizationId: number): Promise<Member[]> {
  const { rows } = await db.query<Member>(
    `select a.id as account_id, a.username, a.primary_email, m.role from members m join accounts a on a.id = m.account_id
     where m.organization_id = $1
     order by array_position(array['Owner','Administrator','Developer','Read-only'], m.role), a.username`,
    [organizationId],
  )
  return rows
}

export async function findMember(tx: Queryable, organizationId: number, accountId: number): Promise<Member | undefined> {
  const { rows } = await tx.query<Member>(
    `select a.id as account_id, a.username, a.primary_email, m.role from members m join accounts a on a.id = m.account_id
     where m.organization_id = $1 and m.account_id = $2`,
    [organizationId, accountId],
  )
  return rows[0]
}

/** Locks the organization's Owners' rows (the last-Owner rule reads them) and returns how many there are. */
export async function lockOwners(tx: Queryable, organizationId: number): Promise<number> {
  const { rows } = await tx.query<{ account_id: number }>(
    `select account_id from members where organization_id = $1 and role = 'Owner' for update`,
    [organizationId],
  )
  return rows.length
}

/** The member's role with the member's row locked; undefined when the account is not a member. */
export async function lockMemberRole(tx: Queryable, organizationId: number, accountId: number): Promise<Role | undefined> {
  const { rows } = await tx.query<{ role: Role }>('select role from members where organization_id = $1 and account_id = $2 for update', [
    organizationId,
    accountId,
  ])
  return rows[0]?.role
}

export async function setMemberRole(tx: Queryable, organizationId: number, accountId: number, role: Role): Promise<void> {
  await tx.query('update members set role = $3 where organization_id = $1 and account_id = $2', [organizationId, accountId, role])
}

export async function deleteMember(tx: Queryable, organizationId: number, accountId: number): Promise<void> {
  await tx.query('delete from members where organization_id = $1 and account_id = $2', [organizationId, accountId])
}

/** Whether an account with this primary e-mail is already a member. */
export async function isMemberByEmail(db: Queryable, organizationId: number, email: string): Promise<boolean> {
  const { rows } = await db.query(
    'select 1 from members m join accounts a on a.id = m.account_id where m.organization_id = $1 and a.primary_email = $2',
    [organizationId, email],
  )
  return rows.length > 0
}

/** The invitations neither accepted nor expired at `now`, oldest first. */
export async function listOpenInvitations(db: Queryable, organizationId: number, now: Date): Promise<InvitationRow[]> {
  const { rows } = await db.query<InvitationRow>(
    `select id, email, role, created_at, expires_at from invitations
     where organization_id = $1 and accepted_at is null and expires_at > $2 order by id`,
    [organizationId, now.toISOString()],
  )
  return rows
}

export async function insertInvitation(
  db: Queryable,
  i: { organizationId: number; email: string; role: Role; secretHash: string; invitedBy: number; createdAt: Date; expiresAt: Date },
): Promise<InvitationRow> {
  const { rows } = await db.query<InvitationRow>(
    `insert into invitations (organization_id, email, role, secret_hash, invited_by, created_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7) returning id, email, role, created_at, expires_at`,
    [i.organizationId, i.email, i.role, i.secretHash, i.invitedBy, i.createdAt.toISOString(), i.expiresAt.toISOString()],
  )
  return rows[0]
}

export interface InvitationToAcceptRow {
  id: number
  organization_id: number
  email: string
  role: Role
  secret_hash: string
  expires_at: Date | string
  accepted_at: Date | string | null
  slug: string
  name: string
}

/** The invitation with its organization's slug and name, the invitation's row locked. */
export async function lockInvitation(tx: Queryable, id: number): Promise<InvitationToAcceptRow | undefined> {
  const { rows } = await tx.query<InvitationToAcceptRow>(
    `select i.id, i.organization_id, i.email, i.role, i.secret_hash, i.expires_at, i.accepted_at, o.slug, o.name
     from invitations i join organizations o on o.id = i.organization_id where i.id = $1 for update of i`,
    [id],
  )
  return rows[0]
}

export async function isEmailVerified(tx: Queryable, accountId: number): Promise<boolean> {
  const { rows } = await tx.query('select 1 from accounts where id = $1 and email_verified_at is not null', [accountId])
  return rows.length > 0
}

/** Adds the member; false when the account already is one. */
export async function insertMember(tx: Queryable, organizationId: number, accountId: number, role: Role): Promise<boolean> {
  const { rows } = await tx.query<{ account_id: number }>(
    'insert into members (organization_id, account_id, role) values ($1, $2, $3) on conflict do nothing returning account_id',
    [organizationId, accountId, role],
  )
  return rows.length > 0
}

export async function markInvitationAccepted(tx: Queryable, id: number, acceptedBy: number, now: Date): Promise<void> {
  await tx.query('update invitations set accepted_at = $2, accepted_by = $3 where id = $1', [id, now.toISOString(), acceptedBy])
}
