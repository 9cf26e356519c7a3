import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type SnapshotFrom } from 'xstate'
import { membersMachine } from '../machines/members.machine'
import type { Role } from '../src/contracts/common'
import type { CreatedInvitation, InviteMemberBody, Member, OrganizationTeam } from '../src/contracts/members'
import { TeamPage } from '../src/views/org/TeamPage'
import { coveringWalks, describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(membersMachine)

const REQUEST_TIMEOUT = 10_000
const SLUG = 'acme'
const ME = 1
const TEAM: OrganizationTeam = {
  members: [
    { account_id: 1, username: 'owner', primary_email: 'owner@example.com', role: 'Owner' },
    { account_id: 2, username: 'developer', primary_email: 'developer@example.com', role: 'Developer' },
  ],
  invitations: [],
}
const TOKEN = `7.${'b'.repeat(43)}`
const CREATED: CreatedInvitation = { id: 7, email: 'new@example.com', role: 'Developer', invited_at: '2026-11-24T10:00:00.000Z', expires_at: '2026-12-01T10:00:00.000Z', token: TOKEN }
const LAST_OWNER = 'An organization needs at least one Owner: make another member Owner first'

const contextOf = (snapshot: SnapshotFrom<typeof membersMachine>) => snapshot.context

const model = modelOf(membersMachine, {
  input: { slug: SLUG, accountId: ME },
  events: (snapshot) => {
    const context = contextOf(snapshot)
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.getTeam', output: TEAM },
        { type: 'xstate.error.actor.getTeam', error: apiError('Organization not found', 404) },
        { type: 'xstate.after.requestTimeout.members.loading' },
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'team.retry' }]
    if (snapshot.matches('idle')) {
      // One change per path from the list as loaded keeps the graph small.
      const untouched = JSON.stringify(context.team) === JSON.stringify(TEAM) && context.changeError === null
      return untouched
        ? [
            { type: 'invite.open' },
            ev({ type: 'member.changeRole', accountId: 2, role: 'Read-only' }),
            { type: 'member.remove', accountId: 2 },
          ]
        : []
    }
    if (snapshot.matches({ inviting: 'editing' })) {
      const { draft, inviteError } = context
      const edits = inviteError !== null ? [] : draft.email === '' ? ['not-an-email', 'new@example.com'] : draft.email === 'not-an-email' ? ['new@example.com'] : []
      return [...edits.map((email) => (ev({ type: 'invite.edit', draft: { email } }))), ev({ type: 'invite.submit' }), ev({ type: 'invite.cancel' })]
    }
    if (snapshot.matches({ inviting: 'submitting' })) {
      return [
        { type: 'xstate.done.actor.inviteMember', output: CREATED },
        { type: 'xstate.error.actor.inviteMember', error: apiError('This person is already a member of this organization', 409) },
        { type: 'xstate.after.requestTimeout.members.inviting.submitting' },
      ]
    }
    if (snapshot.matches({ inviting: 'invited' })) return [{ type: 'invite.dismiss' }]
    if (snapshot.matches('changingRole')) {
      return [
        { type: 'xstate.done.actor.updateMember', output: { ...TEAM.members[1], role: 'Read-only' } },
        { type: 'xstate.error.actor.updateMember', error: apiError(LAST_OWNER, 409) },
        { type: 'xstate.after.requestTimeout.members.changingRole' },
      ]
    }
    if (snapshot.matches({ removing: 'confirming' })) return [{ type: 'remove.confirm' }, { type: 'remove.cancel' }]
    if (snapshot.matches({ removing: 'submitting' })) {
      return [
        { type: 'xstate.done.actor.removeMember' },
        { type: 'xstate.error.actor.removeMember', error: apiError('Member not found', 404) },
        { type: 'xstate.after.requestTimeout.members.removing.submitting' },
      ]
    }
    return []
  },
  serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event, JSON.stringify(contextOf(snapshot))),
})
const paths = coveringWalks(model)
const runPath = usePathClock()

const dialog = (name: string) => screen.getByRole('dialog', { name })

describe('members model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(membersMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const getTeam = deferredActor<OrganizationTeam, { slug: string }>('getTeam')
      const invite = deferredActor<CreatedInvitation, { slug: string; body: InviteMemberBody }>('inviteMember')
      const update = deferredActor<Member, { slug: string; accountId: number; role: Role }>('updateMember')
      const remove = deferredActor<void, { slug: string; accountId: number }>('removeMember')
      const actor = runPath(
        createActor(membersMachine.provide({ actors: { getTeam: getTeam.logic, inviteMember: invite.logic, updateMember: update.logic, removeMember: remove.logic } }), {
          input: { slug: SLUG, accountId: ME },
        }).start(),
      )
      render(<TeamPage members={actor} slug={SLUG} />)

      const listShown = (snapshot: AnyMachineSnapshot) => {
        const { team, changeError } = contextOf(snapshot)
        const rows = within(screen.getByRole('table', { name: 'Members' })).getAllByRole('row').slice(1)
        expect(rows.map((row) => row.querySelector('td')?.textContent)).toEqual(team.members.map((m) => `${m.username}${m.account_id === ME ? '(you)' : ''}${m.primary_email}`))
        const owners = team.members.filter((m) => m.role === 'Owner').length
        for (const member of team.members) {
          const row = rows.find((r) => r.textContent?.includes(member.primary_email))!
          if (member.role === 'Owner' && owners === 1) {
            // The last Owner keeps the role: shown as text, with no Remove.
            expect(screen.queryByLabelText(`Role of ${member.username}`)).toBeNull()
            expect(row).toHaveTextContent('Owner')
            expect(within(row).queryByRole('button', { name: /^Remove/ })).toBeNull()
          } else {
            expect(screen.getByLabelText(`Role of ${member.username}`)).toHaveValue(member.role)
          }
        }
        if (changeError) expect(screen.getAllByRole('alert')[0]).toHaveTextContent(changeError)
        for (const invitation of team.invitations) expect(screen.getByText(invitation.email)).toBeInTheDocument()
      }

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Loading members…')
            expect(getTeam.pending.map((run) => run.input)).toEqual([{ slug: SLUG }])
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(alert).toHaveTextContent('Failed to load members')
            expect(alert).toHaveTextContent(contextOf(snapshot).loadError!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          idle: (snapshot) => {
            listShown(snapshot)
            expect(screen.queryByRole('dialog')).toBeNull()
            expect(screen.getByRole('button', { name: 'Invite member' })).toBeEnabled()
          },
          'inviting.editing': (snapshot) => {
            const { draft, inviteError } = contextOf(snapshot)
            const form = within(dialog('Invite a member'))
            expect(form.getByLabelText('Email address')).toHaveValue(draft.email)
            expect(form.getByLabelText('Role')).toHaveValue(draft.role)
            expect(form.getByRole('button', { name: 'Send invitation' })).toHaveProperty('disabled', draft.email !== 'new@example.com')
            if (inviteError) expect(form.getByRole('alert')).toHaveTextContent(inviteError)
            else expect(form.queryByRole('alert')).toBeNull()
          },
          'inviting.submitting': () => {
            const form = within(dialog('Invite a member'))
            expect(form.getByRole('button', { name: 'Inviting…' })).toBeDisabled()
            expect(invite.pending.map((run) => run.input)).toEqual([{ slug: SLUG, body: { email: 'new@example.com', role: 'Developer' } }])
          },
          'inviting.invited': () => {
            const form = within(dialog('Invite a member'))
            expect(form.getByLabelText('Invitation link')).toHaveValue(`${window.location.origin}/join?token=${encodeURIComponent(TOKEN)}`)
          },
          changingRole: (snapshot) => {
            listShown(snapshot)
            expect(screen.getByLabelText('Role of developer')).toBeDisabled()
            expect(update.pending.map((run) => run.input)).toEqual([{ slug: SLUG, accountId: 2, role: 'Read-only' }])
          },
          'removing.confirming': () => {
            const confirm = within(dialog('Remove member'))
            expect(confirm.getByText('developer')).toBeInTheDocument()
            expect(confirm.getByRole('button', { name: 'Remove member' })).toBeEnabled()
            expect(remove.pending).toHaveLength(0)
          },
          'removing.submitting': () => {
            const confirm = within(dialog('Remove member'))
            expect(confirm.getByRole('button', { name: 'Removing…' })).toBeDisabled()
            expect(remove.pending.map((run) => run.input)).toEqual([{ slug: SLUG, accountId: 2 }])
          },
        },
        events: {
          'xstate.done.actor.getTeam': async () => getTeam.resolve(TEAM),
          'xstate.error.actor.getTeam': async (step) => getTeam.reject(errorOf(step)),
          'xstate.after.requestTimeout.members.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'team.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
          'invite.open': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Invite member' }))
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'invite.edit': async (step) => {
            const { email } = step.event.draft
            fireEvent.change(within(dialog('Invite a member')).getByLabelText('Email address'), { target: { value: email } })
          },
          'invite.submit': async () => {
            fireEvent.click(within(dialog('Invite a member')).getByRole('button', { name: 'Send invitation' }))
          },
          'invite.cancel': async () => {
            fireEvent.click(within(dialog('Invite a member')).getByRole('button', { name: 'Cancel' }))
          },
          'xstate.done.actor.inviteMember': async () => invite.resolve(CREATED),
          'xstate.error.actor.inviteMember': async (step) => invite.reject(errorOf(step)),
          'xstate.after.requestTimeout.members.inviting.submitting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'invite.dismiss': async () => {
            fireEvent.click(within(dialog('Invite a member')).getByRole('button', { name: 'Done' }))
          },
          'member.changeRole': async () => {
            fireEvent.change(screen.getByLabelText('Role of developer'), { target: { value: 'Read-only' } })
          },
          'xstate.done.actor.updateMember': async (step) => update.resolve(outputOf<Member>(step)),
          'xstate.error.actor.updateMember': async (step) => update.reject(errorOf(step)),
          'xstate.after.requestTimeout.members.changingRole': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'member.remove': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Remove developer' }))
            await act(() => vi.advanceTimersByTimeAsync(0))
          },
          'remove.confirm': async () => {
            fireEvent.click(within(dialog('Remove member')).getByRole('button', { name: 'Remove member' }))
          },
          'remove.cancel': async () => {
            fireEvent.click(within(dialog('Remove member')).getByRole('button', { name: 'Cancel' }))
          },
          'xstate.done.actor.removeMember': async () => remove.resolve(undefined),
          'xstate.error.actor.removeMember': async (step) => remove.reject(errorOf(step)),
          'xstate.after.requestTimeout.members.removing.submitting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
        },
      })
    })
  }
})
