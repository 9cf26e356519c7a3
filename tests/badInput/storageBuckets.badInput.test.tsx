/**
 * The Storage page under bad answers, through the real HTTP client and contracts: a read that fails in any way is
 * retried by the buckets rule (at most 3 retries, 1 s, 2 s, 4 s apart; never for 'Tenant config … not found'), then
 * says why; a create or delete that fails keeps its dialog (and what was typed) with a clear message.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../../machines/projectDatabaseTimeout'
import { liveStorageBucketsMachine } from '../../src/api/live/storage'
import { StorageBuckets } from '../../src/views/project/storage/StorageBucketsPage'
import { REF } from '../fixtures'
import { AVATARS, BUCKETS, TENANT_CONFIG_NOT_FOUND } from '../fixtures.storage'
import { badAnswerCases, json, stubFetch, useFakeClock, type Answer } from '../fakePlatform'

const BUCKETS_PATH = /^\/platform\/storage\/[a-z]{20}\/buckets$/

useFakeClock(0)

const listCases: Array<[string, Answer, RegExp]> = [
  ...badAnswerCases(),
  ['MIME types that are a string, not a list', json([{ ...AVATARS, allowed_mime_types: 'image/png' }]), /Malformed response .* at 0\.allowed_mime_types/],
  ['a size limit that is not a whole number', json([{ ...AVATARS, file_size_limit: 1.5 }]), /Malformed response .* at 0\.file_size_limit/],
  ['a bucket without a name', json([{ ...AVATARS, name: undefined }]), /Malformed response .* at 0\.name/],
]

function renderPage() {
  const actor = createActor(liveStorageBucketsMachine, { input: { ref: REF, canManage: true } }).start()
  render(<StorageBuckets actor={actor} />)
  return actor
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))

describe('Storage page under bad answers: the list', () => {
  it.each(listCases)('%s: retried 3 times by the rule, then a clear error; Try again loads the buckets', async (name, bad, message) => {
    const fetch = stubFetch({ polled: BUCKETS_PATH, answers: [bad, bad, bad, bad], fallback: json(BUCKETS) })
    const actor = renderPage()
    // Four attempts, each unanswered for the project database's time-out at worst, and the 1 s, 2 s, 4 s between.
    await advance(4 * PROJECT_DATABASE_TIMEOUT_MS + 7000)
    // Each attempt starts when the previous one failed (at once, or after its time-out) plus 1 s, 2 s, 4 s.
    const failsAfter = name === 'a time-out' ? PROJECT_DATABASE_TIMEOUT_MS : 0
    expect(fetch.calls).toEqual([0, failsAfter + 1000, 2 * failsAfter + 3000, 3 * failsAfter + 7000])
    const alert = screen.getByRole('alert')
    expect(alert).toHaveTextContent('Failed to load buckets')
    expect(alert).toHaveTextContent(message)
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    await advance(0)
    expect(screen.getByRole('table', { name: 'Buckets' })).toBeInTheDocument()
    actor.stop()
  })

  it('a failure the first retry mends shows the buckets after 1 s', async () => {
    const fetch = stubFetch({ polled: BUCKETS_PATH, answers: [json({ message: 'Bad gateway' }, 502)], fallback: json(BUCKETS) })
    const actor = renderPage()
    await advance(0)
    expect(screen.getByRole('status')).toHaveTextContent('Loading buckets… (retry 1 of 3)')
    expect(screen.getByText('The last attempt failed: Bad gateway')).toBeInTheDocument()
    await advance(1000)
    expect(fetch.calls).toEqual([0, 1000])
    expect(screen.getByRole('table', { name: 'Buckets' })).toBeInTheDocument()
    actor.stop()
  })

  it("storage disabled ('Tenant config … not found', 404): asked once, never again, and said plainly", async () => {
    const fetch = stubFetch({ polled: BUCKETS_PATH, answers: [], fallback: json({ message: TENANT_CONFIG_NOT_FOUND }, 404) })
    const actor = renderPage()
    await advance(60_000)
    expect(fetch.calls).toEqual([0])
    const alert = screen.getByRole('alert')
    expect(within(alert).getByRole('heading')).toHaveTextContent('Storage is not enabled for this project')
    expect(alert).toHaveTextContent(TENANT_CONFIG_NOT_FOUND)
    actor.stop()
  })

  it("a 403 (no project_storage:all) shows the server's message", async () => {
    stubFetch({ polled: BUCKETS_PATH, answers: [], fallback: json({ message: 'You need project_storage:all to manage storage' }, 403) })
    const actor = renderPage()
    await advance(60_000)
    expect(screen.getByRole('alert')).toHaveTextContent('You need project_storage:all to manage storage')
    actor.stop()
  })
})

/** A platform whose list answers BUCKETS and whose create or delete answers from `script`, then `fallback`. */
function changePlatform(method: 'POST' | 'DELETE', script: Answer[], fallback: Answer) {
  const calls: Array<{ method: string; path: string }> = []
  vi.stubGlobal('fetch', (input: Request) => {
    const path = new URL(input.url, 'http://localhost').pathname
    calls.push({ method: input.method, path })
    const answer = input.method === method ? (script.shift() ?? fallback) : input.method === 'GET' ? json(BUCKETS) : json({ message: 'Unexpected' }, 500)
    return new Promise<Response>((resolve, reject) => {
      input.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
      answer().then(resolve, reject)
    })
  })
  return calls
}

const changeCases: Array<[string, Answer, RegExp]> = [
  ...badAnswerCases(),
  ['a 400 with the server’s reason', json({ message: 'Bucket name cannot contain a slash' }, 400), /^Bucket name cannot contain a slash$/],
]

describe('Storage page under bad answers: create', () => {
  it.each([...changeCases, ['a created bucket without its id', json({ ...AVATARS, id: undefined }, 201), /Malformed response .* at id/] as [string, Answer, RegExp]])(
    '%s keeps the dialog, what was typed and says why; sending again creates it',
    async (_, bad, message) => {
      changePlatform('POST', [bad], json({ ...AVATARS, id: 'photos', name: 'photos' }, 201))
      const actor = renderPage()
      await advance(0)
      fireEvent.click(screen.getByRole('button', { name: 'New bucket' }))
      const dialog = within(screen.getByRole('dialog', { name: 'Create bucket' }))
      fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'photos' } })
      fireEvent.change(dialog.getByLabelText('Allowed MIME types'), { target: { value: 'image/png' } })
      fireEvent.change(dialog.getByLabelText('File size limit'), { target: { value: '3' } })
      fireEvent.click(dialog.getByRole('button', { name: 'Create bucket' }))
      await advance(PROJECT_DATABASE_TIMEOUT_MS)
      expect(dialog.getByRole('alert')).toHaveTextContent(message)
      expect(dialog.getByLabelText('Name')).toHaveValue('photos')
      expect(dialog.getByLabelText('Allowed MIME types')).toHaveValue('image/png')
      expect(dialog.getByLabelText('File size limit')).toHaveValue('3')
      fireEvent.click(dialog.getByRole('button', { name: 'Create bucket' }))
      await advance(0)
      expect(screen.queryByRole('dialog')).toBeNull()
      expect(within(screen.getByRole('table', { name: 'Buckets' })).getByRole('rowheader', { name: 'photos' })).toBeInTheDocument()
      actor.stop()
    },
  )
})

describe('Storage page under bad answers: delete', () => {
  it.each(changeCases)('%s keeps the dialog and says why; the bucket stays listed', async (_, bad, message) => {
    changePlatform('DELETE', [bad], json({ message: 'Successfully deleted' }))
    const actor = renderPage()
    await advance(0)
    fireEvent.click(screen.getByRole('button', { name: 'Delete bucket receipts' }))
    const dialog = within(screen.getByRole('dialog', { name: 'Delete bucket' }))
    fireEvent.click(dialog.getByRole('button', { name: 'Delete bucket' }))
    await advance(PROJECT_DATABASE_TIMEOUT_MS)
    expect(dialog.getByRole('alert')).toHaveTextContent(message)
    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }))
    await advance(0)
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(within(screen.getByRole('table', { name: 'Buckets' })).getByRole('rowheader', { name: 'receipts' })).toBeInTheDocument()
    actor.stop()
  })
})
