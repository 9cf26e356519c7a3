import { act, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { liveApiKeysMachine } from '../../src/api/live/apiKeys'
import { ApiKeysPanel, ProjectConfigPanel } from '../../src/views/project/ApiKeysPanels'
import { REF } from '../fixtures'
import { ANON_KEY, makeSettings } from '../fixtures.keys'
import { BAD_ANSWERS, json, noAnswer, stubFetch, useFakeClock, type Answer } from '../fakePlatform'

const SETTINGS_PATH = /\/platform\/props\/project\/[a-z]{20}\/settings$/
/** The settings endpoint answers from a script; the JWT status says 'never updated'. */
const stubPlatform = (answers: Answer[]) =>
  stubFetch({
    polled: SETTINGS_PATH,
    answers,
    fallback: json(makeSettings()),
    fixed: [[/\/jwt-secret-update-status$/, json({ jwtSecretUpdateStatus: null })]],
  }).calls

function renderPanels() {
  const actor = createActor(liveApiKeysMachine, { input: { ref: REF, canReadKeys: true, canUpdateSecret: true } }).start()
  render(
    <>
      <ApiKeysPanel actor={actor} />
      <ProjectConfigPanel actor={actor} />
    </>,
  )
  return actor
}

const keysPanel = () => within(screen.getByRole('region', { name: 'Project API keys' }))
/** The platform answers `ms` late. */
const slowly = (ms: number, answer: Answer): Answer => () => new Promise((resolve) => setTimeout(resolve, ms)).then(answer)

useFakeClock(0)

const cases: Array<[string, Answer]> = [
  ...BAD_ANSWERS,
  ['malformed settings (keys not a list)', json({ ...makeSettings(), services: [{ ...makeSettings().services[0], service_api_keys: 'anon' }] })],
  ['malformed settings (no project)', json({ services: [] })],
]

describe('API keys panel under bad answers', () => {
  it.each(cases)("%s shows 'Failed to retrieve API keys' and keeps polling every 2 s", async (_, bad) => {
    const calls = stubPlatform([bad, bad, json(makeSettings())])
    const actor = renderPanels()
    // A time-out is declared when the next beat comes, at 2 s; other failures at once.
    await act(() => vi.advanceTimersByTimeAsync(2_000))
    expect(keysPanel().getByRole('alert')).toHaveTextContent('Failed to retrieve API keys')
    expect(screen.getByText('Failed to retrieve configuration')).toBeInTheDocument()
    expect(calls).toEqual([0, 2_000])
    await act(() => vi.advanceTimersByTimeAsync(8_000))
    // Exactly on the 2 s beat, counted from each request's start.
    expect(calls).toEqual([0, 2_000, 4_000])
    // Recovered: the keys are shown and the polling stopped.
    expect(keysPanel().getByText(ANON_KEY)).toBeInTheDocument()
    expect(keysPanel().queryByRole('alert')).toBeNull()
    await act(() => vi.advanceTimersByTimeAsync(10_000))
    expect(calls.length).toBe(3)
    actor.stop()
  })

  it("a project without keys yet shows 'Retrieving API keys' and polls every 2 s until they exist", async () => {
    const calls = stubPlatform([json(makeSettings({ keys: false })), json(makeSettings({ keys: false })), json(makeSettings())])
    const actor = renderPanels()
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(keysPanel().getByRole('status')).toHaveTextContent('Retrieving API keys')
    await act(() => vi.advanceTimersByTimeAsync(4_000))
    expect(calls).toEqual([0, 2_000, 4_000])
    expect(keysPanel().getByText(ANON_KEY)).toBeInTheDocument()
    actor.stop()
  })

  it('answers taking 1.5 s still give requests exactly 2 s apart, and the failure stays on screen while the next is out', async () => {
    const calls = stubPlatform([
      slowly(1_500, json({ message: 'Internal server error' }, 500)),
      slowly(1_500, json(makeSettings({ keys: false }))),
      slowly(1_500, json(makeSettings())),
    ])
    const actor = renderPanels()
    await act(() => vi.advanceTimersByTimeAsync(1_500))
    expect(keysPanel().getByRole('alert')).toHaveTextContent('Failed to retrieve API keys')
    await act(() => vi.advanceTimersByTimeAsync(1_999))
    // The second request has been out for 1 499 ms: no flicker back to 'Retrieving API keys'.
    expect(calls).toEqual([0, 2_000])
    expect(keysPanel().getByRole('alert')).toHaveTextContent('Failed to retrieve API keys')
    expect(keysPanel().queryByRole('status')).toBeNull()
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(keysPanel().getByRole('status')).toHaveTextContent('Retrieving API keys')
    await act(() => vi.advanceTimersByTimeAsync(2_000))
    expect(calls).toEqual([0, 2_000, 4_000])
    expect(keysPanel().getByText(ANON_KEY)).toBeInTheDocument()
    await act(() => vi.advanceTimersByTimeAsync(10_000))
    expect(calls).toEqual([0, 2_000, 4_000])
    actor.stop()
  })

  it("a request unanswered for 2 s shows 'Failed to retrieve API keys' and the next starts at exactly 2 s", async () => {
    const calls = stubPlatform([noAnswer, slowly(1_000, json(makeSettings()))])
    const actor = renderPanels()
    await act(() => vi.advanceTimersByTimeAsync(1_999))
    expect(keysPanel().getByRole('status')).toHaveTextContent('Retrieving API keys')
    expect(calls).toEqual([0])
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(calls).toEqual([0, 2_000])
    expect(keysPanel().getByRole('alert')).toHaveTextContent('Failed to retrieve API keys')
    expect(screen.getByText('Failed to retrieve configuration')).toBeInTheDocument()
    await act(() => vi.advanceTimersByTimeAsync(1_000))
    expect(keysPanel().getByText(ANON_KEY)).toBeInTheDocument()
    expect(keysPanel().queryByRole('alert')).toBeNull()
    actor.stop()
  })
})
