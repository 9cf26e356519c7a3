import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { supportTicketMachine } from '../machines/supportTicket.machine'
import type { CreateTicketBody, SupportTicket } from '../src/contracts/support'
import { SupportPage } from '../src/views/support/SupportPage'
import { REF } from '../tests/fixtures'
import { describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const REQUEST_TIMEOUT = 10_000
const PREFILL = { category: 'Database_unresponsive', ref: REF, subject: 'Project unresponsive', message: 'Every query times out' }
const BODY: CreateTicketBody = { category: 'Database_unresponsive', project_ref: REF, subject: PREFILL.subject, message: PREFILL.message }
const TICKET: SupportTicket = { id: 't1', category: 'Database_unresponsive', project_ref: REF, subject: PREFILL.subject, message: PREFILL.message, created_at: '2026-11-24T10:00:00.000Z' }

const model = modelOf(supportTicketMachine, {
  input: { prefill: PREFILL },
  events: (snapshot) => {
    if (snapshot.matches('editing')) {
      // A new request starts without a subject and a message: they are typed (the draft) before it can be sent.
      const { subject } = snapshot.context.draft
      return subject === '' ? [{ type: 'ticket.edit', draft: { subject: PREFILL.subject, message: PREFILL.message } }] : [{ type: 'ticket.send' }]
    }
    if (snapshot.matches('sending')) {
      return [
        { type: 'xstate.done.actor.sendTicket', output: TICKET },
        { type: 'xstate.error.actor.sendTicket', error: apiError('Project not found', 404) },
        { type: 'xstate.after.requestTimeout.supportTicket.sending' },
      ]
    }
    if (snapshot.matches('sent')) return [{ type: 'ticket.new' }]
    return []
  },
  serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('support ticket model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(supportTicketMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const send = deferredActor<SupportTicket, CreateTicketBody>('sendTicket')
      const actor = runPath(createActor(supportTicketMachine.provide({ actors: { sendTicket: send.logic } }), { input: { prefill: PREFILL } }).start())
      render(<SupportPage ticket={actor} />)
      let wroteAnother = false

      await path.test({
        states: {
          editing: (snapshot) => {
            // What was typed (here: the prefill) is still there after a failed send; a new request starts empty.
            expect(screen.getByLabelText('Subject')).toHaveValue(wroteAnother ? '' : PREFILL.subject)
            expect(screen.getByLabelText('Project reference')).toHaveValue(REF)
            const error = snapshot.context.error
            if (error) expect(screen.getByRole('alert')).toHaveTextContent(`Failed to send the support request: ${error}`)
            else expect(screen.queryByRole('alert')).toBeNull()
            // Without a subject and a message the contract would refuse it: the button waits for them.
            const button = screen.getByRole('button', { name: 'Send support request' })
            if (wroteAnother) expect(button).toBeDisabled()
            else expect(button).toBeEnabled()
          },
          sending: () => {
            expect(screen.getByRole('button', { name: 'Sending…' })).toBeDisabled()
            expect(send.pending.at(-1)?.input).toEqual(BODY)
          },
          sent: () => {
            expect(screen.getByRole('status')).toHaveTextContent(`Support request sent: ${TICKET.subject}`)
            expect(screen.getByRole('link', { name: 'Your support requests' })).toHaveAttribute('href', '/support')
          },
        },
        events: {
          'ticket.edit': async () => {
            fireEvent.change(screen.getByLabelText('Subject'), { target: { value: PREFILL.subject } })
            fireEvent.change(screen.getByLabelText('Message'), { target: { value: PREFILL.message } })
            wroteAnother = false
          },
          'ticket.send': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Send support request' }))
          },
          'xstate.done.actor.sendTicket': async (step) => send.resolve(outputOf<SupportTicket>(step)),
          'xstate.error.actor.sendTicket': async (step) => send.reject(errorOf(step)),
          'xstate.after.requestTimeout.supportTicket.sending': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'ticket.new': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Write another request' }))
            wroteAnother = true
          },
        },
      })
    })
  }
})
