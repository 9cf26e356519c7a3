import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { connectionSnippet, connectMachine, METHOD_NOTES } from '../machines/connect.machine'
import type { PoolerConfig } from '../src/contracts/wire'
import { Connect } from '../src/views/project/home/ConnectDialog'
import { REF } from '../tests/fixtures'
import { POOLER } from '../tests/fixtures.wire'
import { coveringWalks, describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { deferredActor, usePathClock } from './fakes'

const REQUEST_TIMEOUT = 10_000
const COPIED_FOR = 2_000
const ev = eventFor(connectMachine)


const model = modelOf(connectMachine, {
  input: { ref: REF },
  events: (snapshot) => {
    if (snapshot.matches('closed')) return [ev({ type: 'connect.open' })]
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.fetchPoolerConfig', output: [POOLER] },
        { type: 'xstate.done.actor.fetchPoolerConfig', output: [] },
        { type: 'xstate.error.actor.fetchPoolerConfig', error: new Error('The project is paused') },
        { type: 'xstate.after.requestTimeout.connect.loading' },
        ev({ type: 'connect.close' }),
      ]
    }
    if (snapshot.matches('failed')) return [ev({ type: 'connect.retry' }), ev({ type: 'connect.close' })]
    const { method, client } = snapshot.context
    const choices = [
      ...(method === 'direct' ? [ev({ type: 'connect.method', method: 'transaction' })] : []),
      ...(client === 'uri' ? [ev({ type: 'connect.client', client: 'psql' })] : []),
    ]
    if (snapshot.matches({ ready: 'idle' })) return [...choices, ev({ type: 'connect.copy' }), ev({ type: 'connect.close' })]
    if (snapshot.matches({ ready: 'copying' })) {
      return [{ type: 'xstate.done.actor.copyText' }, { type: 'xstate.error.actor.copyText', error: new Error('The clipboard is not available') }]
    }
    if (snapshot.matches({ ready: 'copied' })) return [{ type: 'xstate.after.copiedFor.connect.ready.copied' }]
    return []
  },
  // The choices matter only while the strings show; elsewhere what defines the state is the error said.
  serializeState: (snapshot, event) =>
    keyByIncomingEdge(
      snapshot,
      event,
      snapshot.matches('ready') ? `${snapshot.context.method}|${snapshot.context.client}` : `${snapshot.context.error ?? ''}|${snapshot.context.pooler ? 'loaded once' : ''}`,
    ),
})
const paths = coveringWalks(model)
const runPath = usePathClock()

beforeAll(async () => {
  await import('../src/views/shell/ModalDialog')
})

/** Lets the dialog's lazy code and React settle under fake timers. */
async function settle() {
  for (let i = 0; i < 20; i++) await act(() => vi.advanceTimersByTimeAsync(0))
}

describe('connect model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(connectMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  it('writes each client’s string from the pooler settings', () => {
    expect(connectionSnippet(POOLER, 'direct', 'psql')).toBe(`psql "postgresql://postgres.${REF}:[YOUR-PASSWORD]@127.0.0.1:54322/postgres?sslmode=disable"`)
    expect(connectionSnippet(POOLER, 'direct', 'jdbc')).toBe(`jdbc:postgresql://127.0.0.1:54322/postgres?user=postgres.${REF}&password=[YOUR-PASSWORD]&sslmode=disable`)
    expect(connectionSnippet(POOLER, 'direct', 'dotnet')).toBe(`User Id=postgres.${REF};Password=[YOUR-PASSWORD];Server=127.0.0.1;Port=54322;Database=postgres;SSL Mode=Disable`)
    expect(connectionSnippet(POOLER, 'transaction', 'prisma')).toContain('pgbouncer=true')
    expect(connectionSnippet(POOLER, 'session', 'prisma')).not.toContain('pgbouncer=true')
    expect(connectionSnippet(POOLER, 'transaction', 'drizzle')).toContain('prepare: false')
    expect(connectionSnippet(POOLER, 'direct', 'sqlalchemy')).toBe(`postgresql+psycopg2://postgres.${REF}:[YOUR-PASSWORD]@127.0.0.1:54322/postgres?sslmode=disable`)
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetch = deferredActor<PoolerConfig[], { ref: string }>('fetchPoolerConfig')
      const copy = deferredActor<void, { text: string }>('copyText')
      const actor = runPath(createActor(connectMachine.provide({ actors: { fetchPoolerConfig: fetch.logic, copyText: copy.logic } }), { input: { ref: REF } }).start())
      render(<Connect actor={actor} />)
      const dialog = () => screen.getByRole('dialog', { name: 'Connect to your project' })

      await path.test({
        states: {
          closed: async () => {
            await settle()
            expect(screen.queryByRole('dialog')).toBeNull()
            expect(screen.getByRole('button', { name: 'Connect' })).toBeEnabled()
          },
          loading: async () => {
            await settle()
            expect(within(dialog()).getByRole('status')).toHaveTextContent('Retrieving connection settings…')
            expect(fetch.pending.at(-1)?.input).toEqual({ ref: REF })
          },
          failed: async (snapshot) => {
            await settle()
            const alert = within(dialog()).getByRole('alert')
            expect(alert).toHaveTextContent(snapshot.context.error!)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          ready: async (snapshot) => {
            await settle()
            const { method, client } = snapshot.context
            expect(within(dialog()).getByRole('combobox', { name: 'Method' })).toHaveValue(method)
            expect(within(dialog()).getByRole('combobox', { name: 'Type' })).toHaveValue(client)
            expect(within(dialog()).getByLabelText('Connection string')).toHaveTextContent(connectionSnippet(POOLER, method, client))
            expect(within(dialog()).getByText(METHOD_NOTES[method])).toBeInTheDocument()
          },
          'ready.idle': () => {
            expect(within(dialog()).getByRole('button', { name: 'Copy' })).toBeEnabled()
          },
          'ready.copying': (snapshot) => {
            expect(copy.pending.at(-1)?.input).toEqual({ text: connectionSnippet(POOLER, snapshot.context.method, snapshot.context.client) })
          },
          'ready.copied': () => {
            expect(within(dialog()).getByRole('button', { name: 'Copied' })).toBeEnabled()
          },
        },
        events: {
          'connect.open': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Connect' }))
          },
          'connect.close': async () => {
            fireEvent.click(within(dialog()).getByRole('button', { name: 'Close' }))
          },
          'connect.retry': async () => {
            fireEvent.click(within(dialog()).getByRole('button', { name: 'Try again' }))
          },
          'connect.method': async (step) => {
            fireEvent.change(within(dialog()).getByRole('combobox', { name: 'Method' }), { target: { value: step.event.method } })
          },
          'connect.client': async (step) => {
            fireEvent.change(within(dialog()).getByRole('combobox', { name: 'Type' }), { target: { value: step.event.client } })
          },
          'connect.copy': async () => {
            fireEvent.click(within(dialog()).getByRole('button', { name: 'Copy' }))
          },
          'xstate.done.actor.fetchPoolerConfig': async (step) => fetch.resolve(outputOf<PoolerConfig[]>(step)),
          'xstate.error.actor.fetchPoolerConfig': async (step) => fetch.reject(errorOf(step)),
          'xstate.after.requestTimeout.connect.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'xstate.done.actor.copyText': async () => copy.resolve(undefined),
          'xstate.error.actor.copyText': async (step) => copy.reject(errorOf(step)),
          'xstate.after.copiedFor.connect.ready.copied': async () => {
            await act(() => vi.advanceTimersByTimeAsync(COPIED_FOR))
          },
        },
      })
    })
  }
})
