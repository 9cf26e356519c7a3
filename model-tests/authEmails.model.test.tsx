import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { authEmailsMachine } from '../machines/authEmails.machine'
import type { MailboxMessage } from '../src/contracts/auth'
import { AuthEmails } from '../src/views/project/auth/AuthEmailsPage'
import { REF } from '../tests/fixtures'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const ev = eventFor(authEmailsMachine)
const REQUEST_TIMEOUT = 10_000

const MESSAGES: MailboxMessage[] = [
  { id: 3, recipient: '+15555550102', subject: 'Text message', body: 'Your code is 654321', link: null, kind: 'phone_change', channel: 'sms', sent_at: '2026-11-26T09:00:00.000Z' },
  {
    id: 2,
    recipient: 'ada@example.com',
    subject: 'Your Magic Link',
    body: 'Follow this link to login:\nhttp://localhost/p/x/auth/v1/verify?token=abc&type=magiclink\n\nOr enter this code: 123456',
    link: 'http://localhost/p/x/auth/v1/verify?token=abc&type=magiclink',
    kind: 'magiclink',
    channel: 'email',
    sent_at: '2026-11-26T08:00:00.000Z',
  },
  { id: 1, recipient: 'bob@example.com', subject: 'Confirm Your Signup', body: 'Confirm your e-mail.', link: null, kind: 'confirmation', channel: 'email', sent_at: '2026-11-25T08:00:00.000Z' },
]
const FORBIDDEN = "Your role may not read this project's mailbox: its messages hold sign-in links"

const contextOf = (snapshot: SnapshotFrom<typeof authEmailsMachine>) => snapshot.context

const model = modelOf(authEmailsMachine, {
  input: { ref: REF },
  events: (snapshot) => {
    const { messages, openId } = contextOf(snapshot)
    if (snapshot.matches('loading')) {
      return [
        // A refresh with a message open answers the same box (the message stays open) or an empty one (it closes).
        { type: 'xstate.done.actor.readMailbox', output: MESSAGES },
        ...(openId === null ? [] : [{ type: 'xstate.done.actor.readMailbox', output: [] } as const]),
        ...(messages.length === 0 ? [{ type: 'xstate.done.actor.readMailbox', output: [] } as const] : []),
        { type: 'xstate.error.actor.readMailbox', error: apiError(FORBIDDEN, 403) },
        { type: 'xstate.after.requestTimeout.authEmails.loading' },
      ]
    }
    if (snapshot.matches('failed')) return [ev({ type: 'emails.refresh' })]
    if (snapshot.matches('loaded')) {
      if (messages.length === 0) return [ev({ type: 'emails.refresh' })]
      return openId === null
        ? [ev({ type: 'email.open', id: 2 }), ev({ type: 'email.open', id: 3 }), ev({ type: 'emails.refresh' })]
        : [ev({ type: 'email.close' }), ev({ type: 'emails.refresh' })]
    }
    return []
  },
  serializeState: (snapshot, event) => {
    const { messages, openId, error } = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, JSON.stringify({ ids: messages.map((m) => m.id), openId, error }))
  },
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('auth e-mails model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(authEmailsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const read = deferredActor<MailboxMessage[], { ref: string }>('readMailbox')
      const actor = runPath(createActor(authEmailsMachine.provide({ actors: { readMailbox: read.logic } }), { input: { ref: REF } }).start())
      render(<AuthEmails actor={actor} />)

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Loading e-mails…')
            expect(screen.getByRole('button', { name: 'Refresh' })).toBeDisabled()
            expect(read.pending.map((run) => run.input)).toEqual([{ ref: REF }])
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(within(alert).getByRole('heading')).toHaveTextContent('Failed to load e-mails')
            expect(alert).toHaveTextContent(contextOf(snapshot).error!)
            expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled()
          },
          loaded: (snapshot) => {
            const { messages, openId } = contextOf(snapshot)
            expect(screen.queryByRole('status')).toBeNull()
            expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled()
            if (messages.length === 0) {
              expect(screen.getByText(/No messages yet/)).toBeInTheDocument()
              return
            }
            const items = within(screen.getByRole('list', { name: 'Messages' })).getAllByRole('button')
            // A text message is labelled as one, never as an e-mail.
            expect(items.map((b) => b.textContent)).toEqual(
              messages.map((m) => expect.stringContaining(m.channel === 'sms' ? `Text message: Phone change codeText message to ${m.recipient}` : `${m.subject}E-mail to ${m.recipient}`)),
            )
            if (openId === null) {
              expect(screen.getByText('Choose a message to read it.')).toBeInTheDocument()
              expect(screen.queryByRole('article')).toBeNull()
            } else {
              const open = messages.find((m) => m.id === openId)!
              if (open.channel === 'sms') {
                const article = screen.getByRole('article', { name: 'Text message: Phone change code' })
                expect(article).toHaveTextContent(`Text message to ${open.recipient}`)
                expect(article).not.toHaveTextContent(/e-mail/i)
                expect(article).toHaveTextContent('Your code is 654321')
                expect(within(article).queryByRole('link')).toBeNull()
              } else {
                const article = screen.getByRole('article', { name: open.subject })
                expect(article).toHaveTextContent(`E-mail to ${open.recipient}`)
                expect(article).toHaveTextContent('Or enter this code: 123456')
                expect(within(article).getByRole('link', { name: 'Open the link in this e-mail' })).toHaveAttribute('href', open.link)
              }
              expect(items[messages.indexOf(open)]).toHaveAttribute('aria-current', 'true')
            }
          },
        },
        events: {
          'xstate.done.actor.readMailbox': async (step) => read.resolve(outputOf<MailboxMessage[]>(step)),
          'xstate.error.actor.readMailbox': async (step) => read.reject(errorOf(step)),
          'xstate.after.requestTimeout.authEmails.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'emails.refresh': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
          },
          'email.open': async (step) => {
            fireEvent.click(screen.getByRole('button', { name: step.event.id === 3 ? /^Text message: Phone change code/ : /^Your Magic Link/ }))
          },
          'email.close': async () => {
            fireEvent.click(within(screen.getByRole('article')).getByRole('button', { name: 'Close' }))
          },
        },
      })
    })
  }
})
