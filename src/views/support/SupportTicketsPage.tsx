import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectSupportTicketsView, type supportTicketsMachine } from '../../../machines/supportTickets.machine'
import { Card, ErrorPanel, Loading, PageHeading, TextLink } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'
import { categoryLabel } from './SupportPage'

export type SupportTicketsActorRef = ActorRefFrom<typeof supportTicketsMachine>

/** /support: the support requests the person sent, newest first. */
export function SupportTicketsPage({ tickets }: { tickets: SupportTicketsActorRef }) {
  useDocumentTitle('Support')
  const view = useSelector(tickets, selectSupportTicketsView)
  return (
    <div className="mx-auto w-full max-w-3xl px-6 py-8">
      <PageHeading title="Support requests" description="What you sent to support from the dashboard." actions={<TextLink href="/support/new">Contact support</TextLink>} />
      {view.phase === 'loading' ? <Loading label="Retrieving support requests…" /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to retrieve support requests" message={view.error} onRetry={() => tickets.send({ type: 'tickets.retry' })} /> : null}
      {view.phase === 'loaded' ? (
        view.tickets.length === 0 ? (
          <p className="text-sm text-neutral-600 dark:text-neutral-300">No support requests yet.</p>
        ) : (
          <ul className="space-y-3">
            {view.tickets.map((ticket) => (
              <li key={ticket.id}>
                <Card className="space-y-1 px-5 py-4 text-sm">
                  <h2 className="font-semibold">{ticket.subject}</h2>
                  <p className="text-xs text-neutral-500 dark:text-neutral-400">
                    {categoryLabel(ticket.category)}
                    {ticket.project_ref ? <> · project <span className="font-mono">{ticket.project_ref}</span></> : null} ·{' '}
                    <time dateTime={ticket.created_at}>{ticket.created_at.slice(0, 16).replace('T', ' ')} UTC</time>
                  </p>
                  <p className="whitespace-pre-wrap">{ticket.message}</p>
                </Card>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </div>
  )
}
