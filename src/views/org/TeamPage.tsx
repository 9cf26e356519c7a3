import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import { inviteRoles, selectMembersView, type MemberRow, type membersMachine } from '../../../machines/members.machine'
import { Role } from '../../contracts/common'
import { Modal } from '../shell/Modal'
import { Button, Card, ErrorPanel, Loading, PageHeading, TextLink, cx, inputClass } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'
import { href } from '../../href'

export type MembersActorRef = ActorRefFrom<typeof membersMachine>

const alertClass =
  'rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-700 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300'

/** /org/{slug}/team: the members with their roles; Owners and Administrators invite, change roles and remove. */
export function TeamPage({ members, slug }: { members: MembersActorRef; slug: string }) {
  useDocumentTitle('Team')
  const view = useSelector(members, selectMembersView)
  const canInvite = useSelector(members, (snapshot) => snapshot.can({ type: 'invite.open' }))
  return (
    <div className="mx-auto w-full max-w-4xl px-6 py-8">
      <PageHeading
        title="Team"
        description="The members of this organization and their roles."
        actions={
          view.phase === 'loaded' && view.mayInvite ? (
            <Button variant="primary" onClick={() => members.send({ type: 'invite.open' })} disabled={!canInvite}>
              Invite member
            </Button>
          ) : undefined
        }
      />
      {view.phase === 'loading' ? <Loading label="Loading members…" /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to load members" message={view.error} onRetry={() => members.send({ type: 'team.retry' })} /> : null}
      {view.phase === 'loaded' ? (
        <div className="space-y-6">
          {view.mayInvite ? null : (
            <p className="text-sm text-neutral-600 dark:text-neutral-400">
              You are {view.myRole === 'Read-only' ? 'a Read-only member' : `a ${view.myRole ?? 'member'}`}: only an Owner or Administrator can invite members or change roles.
            </p>
          )}
          {view.changeError ? (
            <p role="alert" className={alertClass}>
              {view.changeError}
            </p>
          ) : null}
          <Card>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Members</caption>
              <thead className="border-b border-neutral-200 text-xs uppercase text-neutral-500 dark:border-neutral-800">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">Member</th>
                  <th scope="col" className="px-4 py-2 font-medium">Role</th>
                  <th scope="col" className="px-4 py-2 font-medium"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {view.members.map((member) => (
                  <MemberLine key={member.account_id} member={member} members={members} />
                ))}
              </tbody>
            </table>
          </Card>
          {view.invitations.length > 0 ? (
            <section aria-labelledby="invitations-heading" className="space-y-2">
              <h2 id="invitations-heading" className="font-semibold">
                Pending invitations
              </h2>
              <ul className="divide-y divide-neutral-200 rounded-lg border border-neutral-200 text-sm dark:divide-neutral-800 dark:border-neutral-800">
                {view.invitations.map((invitation) => (
                  <li key={invitation.id} className="flex justify-between px-4 py-2">
                    <span>{invitation.email}</span>
                    <span className="text-neutral-500">
                      {invitation.role} · expires {new Date(invitation.expires_at).toLocaleDateString()}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <p className="text-sm">
            <TextLink href={href.org(slug, 'general')}>Organization settings</TextLink>
          </p>
        </div>
      ) : null}
      <InviteDialog members={members} />
      <RemoveDialog members={members} />
    </div>
  )
}

function MemberLine({ member, members }: { member: MemberRow; members: MembersActorRef }) {
  const label = `Role of ${member.username}`
  return (
    <tr className="border-b border-neutral-100 last:border-0 dark:border-neutral-800">
      <td className="px-4 py-2">
        <div className="font-medium">
          {member.username}
          {member.isMe ? <span className="ml-2 text-xs text-neutral-500">(you)</span> : null}
        </div>
        <div className="text-xs text-neutral-500">{member.primary_email}</div>
      </td>
      <td className="px-4 py-2">
        {member.roleChoices.length > 0 ? (
          <select
            aria-label={label}
            className={cx(inputClass, 'w-auto py-1')}
            value={member.role}
            disabled={member.busy}
            onChange={(event) => {
              const role = Role.safeParse(event.target.value)
              if (role.success) members.send({ type: 'member.changeRole', accountId: member.account_id, role: role.data })
            }}
          >
            {member.roleChoices.map((role) => (
              <option key={role} value={role}>
                {role}
              </option>
            ))}
          </select>
        ) : (
          <span>{member.role}</span>
        )}
      </td>
      <td className="px-4 py-2 text-right">
        {member.mayRemove ? (
          <Button variant="ghost" onClick={() => members.send({ type: 'member.remove', accountId: member.account_id })} disabled={member.busy}>
            Remove<span className="sr-only"> {member.username}</span>
          </Button>
        ) : null}
      </td>
    </tr>
  )
}

function InviteDialog({ members }: { members: MembersActorRef }) {
  const view = useSelector(members, selectMembersView)
  const canSubmit = useSelector(members, (snapshot) => snapshot.can({ type: 'invite.submit' }))
  const invite = view.phase === 'loaded' ? view.invite : null
  const roles = inviteRoles(view.phase === 'loaded' ? view.myRole : null)
  const close = () => members.send(invite?.link ? { type: 'invite.dismiss' } : { type: 'invite.cancel' })
  function submit(event: FormEvent) {
    event.preventDefault()
    members.send({ type: 'invite.submit' })
  }
  return (
    <Modal open={invite !== null} onClose={close} title="Invite a member">
      {invite?.link ? (
        <div className="space-y-4">
          <p className="text-sm">
            Send this link to <span className="font-semibold">{invite.draft.email}</span>. Signed in with that e-mail address, they accept it within 7 days.
          </p>
          <label htmlFor="invite-link" className="text-sm font-medium">
            Invitation link
          </label>
          <input id="invite-link" readOnly className={cx(inputClass, 'font-mono')} value={new URL(invite.link, window.location.origin).toString()} onFocus={(event) => event.target.select()} />
          <div className="flex justify-end">
            <Button variant="primary" onClick={() => members.send({ type: 'invite.dismiss' })}>
              Done
            </Button>
          </div>
        </div>
      ) : invite ? (
        <form noValidate onSubmit={submit} className="space-y-4" aria-label="Invite a member">
          <div className="space-y-1.5">
            <label htmlFor="invite-email" className="text-sm font-medium">
              Email address
            </label>
            <input
              id="invite-email"
              type="email"
              className={inputClass}
              value={invite.draft.email}
              onChange={(event) => members.send({ type: 'invite.edit', draft: { email: event.target.value } })}
            />
          </div>
          <div className="space-y-1.5">
            <label htmlFor="invite-role" className="text-sm font-medium">
              Role
            </label>
            <select
              id="invite-role"
              className={inputClass}
              value={invite.draft.role}
              onChange={(event) => {
                const role = Role.safeParse(event.target.value)
                if (role.success) members.send({ type: 'invite.edit', draft: { role: role.data } })
              }}
            >
              {roles.map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </select>
          </div>
          {invite.error ? (
            <p role="alert" className={alertClass}>
              {invite.error}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button type="button" onClick={() => members.send({ type: 'invite.cancel' })} disabled={invite.submitting}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={!canSubmit}>
              {invite.submitting ? 'Inviting…' : 'Send invitation'}
            </Button>
          </div>
        </form>
      ) : null}
    </Modal>
  )
}

function RemoveDialog({ members }: { members: MembersActorRef }) {
  const view = useSelector(members, selectMembersView)
  const remove = view.phase === 'loaded' ? view.remove : null
  return (
    <Modal open={remove !== null} onClose={() => members.send({ type: 'remove.cancel' })} title="Remove member">
      {remove ? (
        <div className="space-y-4">
          <p className="text-sm">
            Remove <span className="font-semibold">{remove.member.username}</span> ({remove.member.primary_email}) from this organization? They lose access to
            its projects at once.
          </p>
          <div className="flex justify-end gap-2">
            <Button onClick={() => members.send({ type: 'remove.cancel' })} disabled={remove.submitting}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => members.send({ type: 'remove.confirm' })} disabled={remove.submitting}>
              {remove.submitting ? 'Removing…' : 'Remove member'}
            </Button>
          </div>
        </div>
      ) : null}
    </Modal>
  )
}
