import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectJoinView, type joinInvitationMachine } from '../../../machines/joinInvitation.machine'
import { Button, Card, PageHeading, TextLink, InlineError } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'
import { href } from '../../href'

export type JoinInvitationActorRef = ActorRefFrom<typeof joinInvitationMachine>

/** /join?token=…: accepting an invitation to an organization. */
export function JoinPage({ join }: { join: JoinInvitationActorRef }) {
  useDocumentTitle('Join organization')
  const view = useSelector(join, selectJoinView)
  return (
    <div className="mx-auto w-full max-w-xl px-6 py-8">
      <PageHeading title="Join organization" />
      <Card className="space-y-4 p-5">
        {view.phase === 'invalid' ? (
          <p role="alert" className="text-sm">
            This invitation link is not valid. Ask for a new one, and open it as it was sent.
          </p>
        ) : null}
        {view.phase === 'ready' ? (
          <>
            <p className="text-sm">You have been invited to an organization. Accept to become a member with the role the invitation gives.</p>
            {view.error ? (
              <InlineError>{view.error}</InlineError>
            ) : null}
            <Button variant="primary" onClick={() => join.send({ type: 'join.accept' })} disabled={view.accepting}>
              {view.accepting ? 'Accepting…' : 'Accept invitation'}
            </Button>
          </>
        ) : null}
        {view.phase === 'unverified' ? (
          <>
            <p className="text-sm">Your e-mail address is not verified yet. Open the verification link sent to it, then accept the invitation.</p>
            {view.error ? <InlineError>{view.error}</InlineError> : null}
            {view.sentTo ? (
              <p role="status" className="text-sm">
                A new verification link was sent to <span className="font-semibold">{view.sentTo}</span>.
              </p>
            ) : null}
            <div className="flex flex-wrap gap-3">
              <Button onClick={() => join.send({ type: 'verification.send' })} disabled={view.sending}>
                {view.sending ? 'Sending…' : 'Send a new verification link'}
              </Button>
              <Button variant="primary" onClick={() => join.send({ type: 'join.accept' })} disabled={view.sending}>
                Accept invitation
              </Button>
            </div>
          </>
        ) : null}
        {view.phase === 'joined' ? (
          <>
            <p role="status" className="text-sm">
              You joined <span className="font-semibold">{view.organization.name}</span> as {view.organization.role}.
            </p>
            <p className="flex gap-4 text-sm">
              <TextLink href={href.projects()}>Go to projects</TextLink>
              <TextLink href={href.org(view.organization.slug, 'team')}>See the team</TextLink>
            </p>
          </>
        ) : null}
      </Card>
      <p className="mt-6 text-sm">
        <TextLink href={href.projects()}>Back to projects</TextLink>
      </p>
    </div>
  )
}
