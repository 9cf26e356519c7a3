import { useSelector } from '@xstate/react'
import type { FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectSupportTicketView, selectTicketDraft, type TicketDraft, type supportTicketMachine } from '../../../machines/supportTicket.machine'
import type { SupportCategory } from '../../contracts/support'
import { Field } from '../shell/Field'
import { Button, Card, PageHeading, TextLink, inputClass } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'
import { href } from '../../href'

export const CATEGORIES: ReadonlyArray<{ value: SupportCategory; label: string }> = [
  { value: 'Problem', label: 'Issues with APIs / client libraries' },
  { value: 'Database_unresponsive', label: 'Database unresponsive' },
  { value: 'Performance', label: 'Performance issues' },
  { value: 'Billing', label: 'Billing' },
  { value: 'Login_issues', label: 'Login issues' },
]

export const categoryLabel = (value: string) => CATEGORIES.find((entry) => entry.value === value)?.label ?? value

export type SupportTicketActorRef = ActorRefFrom<typeof supportTicketMachine>

/**
 * Contact support. The form is the support ticket flow's draft (filled from the query that opened it: category, ref,
 * subject, message); a failed send keeps it.
 */
export function SupportPage({ ticket }: { ticket: SupportTicketActorRef }) {
  useDocumentTitle('Support')
  const view = useSelector(ticket, selectSupportTicketView)
  const draft = useSelector(ticket, selectTicketDraft)
  const canSend = useSelector(ticket, (snapshot) => snapshot.can({ type: 'ticket.send' }))
  const edit = (change: Partial<TicketDraft>) => ticket.send({ type: 'ticket.edit', draft: change })

  if (view.phase === 'sent') {
    return (
      <div className="mx-auto w-full max-w-2xl px-6 py-8">
        <PageHeading title="Contact support" />
        <Card className="space-y-3 p-6 text-sm">
          <p role="status" className="font-medium text-emerald-700 dark:text-emerald-400">
            Support request sent: {view.ticket.subject}
          </p>
          <p>We answer by e-mail. Your requests are listed on the support page.</p>
          <div className="flex flex-wrap items-center gap-4">
            <TextLink href={href.supportTickets()}>Your support requests</TextLink>
            <Button onClick={() => ticket.send({ type: 'ticket.new' })}>
              Write another request
            </Button>
          </div>
        </Card>
      </div>
    )
  }

  return (
    <div className="mx-auto w-full max-w-2xl px-6 py-8">
      <PageHeading title="Contact support" description="Tell us what is happening; we answer by e-mail." />
      <Card className="p-6">
        <form
          className="space-y-4"
          onSubmit={(event: FormEvent) => {
            event.preventDefault()
            ticket.send({ type: 'ticket.send' })
          }}
        >
          <Field id="support-category" label="Category">
            <select
              id="support-category"
              className={inputClass}
              value={draft.category}
              onChange={(event) => {
                const category = CATEGORIES.find((entry) => entry.value === event.target.value)
                if (category) edit({ category: category.value })
              }}
            >
              {CATEGORIES.map((entry) => (
                <option key={entry.value} value={entry.value}>
                  {entry.label}
                </option>
              ))}
            </select>
          </Field>
          <Field id="support-ref" label="Project reference">
            <input id="support-ref" className={`${inputClass} font-mono`} value={draft.ref} onChange={(event) => edit({ ref: event.target.value })} />
          </Field>
          <Field id="support-subject" label="Subject">
            <input id="support-subject" className={inputClass} value={draft.subject} onChange={(event) => edit({ subject: event.target.value })} />
          </Field>
          <Field id="support-message" label="Message">
            <textarea id="support-message" rows={6} className={inputClass} value={draft.message} onChange={(event) => edit({ message: event.target.value })} />
          </Field>
          {view.error ? (
            <p role="alert" className="text-sm text-red-700 dark:text-red-300">
              Failed to send the support request: {view.error}
            </p>
          ) : null}
          <div className="flex items-center justify-between gap-4">
            <p className="text-xs text-neutral-500">A subject and a message are needed; the project reference is optional.</p>
            <Button type="submit" variant="primary" disabled={!canSend}>
              {view.phase === 'sending' ? 'Sending…' : 'Send support request'}
            </Button>
          </div>
        </form>
      </Card>
    </div>
  )
}
