/**
 * An organization's members (/platform/organizations/:slug/members) and invitations.
 * Rules, read from the caller's role in the store on every request (memberOrganization), never from the browser:
 *  - any member lists the members and the open invitations;
 *  - an Owner or Administrator invites, changes roles and removes members; Developer and Read-only get 403;
 *  - only an Owner gives the Owner role, or changes or removes an Owner;
 *  - the last Owner can be neither demoted nor removed (409): the check and the change run in one transaction
 *    holding the Owners' rows, so two demotions at once cannot both pass.
 * An invitation's link carries `<id>.<secret>`; the secret is kept as a SHA-256 hash and compared in constant time.
 * It is accepted once, within INVITATION_TTL_MS, by the signed-in person whose primary e-mail it was sent to, once
 * that address is verified (verification.ts).
 * A change of membership reaches the caches through the members trigger (migration 008), so the new role applies
 * from the next request.
 */
import { timingSafeEqual } from 'node:crypto'
import { Hono } from 'hono'
import * as z from 'zod'
import type { Role } from '../../../contracts/common'
import { OrgSlug } from '../../../contracts/common'
import * as endpoints from '../../../contracts/endpoints'
import { EMAIL_NOT_VERIFIED, type Invitation, type Member } from '../../../contracts/members'
import { cacheFor } from '../../core/cache'
import type { Deps } from '../../core/deps'
import { can } from '../../core/permissions'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { iso } from '../../core/rows'
import { randomToken, sha256 } from '../../core/secrets'
import type { Queryable } from '../../db'
import { memberOrganization } from '../organizations/access'

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000

export const MESSAGES = {
  notManager: 'Only an Owner or Administrator can manage the members of this organization',
  ownerOnly: 'Only an Owner can give, change or remove the Owner role',
  lastOwner: 'An organization needs at least one Owner: make another member Owner first',
  memberNotFound: 'Member not found',
  alreadyMember: 'This person is already a member of this organization',
  invalidLink: 'This invitation link is not valid',
  used: 'This invitation has already been used',
  expired: 'This invitation has expired. Ask for a new one.',
  otherEmail: 'This invitation was sent to another e-mail address. Sign in with that address to accept it.',
  unverified: 'Verify your e-mail address before accepting this invitation: open the verification link sent to it, or send a new one.',
} as const

const MemberParam = z.object({
  slug: OrgSlug,
  account_id: z.coerce.number().int('Member id must be a positive number').positive('Member id must be a positive number').max(2_147_483_647, 'Member id must be a positive number'),
})

const mayManage = (role: Role) => can(role, 'organizations:write')

interface InvitationRow {
  id: number
  email: string
  role: Role
  created_at: Date | string
  expires_at: Date | string
}

const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  invited_at: iso(row.created_at),
  expires_at: iso(row.expires_at),
})

async function listMembers(db: Queryable, organizationId: number): Promise<Member[]> {
  const { rows } = await db.query<Member>(
    `select a.id as account_id, a.username, a.primary_email, m.role from members m join accounts a on a.id = m.account_id
     where m.organization_id = $1
     order by array_position(array['Owner','Administrator','Developer','Read-only'], m.role), a.username`,
    [organizationId],
  )
  return rows
}

/** Locks the organization's Owners' rows (the last-Owner rule reads them) and returns how many there are. */
async function lockOwners(tx: Queryable, organizationId: number): Promise<number> {
  const { rows } = await tx.query(`select account_id from members where organization_id = $1 and role = 'Owner' for update`, [organizationId])
  return rows.length
}

type Outcome<T> = { ok: true; value: T } | { ok: false; status: 403 | 404 | 409 | 410; message: string; code?: string }
const refuse = (status: 403 | 404 | 409 | 410, message: string, code?: string) => ({ ok: false as const, status, message, code })

export function memberRoutes({ db, clock }: Deps) {
  const app = new Hono<AppEnv>()
  const organization = memberOrganization(db)
  const cache = cacheFor(db)

  app.on(...at(endpoints.getTeam), organization, async (c) => {
    const org = c.var.organization
    const members = await listMembers(db, org.id)
    const { rows } = await db.query<InvitationRow>(
      `select id, email, role, created_at, expires_at from invitations
       where organization_id = $1 and accepted_at is null and expires_at > $2 order by id`,
      [org.id, clock.now().toISOString()],
    )
    return c.json({ members, invitations: rows.map(toInvitation) })
  })

  app.on(...at(endpoints.inviteMember), validate('json', endpoints.inviteMember.body), organization, async (c) => {
    const org = c.var.organization
    const { email, role } = c.req.valid('json')
    if (!mayManage(org.role)) return errorJson(c, 403, MESSAGES.notManager)
    if (role === 'Owner' && org.role !== 'Owner') return errorJson(c, 403, MESSAGES.ownerOnly)
    const existing = await db.query(
      'select 1 from members m join accounts a on a.id = m.account_id where m.organization_id = $1 and a.primary_email = $2',
      [org.id, email],
    )
    if (existing.rows.length) return errorJson(c, 409, MESSAGES.alreadyMember)
    const secret = randomToken()
    const now = clock.now()
    const { rows } = await db.query<InvitationRow>(
      `insert into invitations (organization_id, email, role, secret_hash, invited_by, created_at, expires_at)
       values ($1, $2, $3, $4, $5, $6, $7) returning id, email, role, created_at, expires_at`,
      [org.id, email, role, sha256(secret), c.get('account').id, now.toISOString(), new Date(now.getTime() + INVITATION_TTL_MS).toISOString()],
    )
    c.header('Cache-Control', 'no-store') // the only answer that carries the invitation's secret
    return c.json({ ...toInvitation(rows[0]), token: `${rows[0].id}.${secret}` }, 201)
  })

  app.on(...at(endpoints.updateMember), validate('param', MemberParam), validate('json', endpoints.updateMember.body), organization, async (c) => {
    const org = c.var.organization
    const { account_id } = c.req.valid('param')
    const { role } = c.req.valid('json')
    if (!mayManage(org.role)) return errorJson(c, 403, MESSAGES.notManager)
    const result = await db.transaction(async (tx): Promise<Outcome<Member>> => {
      const owners = await lockOwners(tx, org.id)
      const { rows } = await tx.query<{ role: Role }>('select role from members where organization_id = $1 and account_id = $2 for update', [org.id, account_id])
      const current = rows[0]
      if (!current) return refuse(404, MESSAGES.memberNotFound)
      if ((current.role === 'Owner' || role === 'Owner') && org.role !== 'Owner') return refuse(403, MESSAGES.ownerOnly)
      if (current.role === 'Owner' && role !== 'Owner' && owners <= 1) return refuse(409, MESSAGES.lastOwner)
      await tx.query('update members set role = $3 where organization_id = $1 and account_id = $2', [org.id, account_id, role])
      const member = await tx.query<Member>(
        `select a.id as account_id, a.username, a.primary_email, m.role from members m join accounts a on a.id = m.account_id
         where m.organization_id = $1 and m.account_id = $2`,
        [org.id, account_id],
      )
      return { ok: true, value: member.rows[0] }
    })
    if (!result.ok) return errorJson(c, result.status, result.message)
    cache?.invalidateMemberships(account_id)
    return c.json(result.value)
  })

  app.on(...at(endpoints.removeMember), validate('param', MemberParam), organization, async (c) => {
    const org = c.var.organization
    const { account_id } = c.req.valid('param')
    if (!mayManage(org.role)) return errorJson(c, 403, MESSAGES.notManager)
    const result = await db.transaction(async (tx): Promise<Outcome<null>> => {
      const owners = await lockOwners(tx, org.id)
      const { rows } = await tx.query<{ role: Role }>('select role from members where organization_id = $1 and account_id = $2 for update', [org.id, account_id])
      const current = rows[0]
      if (!current) return refuse(404, MESSAGES.memberNotFound)
      if (current.role === 'Owner' && org.role !== 'Owner') return refuse(403, MESSAGES.ownerOnly)
      if (current.role === 'Owner' && owners <= 1) return refuse(409, MESSAGES.lastOwner)
      await tx.query('delete from members where organization_id = $1 and account_id = $2', [org.id, account_id])
      return { ok: true, value: null }
    })
    if (!result.ok) return errorJson(c, result.status, result.message)
    cache?.invalidateMemberships(account_id)
    return c.body(null, 204)
  })

  app.on(...at(endpoints.acceptInvitation), validate('json', endpoints.acceptInvitation.body), async (c) => {
    const { token } = c.req.valid('json')
    const [idText, secret] = token.split('.')
    const me = c.get('account')
    const now = clock.now()
    const result = await db.transaction(async (tx): Promise<Outcome<{ slug: string; name: string; role: Role }>> => {
      const { rows } = await tx.query<{
        id: number
        organization_id: number
        email: string
        role: Role
        secret_hash: string
        expires_at: Date | string
        accepted_at: Date | string | null
        slug: string
        name: string
      }>(
        `select i.id, i.organization_id, i.email, i.role, i.secret_hash, i.expires_at, i.accepted_at, o.slug, o.name
         from invitations i join organizations o on o.id = i.organization_id where i.id = $1 for update of i`,
        [Number(idText)],
      )
      const row = rows[0]
      // Compared in constant time: the hash of the secret presented against the stored one (both 64 hex digits).
      const presented = Buffer.from(sha256(secret), 'utf8')
      const stored = Buffer.from(row?.secret_hash ?? sha256(''), 'utf8')
      const matches = presented.length === stored.length && timingSafeEqual(presented, stored)
      if (!row || !matches) return refuse(404, MESSAGES.invalidLink)
      if (row.accepted_at !== null) return refuse(410, MESSAGES.used)
      if (new Date(row.expires_at).getTime() <= now.getTime()) return refuse(410, MESSAGES.expired)
      if (row.email !== me.primary_email.toLowerCase()) return refuse(403, MESSAGES.otherEmail)
      // The address must be proven, not only typed at sign-up: whoever signs up with the invited address first
      // would otherwise join.
      const { rows: verified } = await tx.query('select 1 from accounts where id = $1 and email_verified_at is not null', [me.id])
      if (!verified.length) return refuse(403, MESSAGES.unverified, EMAIL_NOT_VERIFIED)
      const inserted = await tx.query(
        'insert into members (organization_id, account_id, role) values ($1, $2, $3) on conflict do nothing returning account_id',
        [row.organization_id, me.id, row.role],
      )
      if (!inserted.rows.length) return refuse(409, MESSAGES.alreadyMember)
      await tx.query('update invitations set accepted_at = $2, accepted_by = $3 where id = $1', [row.id, now.toISOString(), me.id])
      return { ok: true, value: { slug: row.slug, name: row.name, role: row.role } }
    })
    if (!result.ok) return errorJson(c, result.status, result.message, result.code)
    cache?.invalidateMemberships(me.id)
    return c.json(result.value)
  })

  return app
}
