/**
 * 'Generate types' under bad answers, through the real HTTP client, contract and download: every failure (including a
 * time-out after 30 s and a body without its types) ends in one toast 'Failed to generate types: {message}' and no
 * file; the button is usable again and the next good answer downloads supabase.ts.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { toastMachine } from '../../machines/toast.machine'
import { liveTypeGenerationMachine } from '../../src/api/live/typeGeneration'
import { ToastRegion } from '../../src/views/shell/ToastRegion'
import { GenerateTypes } from '../../src/views/project/GenerateTypesButton'
import { REF } from '../fixtures'
import { badAnswerCases, json, stubFetch, useFakeClock, type Answer } from '../fakePlatform'

const TYPES_PATH = /^\/v1\/projects\/[a-z]{20}\/types\/typescript$/
const TYPES = 'export type Database = {}\n'

useFakeClock(0)
afterEach(() => vi.restoreAllMocks())

const messages: Record<string, RegExp> = {
  'a body that is not JSON': /^Failed to generate types: Malformed response from .*: not JSON$/,
  'a 500': /^Failed to generate types: Internal server error$/,
  'a 500 that is not JSON': /^Failed to generate types: Request failed with status 500$/,
  'a network failure': /^Failed to generate types: Unable to reach the server$/,
  'a time-out': /^Failed to generate types: The request timed out$/,
}
const cases: Array<[string, Answer, RegExp]> = [
  ...badAnswerCases(messages),
  ['types that are not text', json({ types: 42 }), /^Failed to generate types: Malformed response .* at types$/],
  ['a body without types', json({}), /^Failed to generate types: Malformed response .* at types$/],
]

function renderButton() {
  const downloads: Array<{ download: string; href: string }> = []
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:http://localhost/types')
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ download: this.download, href: this.href })
  })
  const toasts = createActor(toastMachine).start()
  const actor = createActor(liveTypeGenerationMachine, { input: { ref: REF, toasts } }).start()
  render(
    <>
      <GenerateTypes actor={actor} />
      <ToastRegion actor={toasts} />
    </>,
  )
  return { downloads, stop: () => (actor.stop(), toasts.stop()) }
}

describe('Generate types under bad answers', () => {
  it.each(cases)('%s: one toast with the reason, no file; the next click downloads supabase.ts', async (name, bad, message) => {
    const fetch = stubFetch({ polled: TYPES_PATH, answers: [bad], fallback: json({ types: TYPES }) })
    const { downloads, stop } = renderButton()
    fireEvent.click(screen.getByRole('button', { name: 'Generate types' }))
    expect(screen.getByRole('button', { name: 'Generating types…' })).toBeDisabled()
    // The toast shows for 6 s: look when the failure is in (at once, or at the 30 s time-out).
    await act(() => vi.advanceTimersByTimeAsync(name === 'a time-out' ? 30_000 : 0))
    const region = screen.getByRole('status', { name: 'Notifications' })
    expect(within(region).getByText(message)).toBeInTheDocument()
    expect(downloads).toEqual([])
    fireEvent.click(screen.getByRole('button', { name: 'Generate types' }))
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(within(region).getByText('Successfully generated types! File is being downloaded')).toBeInTheDocument()
    expect(downloads).toEqual([{ download: 'supabase.ts', href: 'blob:http://localhost/types' }])
    expect(fetch.calls).toHaveLength(2)
    stop()
  })

  it('a time-out is reported at 30 s, not before', async () => {
    stubFetch({ polled: TYPES_PATH, answers: [() => new Promise<Response>(() => {})], fallback: json({ types: TYPES }) })
    const { stop } = renderButton()
    fireEvent.click(screen.getByRole('button', { name: 'Generate types' }))
    await act(() => vi.advanceTimersByTimeAsync(29_999))
    expect(screen.getByRole('status', { name: 'Notifications' })).toBeEmptyDOMElement()
    expect(screen.getByRole('button', { name: 'Generating types…' })).toBeDisabled()
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(screen.getByText('Failed to generate types: The request timed out')).toBeInTheDocument()
    stop()
  })
})
