import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectAuthEmailsView, type authEmailsMachine } from '../../../../machines/authEmails.machine'
import { useAppLogic } from '../../shell/logic'
import { Button, Card, ErrorPanel, Loading, PageHeading, cx } from '../../shell/ui'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'
import type { MailboxMessage } from '../../../contracts/auth'
import { whenLabel } from './AuthMachinePage'

export type AuthEmailsActorRef = ActorRefFrom<typeof authEmailsMachine>

const HEADING = {
  title: 'Emails',
  description:
    'The local mailbox: every e-mail the project’s auth service sent (sign-up confirmations, magic links, recoveries, invitations) and every text or WhatsApp message with a phone code, newest first. The last 200 are kept.',
}

/** How a message went out, in words: a text or WhatsApp message is never called an e-mail. */
const CHANNEL_LABEL: Record<MailboxMessage['channel'], string> = { email: 'E-mail', sms: 'Text message', whatsapp: 'WhatsApp message' }
const channelLabel = (m: MailboxMessage) => CHANNEL_LABEL[m.channel]

/** What a text message's code is for (its subject is the same for all of them). */
const SMS_PURPOSE: Record<string, string> = {
  sms_otp: 'Sign-in code',
  phone_confirmation: 'Phone confirmation code',
  phone_change: 'Phone change code',
}
const titleOf = (m: MailboxMessage) => (m.channel === 'email' ? m.subject : `${channelLabel(m)}: ${SMS_PURPOSE[m.kind] ?? 'code'}`)

/** /project/{ref}/auth/emails */
export function AuthEmailsPage() {
  const logic = useAppLogic()
  return (
    <ProjectMachinePage
      machine={logic.authEmails}
      heading={HEADING}
      loadingLabel="Loading e-mails…"
      input={(ref) => ({ ref })}
      render={(actor) => <AuthEmails actor={actor} />}
    />
  )
}

export function AuthEmails({ actor }: { actor: AuthEmailsActorRef }) {
  const view = useSelector(actor, selectAuthEmailsView)
  const canRefresh = useSelector(actor, (s) => s.can({ type: 'emails.refresh' }))
  return (
    <div className={PAGE_CLASS}>
      <PageHeading
        {...HEADING}
        actions={
          <Button disabled={!canRefresh} onClick={() => actor.send({ type: 'emails.refresh' })}>
            Refresh
          </Button>
        }
      />
      {view.phase === 'loading' ? <Loading label="Loading e-mails…" /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to load e-mails" message={view.error} /> : null}
      {view.phase === 'loaded' && view.messages.length === 0 ? (
        <p className="rounded-lg border border-dashed border-neutral-300 p-8 text-center text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-300">
          No messages yet. Sign-ups, magic links, password recoveries, invitations and phone codes land here.
        </p>
      ) : null}
      {view.phase === 'loaded' && view.messages.length > 0 ? (
        <div className="grid gap-4 md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <Card>
            <ul aria-label="Messages" className="divide-y divide-neutral-100 dark:divide-neutral-800">
              {view.messages.map((m) => (
                <li key={m.id}>
                  <button
                    type="button"
                    aria-current={view.open?.id === m.id ? 'true' : undefined}
                    className={cx('block w-full px-4 py-3 text-left text-sm hover:bg-neutral-50 dark:hover:bg-neutral-800', view.open?.id === m.id && 'bg-emerald-50 dark:bg-emerald-950/40')}
                    onClick={() => actor.send({ type: 'email.open', id: m.id })}
                  >
                    <span className="block font-medium">{titleOf(m)}</span>
                    <span className="block text-neutral-600 dark:text-neutral-300">
                      {channelLabel(m)} to {m.recipient} · {whenLabel(m.sent_at)}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </Card>
          {view.open ? (
            <Card className="p-5">
              <article aria-label={titleOf(view.open)} className="space-y-3 text-sm">
                <h2 className="text-lg font-semibold">{titleOf(view.open)}</h2>
                <p className="text-neutral-600 dark:text-neutral-300">
                  {channelLabel(view.open)} to {view.open.recipient} · {whenLabel(view.open.sent_at)}
                </p>
                <pre className="whitespace-pre-wrap break-words font-sans">{view.open.body}</pre>
                {view.open.link ? (
                  <p>
                    <a href={view.open.link} className="break-all font-medium text-emerald-700 underline underline-offset-4 dark:text-emerald-400">
                      Open the link in this e-mail
                    </a>
                  </p>
                ) : null}
                <Button onClick={() => actor.send({ type: 'email.close' })}>Close</Button>
              </article>
            </Card>
          ) : (
            <p className="text-sm text-neutral-600 dark:text-neutral-300">Choose a message to read it.</p>
          )}
        </div>
      ) : null}
    </div>
  )
}
