import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import {
  FAILED_TEXT,
  PERMISSION_TEXT,
  UPDATING_TEXT,
  apiKeysMachine,
  jwtSecretChildMachine,
  selectApiKeysView,
  selectProjectConfigView,
} from '../../machines/apiKeys.machine'
import { copyButtonMachine } from '../../machines/copyButton.machine'
import type { JwtSecretUpdateAccepted, JwtSecretUpdateBody, JwtSecretUpdateStatusResponse, ProjectSettings } from '../../src/contracts/keys'
import { REF } from '../fixtures'
import { ANON_KEY, JWT_SECRET, SERVICE_KEY, makeSettings } from '../fixtures.keys'
import { deferredActor } from '../../model-tests/fakes'

type Reply = ProjectSettings | Error | 'hang' | { after: number; reply: ProjectSettings | Error }

function start(replies: Reply[], opts: { canReadKeys?: boolean; jwt?: 'idle' | 'real'; jwtReplies?: JwtSecretUpdateStatusResponse[] } = {}) {
  const requests: Array<{ at: number; signal: AbortSignal }> = []
  const clipboard: string[] = []
  const canReadKeys = opts.canReadKeys ?? true
  const jwtReplies = opts.jwtReplies ?? []
  const actor = createActor(
    apiKeysMachine.provide({
      actors: {
        fetchSettings: fromPromise<ProjectSettings, { ref: string }>(({ signal }) => {
          requests.push({ at: Date.now(), signal })
          const reply = replies.shift() ?? makeSettings()
          if (reply === 'hang') return new Promise(() => {})
          const settle = (r: ProjectSettings | Error) => (r instanceof Error ? Promise.reject(r) : Promise.resolve(r))
          if ('after' in reply) return new Promise((resolve) => setTimeout(resolve, reply.after)).then(() => settle(reply.reply))
          return settle(reply)
        }),
        jwtSecret:
          opts.jwt === 'real'
            ? jwtSecretChildMachine.provide({
                actors: {
                  fetchJwtStatus: fromPromise(async () => jwtReplies.shift() ?? { jwtSecretUpdateStatus: null }),
                  updateJwtSecret: fromPromise(async () => ({ change_tracking_id: 'c' })),
                },
              })
            : // Idle: its reads never answer, so it reports nothing (the tests send 'jwt.status.changed' themselves).
              jwtSecretChildMachine.provide({
                actors: {
                  fetchJwtStatus: deferredActor<JwtSecretUpdateStatusResponse, { ref: string }>('fetchJwtStatus').logic,
                  updateJwtSecret: deferredActor<JwtSecretUpdateAccepted, { ref: string; body: JwtSecretUpdateBody }>('updateJwtSecret').logic,
                },
              }),
        copyButton: copyButtonMachine.provide({
          actors: { writeClipboard: fromPromise<void, { text: string }>(async ({ input }) => void clipboard.push(input.text)) },
        }),
      },
    }),
    { input: { ref: REF, canReadKeys, canUpdateSecret: canReadKeys } },
  ).start()
  return { actor, requests, clipboard }
}

beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => vi.useRealTimers())

describe('API keys machine', () => {
  it('polls the settings every 2 s while there are no keys, and stops once they exist', async () => {
    const { actor, requests } = start([makeSettings({ keys: false }), makeSettings({ keys: false }), makeSettings()])
    await vi.advanceTimersByTimeAsync(0)
    expect(selectApiKeysView(actor.getSnapshot())).toEqual({ phase: 'retrieving' })
    // The URL is known before the keys.
    expect(selectProjectConfigView(actor.getSnapshot())).toEqual({ phase: 'retrieving', url: `http://localhost/rest/${REF}` })
    await vi.advanceTimersByTimeAsync(4_000)
    expect(requests.map((r) => r.at)).toEqual([0, 2_000, 4_000])
    expect(actor.getSnapshot().matches('ready')).toBe(true)
    await vi.advanceTimersByTimeAsync(20_000)
    expect(requests).toHaveLength(3)
  })

  it('a failure shows the failed phase and keeps polling on the 2 s beat; the error stays while the next request is out', async () => {
    const { actor, requests } = start([new Error('Request failed with status 500'), { after: 1_500, reply: makeSettings() }])
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().context.error).toBe('Request failed with status 500')
    expect(selectApiKeysView(actor.getSnapshot())).toEqual({ phase: 'failed' })
    expect(selectProjectConfigView(actor.getSnapshot())).toEqual({ phase: 'failed' })
    await vi.advanceTimersByTimeAsync(2_000)
    expect(requests.map((r) => r.at)).toEqual([0, 2_000])
    // The next request is out: the failure stays on screen, no flicker back to 'retrieving'.
    await vi.advanceTimersByTimeAsync(1_499)
    expect(selectApiKeysView(actor.getSnapshot())).toEqual({ phase: 'failed' })
    expect(selectProjectConfigView(actor.getSnapshot())).toEqual({ phase: 'failed' })
    await vi.advanceTimersByTimeAsync(1)
    expect(actor.getSnapshot().matches('ready')).toBe(true)
    expect(actor.getSnapshot().context.error).toBeNull()
  })

  it('the beat is the time-out: a request unanswered for 2 s is aborted, shows the failure, and the next starts at exactly 2 s', async () => {
    const { actor, requests } = start(['hang', 'hang', makeSettings({ keys: false }), makeSettings()])
    await vi.advanceTimersByTimeAsync(1_999)
    expect(requests[0].signal.aborted).toBe(false)
    expect(selectApiKeysView(actor.getSnapshot())).toEqual({ phase: 'retrieving' })
    await vi.advanceTimersByTimeAsync(1)
    expect(requests[0].signal.aborted).toBe(true)
    expect(requests.map((r) => r.at)).toEqual([0, 2_000])
    expect(actor.getSnapshot().context.error).toBe('The request timed out')
    expect(selectApiKeysView(actor.getSnapshot())).toEqual({ phase: 'failed' })
    await vi.advanceTimersByTimeAsync(2_000)
    expect(requests[1].signal.aborted).toBe(true)
    expect(requests.map((r) => r.at)).toEqual([0, 2_000, 4_000])
    // An answer without keys replaces the failure.
    expect(actor.getSnapshot().context.error).toBeNull()
    expect(selectApiKeysView(actor.getSnapshot())).toEqual({ phase: 'retrieving' })
    await vi.advanceTimersByTimeAsync(2_000)
    expect(requests.map((r) => r.at)).toEqual([0, 2_000, 4_000, 6_000])
    expect(actor.getSnapshot().matches('ready')).toBe(true)
    await vi.advanceTimersByTimeAsync(20_000)
    expect(requests).toHaveLength(4)
  })

  it('keeps the exact 2 s beat, counted from each request\'s start, when answers are slow or fail late', async () => {
    const { actor, requests } = start([
      { after: 1_500, reply: makeSettings({ keys: false }) },
      { after: 1_999, reply: new Error('Request failed with status 500') },
      { after: 1_500, reply: makeSettings({ keys: false }) },
      makeSettings(),
    ])
    await vi.advanceTimersByTimeAsync(6_000)
    expect(requests.map((r) => r.at)).toEqual([0, 2_000, 4_000, 6_000])
    expect(requests.some((r) => r.signal.aborted)).toBe(false)
    expect(actor.getSnapshot().matches('ready')).toBe(true)
  })

  it('keys stay masked and locked until the JWT secret is known to be updated', async () => {
    const { actor } = start([makeSettings()])
    await vi.advanceTimersByTimeAsync(0)
    const rows = () => {
      const view = selectApiKeysView(actor.getSnapshot())
      if (view.phase !== 'ready') throw new Error(`the keys are not ready: ${view.phase}`)
      return view.rows
    }
    expect(rows()[1].shown).toEqual({ kind: 'masked' })
    expect(actor.getSnapshot().can({ type: 'serviceKey.reveal' })).toBe(false)
    expect(actor.getSnapshot().can({ type: 'value.copy', key: 'anon' })).toBe(false)
    expect(actor.getSnapshot().can({ type: 'value.copy', key: 'url' })).toBe(true)
    actor.send({ type: 'jwt.status.changed', status: 'updated' })
    expect(actor.getSnapshot().can({ type: 'serviceKey.reveal' })).toBe(true)
    actor.send({ type: 'serviceKey.reveal' })
    expect(rows()[1].shown).toEqual({ kind: 'value', text: SERVICE_KEY })
    expect(rows()[0].shown).toEqual({ kind: 'value', text: ANON_KEY })
    actor.send({ type: 'jwtSecret.reveal' })
    expect(selectProjectConfigView(actor.getSnapshot())).toMatchObject({ jwtSecret: { kind: 'value', text: JWT_SECRET }, revealed: true })

    actor.send({ type: 'jwt.status.changed', status: 'updating' })
    expect(rows().map((r) => r.shown)).toEqual([
      { kind: 'message', text: UPDATING_TEXT },
      { kind: 'message', text: UPDATING_TEXT },
    ])
    expect(actor.getSnapshot().can({ type: 'value.copy', key: 'service_role' })).toBe(false)
    actor.send({ type: 'jwt.status.changed', status: 'failed' })
    expect(rows()[0].shown).toEqual({ kind: 'message', text: FAILED_TEXT })
    actor.send({ type: 'jwt.status.changed', status: 'updated' })
    // A status change masks again what was revealed.
    expect(rows()[1].shown).toEqual({ kind: 'masked' })
    expect(selectProjectConfigView(actor.getSnapshot())).toMatchObject({ jwtSecret: { kind: 'masked' }, revealed: false })
  })

  it('without service_api_keys:read every value reads the permission text and nothing can be revealed or copied', async () => {
    const { actor } = start([makeSettings({ secrets: false })], { canReadKeys: false })
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'jwt.status.changed', status: 'updated' })
    const view = selectApiKeysView(actor.getSnapshot())
    expect(view.phase === 'ready' && view.rows.map((r) => r.shown)).toEqual([
      { kind: 'message', text: PERMISSION_TEXT },
      { kind: 'message', text: PERMISSION_TEXT },
    ])
    expect(selectProjectConfigView(actor.getSnapshot())).toMatchObject({ jwtSecret: { kind: 'message', text: PERMISSION_TEXT } })
    for (const key of ['anon', 'service_role', 'jwt_secret'] as const) expect(actor.getSnapshot().can({ type: 'value.copy', key })).toBe(false)
    expect(actor.getSnapshot().can({ type: 'serviceKey.reveal' })).toBe(false)
    expect(actor.getSnapshot().can({ type: 'jwtSecret.reveal' })).toBe(false)
  })

  it("copies through the copy button child: 'Copied' for 2 s", async () => {
    const { actor, clipboard } = start([makeSettings()])
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'jwt.status.changed', status: 'updated' })
    actor.send({ type: 'value.copy', key: 'service_role' })
    await vi.advanceTimersByTimeAsync(0)
    expect(clipboard).toEqual([SERVICE_KEY])
    const copier = actor.getSnapshot().children.copyServiceRoleKey
    expect(copier?.getSnapshot().value).toBe('copied')
    await vi.advanceTimersByTimeAsync(2_000)
    expect(copier?.getSnapshot().value).toBe('idle')
  })

  it('with the real JWT child: its status reaches the parent, and a finished update refetches the settings', async () => {
    const updating: JwtSecretUpdateStatusResponse = {
      jwtSecretUpdateStatus: { meta: { change_tracking_id: 'c', error: null, progress: 'Started', status: 'updating' } },
    }
    const updated: JwtSecretUpdateStatusResponse = {
      jwtSecretUpdateStatus: { meta: { change_tracking_id: 'c', error: null, progress: 'Completed', status: 'updated' } },
    }
    const { actor, requests } = start([makeSettings(), makeSettings({ anon: 'new-anon' })], { jwt: 'real', jwtReplies: [updating, updated] })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().context.jwtStatus).toBe('updating')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(actor.getSnapshot().context.jwtStatus).toBe('updated')
    expect(requests).toHaveLength(2)
    const view = selectApiKeysView(actor.getSnapshot())
    expect(view.phase === 'ready' && view.rows[0].shown).toEqual({ kind: 'value', text: 'new-anon' })
  })

  it('stopping leaves no timer and no request behind', async () => {
    const { actor, requests } = start(['hang'])
    actor.stop()
    expect(requests[0].signal.aborted).toBe(true)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(requests).toHaveLength(1)
  })
})
