import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../../machines/projectDatabaseTimeout'
import { liveDatabaseTablesMachine } from '../../src/api/live/databaseTables'
import { DatabaseTables } from '../../src/views/project/database/DatabaseTablesPage'
import { REF } from '../fixtures'
import { ORDERS, TABLES } from '../fixtures.database'
import { badAnswerCases, json, stubFetch, useFakeClock, type Answer } from '../fakePlatform'

const TABLES_PATH = /^\/platform\/projects\/[a-z]{20}\/database\/tables$/

useFakeClock(0)

const cases: Array<[string, Answer, RegExp]> = [
  ...badAnswerCases(),
  ['a column whose nullability is a word', json([{ ...ORDERS, columns: [{ ...ORDERS.columns[0], is_nullable: 'no' }] }]), /Malformed response .* at 0\.columns\.0\.is_nullable/],
  ['a table of an unknown kind', json([{ ...ORDERS, kind: 'materialized view' }]), /Malformed response .* at 0\.kind/],
]

function renderPage(answers: Answer[]) {
  const fetch = stubFetch({ polled: TABLES_PATH, answers, fallback: json(TABLES) })
  const actor = createActor(liveDatabaseTablesMachine, { input: { ref: REF } }).start()
  render(<DatabaseTables actor={actor} />)
  return { actor, fetch }
}

describe('Database page under bad answers', () => {
  it.each(cases)('the first load: %s shows a clear error and Try again loads the tables', async (_, bad, message) => {
    const { actor } = renderPage([bad])
    await act(() => vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS))
    const alert = screen.getByRole('alert')
    expect(alert).toHaveTextContent('Failed to load tables')
    expect(alert).toHaveTextContent(message)
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(screen.getByRole('region', { name: 'orders' })).toBeInTheDocument()
    actor.stop()
  })

  it.each(cases)('a refresh: %s keeps the tables on screen and says why', async (_, bad, message) => {
    const { actor } = renderPage([json(TABLES), bad])
    await act(() => vi.advanceTimersByTimeAsync(0))
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    await act(() => vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS))
    expect(screen.getByRole('alert')).toHaveTextContent(message)
    expect(screen.getByRole('region', { name: 'orders' })).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'customers' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled()
    actor.stop()
  })
})
