/**
 * Organization › Team: the members with their roles and the open invitations. An Owner or Administrator invites by
 * e-mail (the dialog shows the invitation's link once it is made), changes a member's role and removes a member
 * after a confirmation. The server decides (it reads the caller's role on every request); the machine only offers
 * what the caller's role allows, read from the list itself (the caller's own row).
 * Invariants: one change at a time; a failed invite keeps the dialog and what was typed; a failed role change or
 * removal shows the server's message (e.g. the last Owner's 409) and keeps the list as the server has it; a request
 * unanswered after requestTimeout is abandoned (its signal aborted) and reported like a failure.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { can, type Role } from '../src/contracts/common'
import { InviteMemberBody, invitationPath, type CreatedInvitation, type Member, type OrganizationTeam } from '../src/contracts/members'

export const ROLES: readonly Role[] = ['Owner', 'Administrator', 'Developer', 'Read-only']

export interface InviteDraft {
  email: string
  role: Role
}

const EMPTY_INVITE: InviteDraft = { email: '', role: 'Developer' }

interface Context {
  slug: string
  /** The signed-in person's account id: their row gives their role. */
  accountId: number
  team: OrganizationTeam
  loadError: string | null
  draft: InviteDraft
  inviteError: string | null
  created: CreatedInvitation | null
  /** The member a role change or removal is about, and the role asked for. */
  target: { accountId: number; role: Role | null } | null
  /** The last failed role change or removal, shown until the next change. */
  changeError: string | null
}

type MembersEvent =
  | { type: 'team.retry' }
  | { type: 'invite.open' }
  | { type: 'invite.edit'; draft: Partial<InviteDraft> }
  | { type: 'invite.submit' }
  | { type: 'invite.cancel' }
  | { type: 'invite.dismiss' }
  | { type: 'member.changeRole'; accountId: number; role: Role }
  | { type: 'member.remove'; accountId: number }
  | { type: 'remove.confirm' }
  | { type: 'remove.cancel' }

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

/** The caller's role in the organization, from the list (null before it loads or when not listed). */
function myRole(context: Pick<Context, 'team' | 'accountId'>): Role | null {
  return context.team.members.find((m) => m.account_id === context.accountId)?.role ?? null
}
const isManager = (role: Role | null) => role !== null && can(role, 'organizations:write')

/** Whether the caller may give `role` to (or take it from) `member`: the server's rules, so no refusal is offered. */
export function mayChange(context: Pick<Context, 'team' | 'accountId'>, member: Member, role: Role | null): boolean {
  const mine = myRole(context)
  if (!isManager(mine)) return false
  if ((member.role === 'Owner' || role === 'Owner') && mine !== 'Owner') return false
  // The last Owner keeps the role (the server refuses it too): an organization needs one.
  if (member.role === 'Owner' && role !== 'Owner' && context.team.members.filter((m) => m.role === 'Owner').length < 2) return false
  return true
}

export const membersMachine = setup({
  types: {
    input: {} as { slug: string; accountId: number },
    context: {} as Context,
    events: {} as MembersEvent,
    children: {} as { getTeam: 'getTeam'; inviteMember: 'inviteMember'; updateMember: 'updateMember'; removeMember: 'removeMember' },
  },
  actors: {
    getTeam: fromPromise<OrganizationTeam, { slug: string }>(async () => {
      throw new Error('getTeam not provided')
    }),
    inviteMember: fromPromise<CreatedInvitation, { slug: string; body: InviteMemberBody }>(async () => {
      throw new Error('inviteMember not provided')
    }),
    updateMember: fromPromise<Member, { slug: string; accountId: number; role: Role }>(async () => {
      throw new Error('updateMember not provided')
    }),
    removeMember: fromPromise<void, { slug: string; accountId: number }>(async () => {
      throw new Error('removeMember not provided')
    }),
  },
  actions: {
    storeLoadError: assign((_, params: { error: string }) => ({ loadError: params.error })),
    storeInviteError: assign((_, params: { error: string }) => ({ inviteError: params.error })),
    storeChangeError: assign((_, params: { error: string }) => ({ changeError: params.error, target: null })),
  },
  guards: {
    isManager: ({ context }) => isManager(myRole(context)),
    isDraftValid: ({ context }) => InviteMemberBody.safeParse(context.draft).success,
    mayChangeRole: ({ context, event }) => {
      if (event.type !== 'member.changeRole') return false
      const member = context.team.members.find((m) => m.account_id === event.accountId)
      return member !== undefined && member.role !== event.role && mayChange(context, member, event.role)
    },
    mayRemove: ({ context, event }) => {
      if (event.type !== 'member.remove') return false
      const member = context.team.members.find((m) => m.account_id === event.accountId)
      return member !== undefined && mayChange(context, member, null)
    },
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'members',
  context: ({ input }) => ({
    slug: input.slug,
    accountId: input.accountId,
    team: { members: [], invitations: [] },
    loadError: null,
    draft: EMPTY_INVITE,
    inviteError: null,
    created: null,
    target: null,
    changeError: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'getTeam',
        src: 'getTeam',
        input: ({ context }) => ({ slug: context.slug }),
        onDone: { target: 'idle', actions: assign(({ event }) => ({ team: event.output, loadError: null })) },
        onError: { target: 'failed', actions: { type: 'storeLoadError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load members') }) } },
      },
      after: { requestTimeout: { target: 'failed', actions: { type: 'storeLoadError', params: { error: TIMED_OUT } } } },
    },
    failed: {
      on: { 'team.retry': 'loading' },
    },
    idle: {
      on: {
        'invite.open': { guard: 'isManager', target: 'inviting', actions: assign({ draft: EMPTY_INVITE, inviteError: null, created: null, changeError: null }) },
        'member.changeRole': {
          guard: 'mayChangeRole',
          target: 'changingRole',
          actions: assign(({ event }) => ({ target: { accountId: event.accountId, role: event.role }, changeError: null })),
        },
        'member.remove': { guard: 'mayRemove', target: 'removing', actions: assign(({ event }) => ({ target: { accountId: event.accountId, role: null }, changeError: null })) },
      },
    },
    inviting: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'invite.edit': { actions: assign(({ context, event }) => ({ draft: { ...context.draft, ...event.draft } })) },
            'invite.submit': { guard: 'isDraftValid', target: 'submitting', actions: assign({ inviteError: null }) },
            'invite.cancel': { target: '#members.idle' },
          },
        },
        submitting: {
          invoke: {
            id: 'inviteMember',
            src: 'inviteMember',
            input: ({ context }) => {
              const parsed = InviteMemberBody.safeParse(context.draft)
              // The guard let only a valid draft in; the fallback keeps the types whole.
              return { slug: context.slug, body: parsed.success ? parsed.data : context.draft }
            },
            onDone: {
              target: 'invited',
              actions: assign(({ context, event }) => {
                const { token: _token, ...invitation } = event.output
                return { created: event.output, team: { ...context.team, invitations: [...context.team.invitations, invitation] } }
              }),
            },
            onError: { target: 'editing', actions: { type: 'storeInviteError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to invite') }) } },
          },
          after: { requestTimeout: { target: 'editing', actions: { type: 'storeInviteError', params: { error: TIMED_OUT } } } },
        },
        invited: {
          on: { 'invite.dismiss': { target: '#members.idle', actions: assign({ created: null, draft: EMPTY_INVITE }) } },
        },
      },
    },
    changingRole: {
      invoke: {
        id: 'updateMember',
        src: 'updateMember',
        input: ({ context }) => ({ slug: context.slug, accountId: context.target?.accountId ?? 0, role: context.target?.role ?? 'Developer' }),
        onDone: {
          target: 'idle',
          actions: assign(({ context, event }) => ({
            team: { ...context.team, members: context.team.members.map((m) => (m.account_id === event.output.account_id ? event.output : m)) },
            target: null,
          })),
        },
        onError: { target: 'idle', actions: { type: 'storeChangeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to change the role') }) } },
      },
      after: { requestTimeout: { target: 'idle', actions: { type: 'storeChangeError', params: { error: TIMED_OUT } } } },
    },
    removing: {
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            'remove.confirm': { target: 'submitting', actions: assign({ changeError: null }) },
            'remove.cancel': { target: '#members.idle', actions: assign({ target: null, changeError: null }) },
          },
        },
        submitting: {
          invoke: {
            id: 'removeMember',
            src: 'removeMember',
            input: ({ context }) => ({ slug: context.slug, accountId: context.target?.accountId ?? 0 }),
            onDone: {
              target: '#members.idle',
              actions: assign(({ context }) => ({
                team: { ...context.team, members: context.team.members.filter((m) => m.account_id !== context.target?.accountId) },
                target: null,
              })),
            },
            onError: { target: '#members.idle', actions: { type: 'storeChangeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to remove the member') }) } },
          },
          after: { requestTimeout: { target: '#members.idle', actions: { type: 'storeChangeError', params: { error: TIMED_OUT } } } },
        },
      },
    },
  },
})

type MembersSnapshot = SnapshotFrom<typeof membersMachine>

export interface MemberRow extends Member {
  isMe: boolean
  /** The roles the caller may give this member (empty: the role cannot be changed by the caller). */
  roleChoices: Role[]
  mayRemove: boolean
  /** A change of this member is under way. */
  busy: boolean
}

export type MembersView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | {
      phase: 'loaded'
      myRole: Role | null
      mayInvite: boolean
      members: MemberRow[]
      invitations: OrganizationTeam['invitations']
      changeError: string | null
      invite: { draft: InviteDraft; valid: boolean; submitting: boolean; error: string | null; link: string | null } | null
      remove: { member: Member; submitting: boolean } | null
    }

export function selectMembersView(snapshot: MembersSnapshot): MembersView {
  const { context } = snapshot
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed')) return { phase: 'failed', error: context.loadError ?? 'Failed to load members' }
  const busy = snapshot.matches('changingRole') || snapshot.matches({ removing: 'submitting' })
  const members = context.team.members.map((member) => {
    const mayEdit = mayChange(context, member, null)
    return {
      ...member,
      isMe: member.account_id === context.accountId,
      roleChoices: mayEdit ? ROLES.filter((role) => mayChange(context, member, role)) : [],
      mayRemove: mayEdit,
      busy: busy && context.target?.accountId === member.account_id,
    }
  })
  const removed = snapshot.matches('removing') ? context.team.members.find((m) => m.account_id === context.target?.accountId) : undefined
  return {
    phase: 'loaded',
    myRole: myRole(context),
    mayInvite: isManager(myRole(context)),
    members,
    invitations: context.team.invitations,
    changeError: context.changeError,
    invite: snapshot.matches('inviting')
      ? {
          draft: context.draft,
          valid: InviteMemberBody.safeParse(context.draft).success,
          submitting: snapshot.matches({ inviting: 'submitting' }),
          error: context.inviteError,
          link: context.created ? invitationPath(context.created.token) : null,
        }
      : null,
    remove: removed ? { member: removed, submitting: snapshot.matches({ removing: 'submitting' }) } : null,
  }
}

/** The roles an invitation may carry for this caller (only an Owner invites an Owner). */
export function inviteRoles(myRoleNow: Role | null): Role[] {
  return myRoleNow === 'Owner' ? [...ROLES] : ROLES.filter((role) => role !== 'Owner')
}
