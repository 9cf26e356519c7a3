import { useSelector } from '@xstate/react'
import { useState, type FormEvent } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectSupportTicketView, type supportTicketMachine } from '../../../machines/supportTicket.machine'
import type { CreateTicketBody, SupportCategory } from '../../contracts/support'
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

interface SupportPrefill {
  category: string
  ref: string
  subject: string
  message: string
}

export type SupportTicketActorRef = ActorRefFrom<typeof supportTicketMachine>

/**
 * Contact support, prefilled from the query (category, ref, subject, message). The form's values are its own (a failed
 * send keeps them); sending is the support ticket flow's.
 */
export function SupportPage({ prefill, ticket }: { prefill: SupportPrefill; ticket: SupportTicketActorRef }) {
  useDocumentTitle('Support')
  const view = useSelector(ticket, selectSupportTicketView)
  const [category, setCategory] = useState(CATEGORIES.some((entry) => entry.value === prefill.category) ? prefill.category : 'Problem')
  const [ref, setRef] = useState(prefill.ref)
  const [subject, setSubject] = useState(prefill.subject)
  const [message, setMessage] = useState(prefill.message)
  const body = { category: category as SupportCategory, project_ref: ref.trim(), subject, message } satisfies CreateTicketBody
  const canSend = useSelector(ticket, (snapshot) => snapshot.can({ type: 'ticket.send', body }))

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
            <Button
              onClick={() => {
                setSubject('')
                setMessage('')
                ticket.send({ type: 'ticket.new' })
              }}
            >
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
            ticket.send({ type: 'ticket.send', body })
          }}
        >
          <div className="space-y-1.5">
            <label htmlFor="support-category" className="text-sm font-medium">
              Category
            </label>
            <select id="support-category" className={inputClass} value={category} onChange={(event) => setCategory(event.target.value)}>
              {CATEGORIES.map((entry) => (
                <option key={entry.value} value={entry.value}>
                  {entry.label}
                </option>
              ))}
            </select>
          </div>
          <div className="space-y-1.5">
            <label htmlFor="support-ref" className="text-sm font-medium">
              Project reference
            </label>
            <input id="support-ref" className={`${inputClass} font-mono`} value={ref} onChange={(event) => setRef(event.target.value)} />
          </div>
          <div className="space-y-1.5">
            <label htmlFor="support-subject" className="text-sm font-medium">
              Subject
            </label>
            <input id="support-subject" className={inputClass} value={subject} onChange={(event) => setSubject(event.target.value)} />
          </div>
          <div className="space-y-1.5">
            <label htmlFor="support-message" className="text-sm font-medium">
              Message
            </label>
            <textarea id="support-message" rows={6} className={inputClass} value={message} onChange={(event) => setMessage(event.target.value)} />
          </div>
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
