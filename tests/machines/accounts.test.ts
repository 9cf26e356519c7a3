/** Unit tests of the accounts and members machines: signUp, profile, members, joinInvitation (fake timers, actors provided). */
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { joinInvitationMachine, selectJoinView, type JoinResult } from '../../machines/joinInvitation.machine'
import { mayChange, membersMachine, selectMembersView } from '../../machines/members.machine'
import { profileMachine, selectProfileView, usernameError } from '../../machines/profile.machine'
import type { SessionData } from '../../machines/session.machine'
import { selectSignUpView, signUpMachine } from '../../machines/signUp.machine'
import type { Profile } from '../../src/contracts/session'
import type { Role } from '../../src/contracts/common'
import { type EmailVerificationSent, type SignUpBody } from '../../src/contracts/accounts'
import { EMAIL_NOT_VERIFIED, type CreatedInvitation, type InviteMemberBody, type Member, type OrganizationTeam } from '../../src/contracts/members'
import { deferredActor, usePathClock } from '../../model-tests/fakes'

const PROFILE: Profile = { id: 7, username: 'newcomer', primary_email: 'newcomer@example.com' }
const SESSION: SessionData = { profile: PROFILE, permissions: [] }
const TOKEN = `12.${'a'.repeat(43)}`

usePathClock()

describe('signUp', () => {
  function start() {
    const signUp = deferredActor<SessionData, SignUpBody>('signUp')
    const signedUp = vi.fn()
    const actor = createActor(signUpMachine.provide({ actors: { signUp: signUp.logic }, actions: { signedUp: (_, params) => signedUp(params.session) } })).start()
    return { actor, runs: signUp.runs, signedUp, view: () => selectSignUpView(actor.getSnapshot()) }
  }

  it('sends the e-mail and password, then hands the new session to the app', async () => {
    const { actor, runs, signedUp, view } = start()
    actor.send({ type: 'signUp.submit', email: 'a@example.com', password: 'long enough' })
    expect(view()).toEqual({ submitting: true, error: null, done: false })
    expect(runs[0].input).toEqual({ email: 'a@example.com', password: 'long enough' })
    // The password is never kept in context.
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('long enough')
    runs[0].resolve(SESSION)
    await vi.advanceTimersByTimeAsync(0)
    expect(signedUp).toHaveBeenCalledWith(SESSION)
    expect(view().done).toBe(true)
    expect(actor.getSnapshot().can({ type: 'signUp.submit', email: '', password: '' })).toBe(false)
  })

  it("shows the server's refusal and may be sent again", async () => {
    const { actor, runs, view } = start()
    actor.send({ type: 'signUp.submit', email: 'owner@example.com', password: 'long enough' })
    runs[0].reject(new Error('An account with this e-mail address already exists. Sign in instead.'))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ submitting: false, error: 'An account with this e-mail address already exists. Sign in instead.', done: false })
    actor.send({ type: 'signUp.submit', email: 'other@example.com', password: 'long enough' })
    expect(view()).toEqual({ submitting: true, error: null, done: false })
  })

  it('gives up on an unanswered request after 15 s and aborts it', async () => {
    const { actor, runs, view } = start()
    actor.send({ type: 'signUp.submit', email: 'a@example.com', password: 'long enough' })
    await vi.advanceTimersByTimeAsync(14_999)
    expect(view().submitting).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    expect(view().error).toBe('The request timed out. Try again.')
    expect(runs[0].signal.aborted).toBe(true)
  })
})

describe('profile', () => {
  function start() {
    const update = deferredActor<Profile, { username: string }>('updateProfile')
    const saved = vi.fn()
    const actor = createActor(profileMachine.provide({ actors: { updateProfile: update.logic }, actions: { profileSaved: (_, params) => saved(params.profile) } }), {
      input: { profile: PROFILE },
    }).start()
    return { actor, runs: update.runs, saved, view: () => selectProfileView(actor.getSnapshot()) }
  }

  it('saves a changed, valid username (trimmed) and hands the profile to the app', async () => {
    const { actor, runs, saved, view } = start()
    expect(actor.getSnapshot().can({ type: 'username.save' })).toBe(false) // unchanged
    actor.send({ type: 'username.edit', username: ' renamed ' })
    actor.send({ type: 'username.save' })
    expect(view().saving).toBe(true)
    expect(runs[0].input).toEqual({ username: 'renamed' })
    runs[0].resolve({ ...PROFILE, username: 'renamed' })
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ saved: true, draft: 'renamed', draftError: null })
    expect(saved).toHaveBeenCalledWith({ ...PROFILE, username: 'renamed' })
  })

  it('refuses an invalid draft without a request, with the rule', () => {
    const { actor, runs, view } = start()
    actor.send({ type: 'username.edit', username: 'a b' })
    expect(view().draftError).toBe(usernameError('a b'))
    expect(view().draftError).toMatch(/3 to 40 characters/)
    actor.send({ type: 'username.save' })
    expect(runs).toHaveLength(0)
  })

  it('keeps the draft and shows the message when the save fails or times out', async () => {
    const { actor, runs, view } = start()
    actor.send({ type: 'username.edit', username: 'owner' })
    actor.send({ type: 'username.save' })
    runs[0].reject(new Error('This username is taken'))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ error: 'This username is taken', draft: 'owner', saving: false })
    actor.send({ type: 'username.save' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(view()).toMatchObject({ error: 'The request timed out. Try again.', draft: 'owner' })
    expect(runs[1].signal.aborted).toBe(true)
  })
})

const member = (account_id: number, role: Role, username = `user${account_id}`): Member => ({ account_id, username, primary_email: `${username}@example.com`, role })
const TEAM: OrganizationTeam = { members: [member(1, 'Owner'), member(2, 'Administrator'), member(3, 'Developer')], invitations: [] }

describe('members', () => {
  function start(accountId = 1) {
    const getTeam = deferredActor<OrganizationTeam, { slug: string }>('getTeam')
    const invite = deferredActor<CreatedInvitation, { slug: string; body: InviteMemberBody }>('inviteMember')
    const update = deferredActor<Member, { slug: string; accountId: number; role: Role }>('updateMember')
    const remove = deferredActor<void, { slug: string; accountId: number }>('removeMember')
    const [lists, invites, updates, removes] = [getTeam.runs, invite.runs, update.runs, remove.runs]
    const actor = createActor(
      membersMachine.provide({ actors: { getTeam: getTeam.logic, inviteMember: invite.logic, updateMember: update.logic, removeMember: remove.logic } }),
      { input: { slug: 'acme', accountId } },
    ).start()
    const view = () => selectMembersView(actor.getSnapshot())
    const loaded = () => {
      const v = view()
      if (v.phase !== 'loaded') throw new Error(`not loaded: ${v.phase}`)
      return v
    }
    return { actor, lists, invites, updates, removes, view, loaded }
  }
  async function startLoaded(accountId = 1, team = TEAM) {
    const started = start(accountId)
    started.lists[0].resolve(team)
    await vi.advanceTimersByTimeAsync(0)
    return started
  }

  it('loads the team; a failure or a 10 s silence offers a retry', async () => {
    const { actor, lists, view } = start()
    expect(view().phase).toBe('loading')
    lists[0].reject(new Error('Organization not found'))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'failed', error: 'Organization not found' })
    actor.send({ type: 'team.retry' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(view()).toEqual({ phase: 'failed', error: 'The request timed out' })
    expect(lists[1].signal.aborted).toBe(true)
  })

  it('an Owner may change every role and invite as Owner; an Administrator may not touch Owners', async () => {
    const owner = await startLoaded(1)
    // The sole Owner (the caller) keeps the role: no choices and no removal on that row.
    expect(owner.loaded().members.map((m) => m.roleChoices.length)).toEqual([0, 4, 4])
    expect(owner.loaded().members.map((m) => m.mayRemove)).toEqual([false, true, true])
    owner.actor.send({ type: 'member.remove', accountId: 1 })
    owner.actor.send({ type: 'member.changeRole', accountId: 1, role: 'Developer' })
    expect(owner.updates).toHaveLength(0)
    expect(owner.loaded().remove).toBeNull()
    // With a second Owner either may be changed.
    const twoOwners = { ...TEAM, members: TEAM.members.map((m) => (m.account_id === 3 ? { ...m, role: 'Owner' as const } : m)) }
    const both = await startLoaded(1, twoOwners)
    expect(both.loaded().members.map((m) => m.roleChoices.length)).toEqual([4, 4, 4])
    const admin = await startLoaded(2)
    const rows = admin.loaded().members
    expect(rows[0].roleChoices).toEqual([])
    expect(rows[0].mayRemove).toBe(false)
    expect(rows[2].roleChoices).toEqual(['Administrator', 'Developer', 'Read-only'])
    admin.actor.send({ type: 'member.changeRole', accountId: 1, role: 'Developer' })
    expect(admin.updates).toHaveLength(0)
    admin.actor.send({ type: 'member.changeRole', accountId: 3, role: 'Owner' })
    expect(admin.updates).toHaveLength(0)
    expect(mayChange({ team: TEAM, accountId: 2 }, TEAM.members[2], 'Read-only')).toBe(true)
  })

  it('a Developer is offered nothing: no invite, no role change, no removal', async () => {
    const { actor, loaded, updates, removes } = await startLoaded(3)
    expect(loaded().mayInvite).toBe(false)
    expect(loaded().members.every((m) => m.roleChoices.length === 0 && !m.mayRemove)).toBe(true)
    expect(actor.getSnapshot().can({ type: 'invite.open' })).toBe(false)
    actor.send({ type: 'member.changeRole', accountId: 1, role: 'Developer' })
    actor.send({ type: 'member.remove', accountId: 1 })
    expect(updates).toHaveLength(0)
    expect(removes).toHaveLength(0)
  })

  it('invites: a valid draft only; a failure keeps what was typed; success shows the link and lists the invitation', async () => {
    const { actor, invites, loaded } = await startLoaded()
    actor.send({ type: 'invite.open' })
    actor.send({ type: 'invite.edit', draft: { email: 'not-an-email' } })
    expect(loaded().invite?.valid).toBe(false)
    actor.send({ type: 'invite.submit' })
    expect(invites).toHaveLength(0)
    actor.send({ type: 'invite.edit', draft: { email: ' Dev@Example.com ', role: 'Read-only' } })
    actor.send({ type: 'invite.submit' })
    expect(invites[0].input).toEqual({ slug: 'acme', body: { email: 'dev@example.com', role: 'Read-only' } })
    invites[0].reject(new Error('This person is already a member of this organization'))
    await vi.advanceTimersByTimeAsync(0)
    expect(loaded().invite).toMatchObject({ error: 'This person is already a member of this organization', draft: { email: ' Dev@Example.com ', role: 'Read-only' } })
    actor.send({ type: 'invite.submit' })
    const created: CreatedInvitation = { id: 5, email: 'dev@example.com', role: 'Read-only', invited_at: '2026-11-24T00:00:00.000Z', expires_at: '2026-12-01T00:00:00.000Z', token: TOKEN }
    invites[1].resolve(created)
    await vi.advanceTimersByTimeAsync(0)
    expect(loaded().invite?.link).toBe(`/join?token=${encodeURIComponent(TOKEN)}`)
    expect(loaded().invitations).toEqual([{ id: 5, email: 'dev@example.com', role: 'Read-only', invited_at: created.invited_at, expires_at: created.expires_at }])
    actor.send({ type: 'invite.dismiss' })
    expect(loaded().invite).toBeNull()
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain(TOKEN)
  })

  it("changes a role; a refusal (the last Owner's 409) is shown and the list stays as the server has it", async () => {
    const { actor, updates, loaded } = await startLoaded(1, { members: [member(1, 'Owner'), member(2, 'Owner'), member(3, 'Developer')], invitations: [] })
    actor.send({ type: 'member.changeRole', accountId: 3, role: 'Read-only' })
    expect(loaded().members[2].busy).toBe(true)
    updates[0].resolve(member(3, 'Read-only'))
    await vi.advanceTimersByTimeAsync(0)
    expect(loaded().members[2].role).toBe('Read-only')
    // The other Owner was demoted meanwhile elsewhere: the server refuses, its message shows, the list stays.
    actor.send({ type: 'member.changeRole', accountId: 1, role: 'Developer' })
    updates[1].reject(new Error('An organization needs at least one Owner: make another member Owner first'))
    await vi.advanceTimersByTimeAsync(0)
    expect(loaded().changeError).toBe('An organization needs at least one Owner: make another member Owner first')
    expect(loaded().members[0].role).toBe('Owner')
    // The same role again is no change.
    actor.send({ type: 'member.changeRole', accountId: 3, role: 'Read-only' })
    expect(updates).toHaveLength(2)
  })

  it('removes a member after a confirmation; cancel and failure keep them', async () => {
    const { actor, removes, loaded } = await startLoaded()
    actor.send({ type: 'member.remove', accountId: 3 })
    expect(loaded().remove?.member.account_id).toBe(3)
    actor.send({ type: 'remove.cancel' })
    expect(loaded().remove).toBeNull()
    actor.send({ type: 'member.remove', accountId: 3 })
    actor.send({ type: 'remove.confirm' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(loaded().changeError).toBe('The request timed out')
    expect(removes[0].signal.aborted).toBe(true)
    expect(loaded().members).toHaveLength(3)
    actor.send({ type: 'member.remove', accountId: 3 })
    actor.send({ type: 'remove.confirm' })
    removes[1].resolve()
    await vi.advanceTimersByTimeAsync(0)
    expect(loaded().members.map((m) => m.account_id)).toEqual([1, 2])
  })
})

describe('joinInvitation', () => {
  function start(token = TOKEN, sendEmailVerification = deferredActor<EmailVerificationSent>('sendEmailVerification')) {
    const accept = deferredActor<JoinResult, { token: string }>('acceptInvitation')
    const joined = vi.fn()
    const actor = createActor(
      joinInvitationMachine.provide({ actors: { acceptInvitation: accept.logic, sendEmailVerification: sendEmailVerification.logic }, actions: { joined: (_, params) => joined(params.session) } }),
      { input: { token } },
    ).start()
    return { actor, runs: accept.runs, joined, view: () => selectJoinView(actor.getSnapshot()) }
  }

  it('says a malformed link is not valid, without a request', () => {
    const { actor, runs, view } = start('12.short')
    expect(view()).toEqual({ phase: 'invalid' })
    actor.send({ type: 'join.accept' })
    expect(runs).toHaveLength(0)
  })

  it('accepts, then hands the refreshed session to the app', async () => {
    const { actor, runs, joined, view } = start()
    expect(view()).toEqual({ phase: 'ready', accepting: false, error: null })
    actor.send({ type: 'join.accept' })
    expect(runs[0].input).toEqual({ token: TOKEN })
    const organization = { slug: 'acme', name: 'Acme', role: 'Developer' as const }
    runs[0].resolve({ organization, session: SESSION })
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'joined', organization })
    expect(joined).toHaveBeenCalledWith(SESSION)
  })

  it("shows a refusal and a time-out, and may try again", async () => {
    const { actor, runs, view } = start()
    actor.send({ type: 'join.accept' })
    runs[0].reject(new Error('This invitation has expired. Ask for a new one.'))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'ready', accepting: false, error: 'This invitation has expired. Ask for a new one.' })
    actor.send({ type: 'join.accept' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(view()).toEqual({ phase: 'ready', accepting: false, error: 'The request timed out. Try again.' })
    expect(runs[1].signal.aborted).toBe(true)
  })

  it('an unverified address is told so, may send itself a new link, and accept once it has opened it', async () => {
    const send = deferredActor<EmailVerificationSent>('sendEmailVerification')
    const sends = send.runs
    const { actor, runs, view } = start(TOKEN, send)
    const message = 'Verify your e-mail address before accepting this invitation: open the verification link sent to it, or send a new one.'
    actor.send({ type: 'join.accept' })
    // The API client's error keeps the answer's body, whose code tells this refusal from the others.
    runs[0].reject(Object.assign(new Error(message), { status: 403, body: { message, code: EMAIL_NOT_VERIFIED } }))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'unverified', sending: false, error: message, sentTo: null })
    actor.send({ type: 'verification.send' })
    expect(view()).toEqual({ phase: 'unverified', sending: true, error: message, sentTo: null })
    sends[0].resolve({ email: 'newcomer@example.com' })
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'unverified', sending: false, error: null, sentTo: 'newcomer@example.com' })
    actor.send({ type: 'verification.send' })
    sends[1].reject(new Error('A verification link was sent less than a minute ago. Try again in 30 seconds.'))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ phase: 'unverified', error: 'A verification link was sent less than a minute ago. Try again in 30 seconds.' })
    actor.send({ type: 'join.accept' })
    const organization = { slug: 'acme', name: 'Acme', role: 'Developer' as const }
    runs[1].resolve({ organization, session: SESSION })
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'joined', organization })
  })

  it('a 403 of another kind (the invitation is for another address) is a plain refusal, with no link to send', async () => {
    const { actor, runs, view } = start()
    actor.send({ type: 'join.accept' })
    const message = 'This invitation was sent to another e-mail address. Sign in with that address to accept it.'
    runs[0].reject(Object.assign(new Error(message), { status: 403, body: { message } }))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'ready', accepting: false, error: message })
    expect(actor.getSnapshot().can({ type: 'verification.send' })).toBe(false)
  })
})
