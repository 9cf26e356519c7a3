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
import { memberOrganization } from '../organizations/access'
import {
  deleteMember,
  findMember,
  insertInvitation,
  insertMember,
  isEmailVerified,
  isMemberByEmail,
  listMembers,
  listOpenInvitations,
  lockInvitation,
  lockMemberRole,
  lockOwners,
  markInvitationAccepted,
  setMemberRole,
  type InvitationRow,
} from './store'

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

const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  invited_at: iso(row.created_at),
  expires_at: iso(row.expires_at),
})

type Outcome<T> = { ok: true; value: T } | { ok: false; status: 403 | 404 | 409 | 410; message: string; code?: string }
const refuse = (status: 403 | 404 | 409 | 410, message: string, code?: string) => ({ ok: false as const, status, message, code })

export function memberRoutes({ db, clock }: Deps) {
  const app = new Hono<AppEnv>()
  const organization = memberOrganization(db)
  const cache = cacheFor(db)

  app.on(...at(endpoints.getTeam), organization, async (c) => {
    const org = c.var.organization
    const members = await listMembers(db, org.id)
    const invitations = await listOpenInvitations(db, org.id, clock.now())
    return c.json({ members, invitations: invitations.map(toInvitation) })
  })

  app.on(...at(endpoints.inviteMember), validate('json', endpoints.inviteMember.body), organization, async (c) => {
    const org = c.var.organization
    const { email, role } = c.req.valid('json')
    if (!mayManage(org.role)) return errorJson(c, 403, MESSAGES.notManager)
    if (role === 'Owner' && org.role !== 'Owner') return errorJson(c, 403, MESSAGES.ownerOnly)
    if (await isMemberByEmail(db, org.id, email)) return errorJson(c, 409, MESSAGES.alreadyMember)
    const secret = randomToken()
    const now = clock.now()
    const invitation = await insertInvitation(db, {
      organizationId: org.id,
      email,
      role,
      secretHash: sha256(secret),
      invitedBy: c.get('account').id,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    })
    c.header('Cache-Control', 'no-store') // the only answer that carries the invitation's secret
    return c.json({ ...toInvitation(invitation), token: `${invitation.id}.${secret}` }, 201)
  })

  app.on(...at(endpoints.updateMember), validate('param', MemberParam), validate('json', endpoints.updateMember.body), organization, async (c) => {
    const org = c.var.organization
    const { account_id } = c.req.valid('param')
    const { role } = c.req.valid('json')
    if (!mayManage(org.role)) return errorJson(c, 403, MESSAGES.notManager)
    const result = await db.transaction(async (tx): Promise<Outcome<Member>> => {
      const owners = await lockOwners(tx, org.id)
      const current = await lockMemberRole(tx, org.id, account_id)
      if (!current) return refuse(404, MESSAGES.memberNotFound)
      if ((current === 'Owner' || role === 'Owner') && org.role !== 'Owner') return refuse(403, MESSAGES.ownerOnly)
      if (current === 'Owner' && role !== 'Owner' && owners <= 1) return refuse(409, MESSAGES.lastOwner)
      await setMemberRole(tx, org.id, account_id, role)
      return { ok: true, value: (await findMember(tx, org.id, account_id))! }
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
      const current = await lockMemberRole(tx, org.id, account_id)
      if (!current) return refuse(404, MESSAGES.memberNotFound)
      if (current === 'Owner' && org.role !== 'Owner') return refuse(403, MESSAGES.ownerOnly)
      if (current === 'Owner' && owners <= 1) return refuse(409, MESSAGES.lastOwner)
      await deleteMember(tx, org.id, account_id)
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
      const row = await lockInvitation(tx, Number(idText))
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
      if (!(await isEmailVerified(tx, me.id))) return refuse(403, MESSAGES.unverified, EMAIL_NOT_VERIFIED)
      if (!(await insertMember(tx, row.organization_id, me.id, row.role))) return refuse(409, MESSAGES.alreadyMember)
      await markInvitationAccepted(tx, row.id, me.id, now)
      return { ok: true, value: { slug: row.slug, name: row.name, role: row.role } }
    })
    if (!result.ok) return errorJson(c, result.status, result.message, result.code)
    cache?.invalidateMemberships(me.id)
    return c.json(result.value)
  })

  return app
}
