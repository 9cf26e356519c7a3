import { EditorView } from '@codemirror/view'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../../machines/projectDatabaseTimeout'
import { liveSqlEditorMachine } from '../../src/api/live/sqlEditor'
import { SqlEditor } from '../../src/views/project/database/SqlEditorPage'
import { REF } from '../fixtures'
import type { SqlRunResult } from '../../src/contracts/sqlEditor'
import { RUN_RESULT } from '../fixtures.sqlEditor'
import { BAD_ANSWERS, json, noAnswer, stubFetch, useFakeClock, type Answer } from '../fakePlatform'

const QUERY_PATH = /^\/platform\/projects\/[a-z]{20}\/sql\/run$/
/** One SELECT's answer: no schema change, so the catalog is not read again. */
const SELECT_RESULT: SqlRunResult = { ...RUN_RESULT, results: [RUN_RESULT.results[0]] }
const editorText = () => EditorView.findFromDOM(screen.getByRole('textbox', { name: 'SQL query' }))!.state.doc.toString()
const TYPED = 'select id,\n  email from customers'

useFakeClock(0)
beforeEach(() => localStorage.clear())

/** The editor with the live actors; the text typed, then Run. */
async function typeAndRun(answers: Answer[]) {
  const fetch = stubFetch({ polled: QUERY_PATH, answers, fallback: json(SELECT_RESULT) })
  const actor = createActor(liveSqlEditorMachine, { input: { ref: REF } }).start()
  render(<SqlEditor actor={actor} canWrite />)
  await act(() => vi.advanceTimersByTimeAsync(0))
  const editor = EditorView.findFromDOM(screen.getByRole('textbox', { name: 'SQL query' }))!
  await act(async () => editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: TYPED } }))
  fireEvent.click(screen.getByRole('button', { name: 'Run' }))
  return { actor, fetch, results: () => within(screen.getByRole('region', { name: 'Results' })) }
}

const cases: Array<[string, Answer, RegExp]> = [
  ...BAD_ANSWERS.map(([name, answer]): [string, Answer, RegExp] => [
    name,
    answer,
    {
      'a body that is not JSON': /Malformed response from \/platform\/projects\/[a-z]{20}\/sql\/run: not JSON/,
      'a 500': /Internal server error/,
      'a 500 that is not JSON': /Request failed with status 500/,
      'a network failure': /Unable to reach the server/,
      'a time-out': new RegExp(`did not answer within ${PROJECT_DATABASE_TIMEOUT_MS / 1_000} s`),
    }[name]!,
  ]),
  ['an answer without its results', json({ ...SELECT_RESULT, results: undefined }), /Malformed response from \/platform\/projects\/[a-z]{20}\/sql\/run at results/],
  ['an answer whose row count is negative', json({ ...SELECT_RESULT, results: [{ ...SELECT_RESULT.results[0], rowCount: -1 }] }), /Malformed response .* at results\.0\.rowCount/],
  ['a 400 whose position is not a number', json({ message: 'syntax error at end of input', position: 'end' }, 400), /syntax error at end of input/],
  ['a 503: the database is not available', json({ message: "The project's database is not available right now", code: 'database_unavailable' }, 503), /ERROR: database_unavailable: The project's database is not available right now/],
]

describe('SQL Editor under bad answers', () => {
  it.each(cases)('%s shows a clear error, keeps the text, and the next run works', async (_, bad, message) => {
    const { actor, fetch, results } = await typeAndRun([bad])
    await act(() => vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS))
    expect(results().getByRole('alert')).toHaveTextContent(message)
    expect(results().getByRole('alert')).not.toHaveTextContent('Line')
    expect(editorText()).toBe(TYPED)
    expect(localStorage.getItem(`supabase-sql-editor:${REF}`)).toBe(TYPED)
    // Run again: the platform answers this time.
    fireEvent.click(screen.getByRole('button', { name: 'Run' }))
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(results().getByRole('table', { name: 'Query results' })).toBeInTheDocument()
    expect(fetch.calls).toHaveLength(2)
    actor.stop()
  })

  it('a Postgres error (400 QueryError) points at its line and column', async () => {
    const { actor, results } = await typeAndRun([json({ message: 'column "email" does not exist', code: '42703', position: 14, hint: 'Perhaps you meant "emails".' }, 400)])
    await act(() => vi.advanceTimersByTimeAsync(0))
    const alert = results().getByRole('alert')
    expect(alert).toHaveTextContent('ERROR: 42703: column "email" does not exist')
    expect(alert).toHaveTextContent('Line 2, column 3')
    expect(alert).toHaveTextContent('Hint: Perhaps you meant "emails".')
    expect(within(alert).getByLabelText('Where the error is').textContent).toBe('  email from customers\n  ^')
    actor.stop()
  })

  it('a query the server stopped at its time-out (408) says so and keeps the text', async () => {
    const message = 'The query ran past the time-out of 15000 ms and was stopped; the database is ready for the next query'
    const { actor, results } = await typeAndRun([json({ message, code: 'query_timeout' }, 408)])
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(results().getByRole('alert')).toHaveTextContent(`ERROR: query_timeout: ${message}`)
    expect(editorText()).toBe(TYPED)
    actor.stop()
  })

  it('a run answered after a slot wait and a statement up to the query time-out (25 s) is shown, not abandoned', async () => {
    const slow: Answer = () => new Promise((resolve) => setTimeout(() => resolve(new Response(JSON.stringify(SELECT_RESULT))), 25_000))
    const { actor, results } = await typeAndRun([slow])
    await act(() => vi.advanceTimersByTimeAsync(24_999))
    expect(results().getByRole('status')).toHaveTextContent('Running query…')
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(results().getByRole('table', { name: 'Query results' })).toBeInTheDocument()
    expect(results().queryByRole('alert')).toBeNull()
    actor.stop()
  })

  it('a run unanswered for the project database time-out is abandoned: its request aborted, nothing arrives late', async () => {
    const late: Answer = () => new Promise((resolve) => setTimeout(() => resolve(new Response(JSON.stringify(SELECT_RESULT))), PROJECT_DATABASE_TIMEOUT_MS + 5_000))
    const { actor, results } = await typeAndRun([late])
    await act(() => vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS - 1))
    expect(results().getByRole('status')).toHaveTextContent('Running query…')
    await act(() => vi.advanceTimersByTimeAsync(10_000))
    expect(results().getByRole('alert')).toHaveTextContent(`did not answer within ${PROJECT_DATABASE_TIMEOUT_MS / 1_000} s`)
    expect(results().queryByRole('table')).toBeNull()
    actor.stop()
  })

  it('a storage that refuses to keep the text loses nothing on screen', async () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('QuotaExceededError')
    })
    const { actor, results } = await typeAndRun([noAnswer])
    expect(editorText()).toBe(TYPED)
    expect(results().getByRole('status')).toHaveTextContent('Running query…')
    setItem.mockRestore()
    actor.stop()
  })
})
