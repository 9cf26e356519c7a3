import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { supportTicketsMachine } from '../machines/supportTickets.machine'
import type { SupportTicket } from '../src/contracts/support'
import { SupportTicketsPage } from '../src/views/support/SupportTicketsPage'
import { REF } from '../tests/fixtures'
import { describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { deferredActor, usePathClock } from './fakes'

const REQUEST_TIMEOUT = 10_000
const TICKETS: SupportTicket[] = [
  { id: 't2', category: 'Database_unresponsive', project_ref: REF, subject: 'Queries time out', message: 'Since noon', created_at: '2026-11-24T12:00:00.000Z' },
  { id: 't1', category: 'Billing', project_ref: null, subject: 'Invoice address', message: 'Please change it', created_at: '2026-11-23T09:30:00.000Z' },
]

const model = modelOf(supportTicketsMachine, {
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.listTickets', output: TICKETS },
        { type: 'xstate.done.actor.listTickets', output: [] },
        { type: 'xstate.error.actor.listTickets', error: new Error('Request failed with status 500') },
        { type: 'xstate.after.requestTimeout.supportTickets.loading' },
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'tickets.retry' }]
    return []
  },
  serializeState: (snapshot, event) =>
    keyByIncomingEdge(snapshot, event, String((snapshot).context.tickets.length)),
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('support tickets model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(supportTicketsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const list = deferredActor<SupportTicket[]>('listTickets')
      const actor = runPath(createActor(supportTicketsMachine.provide({ actors: { listTickets: list.logic } })).start())
      render(<SupportTicketsPage tickets={actor} />)

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Retrieving support requests…')
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(alert).toHaveTextContent(snapshot.context.error!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          loaded: (snapshot) => {
            const tickets = snapshot.context.tickets
            if (tickets.length === 0) {
              expect(screen.getByText('No support requests yet.')).toBeInTheDocument()
              return
            }
            expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Queries time out', 'Invoice address'])
            expect(screen.getByText(/Database unresponsive · project/)).toBeInTheDocument()
            expect(screen.getByText('2026-11-24 12:00 UTC')).toBeInTheDocument()
          },
        },
        events: {
          'xstate.done.actor.listTickets': async (step) => list.resolve(outputOf<SupportTicket[]>(step)),
          'xstate.error.actor.listTickets': async (step) => list.reject(errorOf(step)),
          'xstate.after.requestTimeout.supportTickets.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'tickets.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
        },
      })
    })
  }
})
