import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, type AnyMachineSnapshot, type EventFrom } from 'xstate'
import { FAILED_TEXT, PERMISSION_TEXT, UPDATING_TEXT, apiKeysMachine, jwtSecretChildMachine } from '../machines/apiKeys.machine'
import { copyButtonMachine } from '../machines/copyButton.machine'
import { fetchSettings } from '../src/api/live/apiKeys'
import type { JwtSecretUpdateAccepted, JwtSecretUpdateBody, JwtSecretUpdateStatusResponse } from '../src/contracts/keys'
import { ApiKeysPanel, ProjectConfigPanel } from '../src/views/project/ApiKeysPanels'
import { REF } from '../tests/fixtures'
import { ANON_KEY, JWT_SECRET, SERVICE_KEY, makeSettings } from '../tests/fixtures.keys'
import { type InternalEvent, type ModelEvent, coveringWalks, describePath, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { usePlatform } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(apiKeysMachine)

const SETTINGS_URL = /\/platform\/props\/project\/[a-z]{20}\/settings$/
/** Spec: settings polled every 2 s, the first request at once; the 2 s time-out is the whole beat. */
const BEAT = 2_000
/** Every answer comes this late: a slow platform must not stretch the beat. */
const ANSWER_AFTER = 1_500
const BEAT_EDGE: InternalEvent = { type: 'xstate.after.pollInterval.apiKeys.polling' }
const WITH_KEYS = makeSettings()
const WITHOUT_KEYS = makeSettings({ keys: false })
const jwtOf = (snapshot: AnyMachineSnapshot) => snapshot.context.jwtStatus
const errorIn = (snapshot: AnyMachineSnapshot) => snapshot.context.error
/** An active custom domain that answers after the panel started. */
const CUSTOM_URL = 'https://api.example.com'
const customOf = (snapshot: AnyMachineSnapshot) => snapshot.context.customUrl
/** The URL the panel shows and copies: the custom domain's once it has answered. */
const urlOf = (snapshot: AnyMachineSnapshot) => customOf(snapshot) ?? `http://localhost/rest/${REF}`

const model = modelOf(apiKeysMachine, {
  input: { ref: REF, canReadKeys: true, canUpdateSecret: true },
  events: (snapshot) => {
    const jwt = jwtOf(snapshot)
    const statusEvents = (jwt === 'updated' ? (['updating', 'failed'] as const) : (['updated'] as const)).map(
      (status) => (ev({ type: 'jwt.status.changed', status })),
    )
    if (snapshot.matches({ polling: 'requesting' })) {
      return [
        { type: 'xstate.done.actor.fetchSettings', output: WITH_KEYS },
        { type: 'xstate.done.actor.fetchSettings', output: WITHOUT_KEYS },
        { type: 'xstate.error.actor.fetchSettings', error: new Error('Internal server error') },
        // Unanswered when the next beat comes: the beat is the time-out.
        BEAT_EDGE,
        ...(jwt === 'unknown' ? statusEvents : []),
      ]
    }
    if (snapshot.matches({ polling: 'settled' })) return [BEAT_EDGE]
    if (snapshot.matches('ready')) {
      const user: Array<EventFrom<typeof apiKeysMachine>> = [
        { type: 'serviceKey.reveal' },
        { type: 'serviceKey.hide' },
        { type: 'jwtSecret.reveal' },
        { type: 'jwtSecret.hide' },
        { type: 'value.copy', key: 'service_role' },
        { type: 'value.copy', key: 'url' },
      ]
      const custom: Array<ModelEvent<typeof apiKeysMachine>> = customOf(snapshot) === null ? [ev({ type: 'customUrl.changed', customUrl: CUSTOM_URL })] : []
      return [{ type: 'settings.refresh' }, ...statusEvents, ...custom, ...user.filter((event) => snapshot.can(event))]
    }
    return []
  },
  // Whether a failure is on screen is part of the state: it stays while the next request is out.
  serializeState: (snapshot, event) =>
    keyByIncomingEdge(snapshot, event, `${jwtOf(snapshot)}|${errorIn(snapshot) !== null}|${customOf(snapshot) !== null}`),
})
/** Every outcome of a request, each followed by the next beat: the beat must hold through them all. */
const beatWalk = model.getPathsFromEvents(
  [
    { type: 'xstate.done.actor.fetchSettings', output: WITHOUT_KEYS },
    BEAT_EDGE,
    BEAT_EDGE,
    { type: 'xstate.error.actor.fetchSettings', error: new Error('Internal server error') },
    BEAT_EDGE,
    { type: 'xstate.done.actor.fetchSettings', output: WITHOUT_KEYS },
    BEAT_EDGE,
    { type: 'xstate.done.actor.fetchSettings', output: WITH_KEYS },
  ],
  // From the started machine's snapshot: the graph utilities' getPathsFromEvents does not pass the model's input.
  { fromState: createActor(apiKeysMachine, { input: { ref: REF, canReadKeys: true, canUpdateSecret: true } }).getSnapshot() },
)
const paths = [...coveringWalks(model), ...beatWalk]

const platform = usePlatform()

/** The JWT child kept quiet (its reads never answer): its reports are the model's 'jwt.status.changed' events. */
const quietJwt = jwtSecretChildMachine.provide({
  actors: {
    fetchJwtStatus: fromPromise<JwtSecretUpdateStatusResponse, { ref: string }>(() => new Promise(() => {})),
    updateJwtSecret: fromPromise<JwtSecretUpdateAccepted, { ref: string; body: JwtSecretUpdateBody }>(() => new Promise(() => {})),
  },
})

function startPanels(canReadKeys = true) {
  const clipboard: string[] = []
  const actor = createActor(
    apiKeysMachine.provide({
      actors: {
        fetchSettings,
        jwtSecret: quietJwt,
        copyButton: copyButtonMachine.provide({
          actors: { writeClipboard: fromPromise<void, { text: string }>(async ({ input }) => void clipboard.push(input.text)) },
        }),
      },
    }),
    { input: { ref: REF, canReadKeys, canUpdateSecret: canReadKeys } },
  ).start()
  const view = render(
    <>
      <ApiKeysPanel actor={actor} />
      <ProjectConfigPanel actor={actor} />
    </>,
  )
  return { actor, clipboard, view }
}

const settle = () => platform.settle()
const group = (name: string) => screen.getByRole('group', { name })

describe('API keys model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(apiKeysMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const { actor, clipboard, view } = startPanels()
      const html = () => view.container.innerHTML

      await path.test({
        states: {
          // The last outcome stays on screen while the next request is out: a failure, or 'Retrieving'.
          polling: (state) => {
            if (errorIn(state) !== null) {
              expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
                expect.stringContaining('Failed to retrieve API keys'),
                expect.stringContaining('Failed to retrieve configuration'),
              ])
            } else {
              expect(within(screen.getByRole('region', { name: 'Project API keys' })).getByRole('status')).toHaveTextContent('Retrieving API keys')
              expect(screen.queryByRole('alert')).toBeNull()
            }
            expect(html()).not.toContain(ANON_KEY)
          },
          'polling.requesting': () => {
            expect(platform.server.isPending(SETTINGS_URL)).toBe(true)
          },
          'polling.settled': (state) => {
            expect(platform.server.isPending(SETTINGS_URL)).toBe(false)
            // An answer without keys already shows the project URL.
            if (errorIn(state) === null) expect(within(group('URL')).getByText(urlOf(state))).toBeInTheDocument()
          },
          ready: (state) => {
            const jwt = jwtOf(state)
            expect(within(group('URL')).getByText(urlOf(state))).toBeInTheDocument()
            const anon = within(group('anon key'))
            expect(anon.getByText('public')).toBeInTheDocument()
            expect(within(group('service_role key')).getByText('secret')).toBeInTheDocument()
            if (jwt === 'updating') expect(screen.getAllByText(UPDATING_TEXT)).toHaveLength(3)
            if (jwt === 'failed') expect(screen.getAllByText(FAILED_TEXT)).toHaveLength(3)
            if (jwt === 'updated') expect(anon.getByText(ANON_KEY)).toBeInTheDocument()
            if (jwt !== 'updated') expect(html()).not.toContain(SERVICE_KEY)
            expect(within(group('service_role key')).getByRole('button', { name: /^(Copy|Copied)$/ })).toHaveProperty('disabled', jwt !== 'updated')
          },
          'ready.serviceKey.masked': () => {
            expect(html()).not.toContain(SERVICE_KEY)
            expect(within(group('service_role key')).getByRole('button', { name: 'Reveal' })).toBeInTheDocument()
          },
          'ready.serviceKey.revealed': () => {
            expect(within(group('service_role key')).getByText(SERVICE_KEY)).toBeInTheDocument()
          },
          'ready.jwtSecret.masked': () => {
            expect(html()).not.toContain(JWT_SECRET)
          },
          'ready.jwtSecret.revealed': () => {
            expect(within(group('JWT Secret')).getByText(JWT_SECRET)).toBeInTheDocument()
          },
        },
        events: {
          'xstate.done.actor.fetchSettings': async (step) => {
            await platform.advance(ANSWER_AFTER)
            platform.server.json(SETTINGS_URL, outputOf<unknown>(step))
            await settle()
          },
          'xstate.error.actor.fetchSettings': async () => {
            await platform.advance(ANSWER_AFTER)
            platform.server.json(SETTINGS_URL, { message: 'Internal server error' }, 500)
            await settle()
          },
          'xstate.after.pollInterval.apiKeys.polling': () => platform.nextBeat(SETTINGS_URL, BEAT, 0),
          // Facts from the JWT secret child.
          'jwt.status.changed': async (step) => act(() => void actor.send(step.event)),
          'settings.refresh': async () => act(() => void actor.send({ type: 'settings.refresh' })),
          // Nothing is read again: no settings request goes out.
          'customUrl.changed': async (step) => {
            const before = platform.startsOf(SETTINGS_URL).length
            act(() => void actor.send(step.event))
            await settle()
            expect(platform.startsOf(SETTINGS_URL)).toHaveLength(before)
          },
          'serviceKey.reveal': async () => void fireEvent.click(within(group('service_role key')).getByRole('button', { name: 'Reveal' })),
          'serviceKey.hide': async () => void fireEvent.click(within(group('service_role key')).getByRole('button', { name: 'Hide' })),
          'jwtSecret.reveal': async () => void fireEvent.click(within(group('JWT Secret')).getByRole('button', { name: 'Reveal' })),
          'jwtSecret.hide': async () => void fireEvent.click(within(group('JWT Secret')).getByRole('button', { name: 'Hide' })),
          'value.copy': async (step) => {
            const key = step.event.key
            const row = group(key === 'url' ? 'URL' : 'service_role key')
            // A walk may copy the same value again while the last copy still says 'Copied' (the clock stands still).
            fireEvent.click(within(row).getByRole('button', { name: /^Cop(y|ied)$/ }))
            await settle()
            expect(clipboard.at(-1)).toBe(key === 'url' ? urlOf(actor.getSnapshot()) : SERVICE_KEY)
            expect(within(row).getByRole('button', { name: 'Copied' })).toBeInTheDocument()
          },
        },
      })
      // However late the answers and whatever became of them, the requests went out exactly on the beat (a refresh
      // from 'ready' starts a new poll off the beat).
      if (!path.steps.some((step) => step.event.type === 'settings.refresh')) platform.expectBeat(SETTINGS_URL, BEAT, 0)
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }

  it('without service_api_keys:read every value reads the permission text and nothing can be revealed or copied', async () => {
    const { actor, view } = startPanels(false)
    await settle()
    platform.server.json(SETTINGS_URL, makeSettings({ secrets: false }))
    await settle()
    act(() => void actor.send({ type: 'jwt.status.changed', status: 'updated' }))
    for (const name of ['anon key', 'service_role key', 'JWT Secret']) {
      expect(within(group(name)).getByText(PERMISSION_TEXT)).toBeInTheDocument()
      expect(within(group(name)).getByRole('button', { name: 'Copy' })).toBeDisabled()
    }
    expect(within(group('service_role key')).getByRole('button', { name: 'Reveal' })).toBeDisabled()
    expect(within(group('anon key')).queryByRole('button', { name: 'Reveal' })).toBeNull()
    expect(within(group('URL')).getByRole('button', { name: 'Copy' })).toBeEnabled()
    expect(view.container.innerHTML).not.toContain(ANON_KEY)
    actor.stop()
  })
})
