import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { createActor } from 'xstate'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../../machines/projectDatabaseTimeout'
import { liveTableEditorMachine } from '../../src/api/live/tableEditor'
import { TableEditor } from '../../src/views/project/database/TableEditorPage'
import { REF } from '../fixtures'
import { TABLES, ordersPage } from '../fixtures.database'
import { badAnswerCases, json, stubFetch, useFakeClock, type Answer } from '../fakePlatform'

const TABLES_PATH = /^\/platform\/projects\/[a-z]{20}\/database\/tables$/
const ROWS_PATH = /^\/platform\/projects\/[a-z]{20}\/database\/tables\/orders\/rows$/

useFakeClock(0)

function renderEditor() {
  const actor = createActor(liveTableEditorMachine, { input: { ref: REF, table: 'orders', page: 0 } }).start()
  const location = memoryLocation({ path: `/project/${REF}/editor`, searchPath: 'table=orders', record: true })
  render(
    <Router hook={location.hook} searchHook={location.searchHook}>
      <TableEditor actor={actor} projectRef={REF} />
    </Router>,
  )
  return actor
}

const listCases: Array<[string, Answer, RegExp]> = [
  ...badAnswerCases(),
  ['a list whose table has no columns field', json([{ ...TABLES[0], columns: undefined }]), /Malformed response from \/platform\/projects\/[a-z]{20}\/database\/tables at 0\.columns/],
  ['an object instead of a list', json({ tables: TABLES }), /Malformed response from \/platform\/projects\/[a-z]{20}\/database\/tables/],
]

const rowsCases: Array<[string, Answer, RegExp]> = [
  ...badAnswerCases(),
  ['rows without a total', json({ ...ordersPage(0), total: undefined }), /Malformed response from \/platform\/projects\/[a-z]{20}\/database\/tables\/orders\/rows\?offset=0&limit=100 at total/],
  ['a 404 for a table dropped meanwhile', json({ message: 'Table orders not found' }, 404), /Table orders not found/],
]

describe('Table Editor under bad answers', () => {
  it.each(listCases)('the table list: %s shows a clear error and Try again loads it', async (_, bad, message) => {
    stubFetch({ polled: TABLES_PATH, answers: [bad], fallback: json(TABLES), fixed: [[ROWS_PATH, json(ordersPage(0))]] })
    const actor = renderEditor()
    await act(() => vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS))
    const alert = screen.getByRole('alert')
    expect(alert).toHaveTextContent('Failed to load tables')
    expect(alert).toHaveTextContent(message)
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(screen.getByRole('table', { name: 'Rows of orders' })).toBeInTheDocument()
    actor.stop()
  })

  it.each(rowsCases)("the rows: %s shows a clear error, keeps the table list, and Try again loads them", async (_, bad, message) => {
    const rows = stubFetch({ polled: ROWS_PATH, answers: [bad], fallback: json(ordersPage(0)), fixed: [[TABLES_PATH, json(TABLES)]] })
    const actor = renderEditor()
    await act(() => vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS))
    const region = within(screen.getByRole('region', { name: 'Rows of orders' }))
    expect(region.getByRole('alert')).toHaveTextContent('Failed to load rows')
    expect(region.getByRole('alert')).toHaveTextContent(message)
    expect(within(screen.getByRole('navigation', { name: 'Tables' })).getAllByRole('link')).toHaveLength(2)
    fireEvent.click(region.getByRole('button', { name: 'Try again' }))
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(screen.getByRole('table', { name: 'Rows of orders' })).toBeInTheDocument()
    // One request, then the retry (made once the time-out had passed).
    expect(rows.calls).toEqual([0, PROJECT_DATABASE_TIMEOUT_MS])
    actor.stop()
  })
})
