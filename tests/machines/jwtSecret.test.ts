import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import type { JwtSecretUpdateBody, JwtSecretUpdateStatusResponse } from '../../src/contracts/keys'
import { jwtSecretMachine, selectJwtSecretView, type JwtPhase } from '../../machines/jwtSecret.machine'
import { answeringEndpoint, scriptedEndpoint, slow, usePathClock } from '../../model-tests/fakes'

type Reply = JwtSecretUpdateStatusResponse | Error | 'hang'
const status = (s: JwtPhase | null): JwtSecretUpdateStatusResponse => ({
  jwtSecretUpdateStatus: s === null ? null : { meta: { change_tracking_id: 'c-1', error: null, progress: 'Started', status: s } },
})

function start(replies: Reply[], opts: { canUpdate?: boolean; update?: () => Promise<{ change_tracking_id: string }> } = {}) {
  const poll = scriptedEndpoint<JwtSecretUpdateStatusResponse, { ref: string }>(replies, status('updating'))
  const update = answeringEndpoint<{ change_tracking_id: string }, { ref: string; body: JwtSecretUpdateBody }>(() =>
    opts.update ? opts.update() : Promise.resolve({ change_tracking_id: 'c-2' }),
  )
  const reportStatus = vi.fn()
  const refreshSettings = vi.fn()
  const actor = createActor(
    jwtSecretMachine.provide({
      actors: { fetchJwtStatus: poll.actor, updateJwtSecret: update.actor },
      actions: { reportStatus: (_, params) => reportStatus(params.status), refreshSettings },
    }),
    { input: { ref: 'abcdefghijklmnopqrst', canUpdate: opts.canUpdate ?? true } },
  ).start()
  return { actor, polls: poll.calls, bodies: update.inputs, reportStatus, refreshSettings }
}

usePathClock()

describe('JWT secret machine', () => {
  it('a project never updated is in the updated state, and says so to its parent', async () => {
    const { actor, reportStatus } = start([status(null)])
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('updated')
    expect(reportStatus).toHaveBeenCalledWith('updated')
    expect(selectJwtSecretView(actor.getSnapshot()).notice).toBeNull()
  })

  it('while updating it polls every 1 s; on updated it asks for a refetch once and stops', async () => {
    const { actor, polls, refreshSettings, reportStatus } = start([status('updating'), status('updating'), status('updating'), status('updated')])
    await vi.advanceTimersByTimeAsync(0)
    expect(reportStatus).toHaveBeenLastCalledWith('updating')
    expect(selectJwtSecretView(actor.getSnapshot()).notice?.title).toBe('Updating JWT secret...')
    await vi.advanceTimersByTimeAsync(3_000)
    expect(polls.map((p) => p.at)).toEqual([0, 1_000, 2_000, 3_000])
    expect(actor.getSnapshot().value).toBe('updated')
    expect(refreshSettings).toHaveBeenCalledTimes(1)
    expect(reportStatus).toHaveBeenLastCalledWith('updated')
    await vi.advanceTimersByTimeAsync(10_000)
    expect(polls).toHaveLength(4)
  })

  it('a failed update ends in failed, with the spec notice; no refetch', async () => {
    const { actor, refreshSettings, reportStatus } = start([status('updating'), status('failed')])
    await vi.advanceTimersByTimeAsync(1_000)
    expect(actor.getSnapshot().value).toBe('failed')
    expect(reportStatus).toHaveBeenLastCalledWith('failed')
    expect(refreshSettings).not.toHaveBeenCalled()
    expect(selectJwtSecretView(actor.getSnapshot())).toMatchObject({ phase: 'failed', notice: { tone: 'error', title: 'JWT secret update failed' } })
  })

  it('a poll that hangs is abandoned (aborted) when the next 1 s beat comes, and that read goes out on the beat', async () => {
    const { polls } = start([status('updating'), 'hang', status('updating')])
    await vi.advanceTimersByTimeAsync(1_000)
    expect(polls).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(999)
    expect(polls[1].signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(polls[1].signal.aborted).toBe(true)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(polls.map((p) => p.at)).toEqual([0, 1_000, 2_000, 3_000])
  })

  it('while updating, reads go out every 1 s exactly from the previous read\'s start, however slow the answers', async () => {
    const endpoint = scriptedEndpoint<JwtSecretUpdateStatusResponse, { ref: string }>(
      [status('updating'), slow(400, status('updating')), slow(999, new Error('500')), slow(1_500, status('updated')), 'hang', status('updated')],
      status('updated'),
    )
    const refreshSettings = vi.fn()
    const actor = createActor(jwtSecretMachine.provide({ actors: { fetchJwtStatus: endpoint.actor }, actions: { refreshSettings } }), {
      input: { ref: 'abcdefghijklmnopqrst', canUpdate: true },
    }).start()
    await vi.advanceTimersByTimeAsync(10_000)
    // The first read is the one-off check (at 0); the poll's reads start one beat in.
    expect(endpoint.requests).toEqual([0, 1_000, 2_000, 3_000, 4_000, 5_000])
    expect(endpoint.aborted).toEqual([4_000, 5_000])
    expect(actor.getSnapshot().value).toBe('updated')
    expect(refreshSettings).toHaveBeenCalledTimes(1)
  })

  it('an unreadable status is read again every second', async () => {
    const { actor, polls } = start([new Error('500'), new Error('500'), status(null)])
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('checkFailed')
    expect(selectJwtSecretView(actor.getSnapshot()).phase).toBe('unknown')
    await vi.advanceTimersByTimeAsync(2_000)
    expect(polls).toHaveLength(3)
    expect(actor.getSnapshot().value).toBe('updated')
  })

  it('rolls with an empty body; a custom secret under 32 characters is refused, 32 accepted', async () => {
    const { actor, bodies } = start([status(null), status('updating')])
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'secret.generate' })
    expect(selectJwtSecretView(actor.getSnapshot()).dialogOpen).toBe(true)
    expect(actor.getSnapshot().can({ type: 'secret.confirm', jwt_secret: 'x'.repeat(31) })).toBe(false)
    expect(actor.getSnapshot().can({ type: 'secret.confirm', jwt_secret: 'x'.repeat(32) })).toBe(true)
    actor.send({ type: 'secret.confirm', jwt_secret: 'short' })
    expect(actor.getSnapshot().value).toBe('confirming')
    actor.send({ type: 'secret.confirm' })
    expect(selectJwtSecretView(actor.getSnapshot())).toMatchObject({ submitting: true, notice: { title: 'Updating JWT secret...' } })
    await vi.advanceTimersByTimeAsync(0)
    expect(bodies.map((input) => input.body)).toEqual([{}])
    expect(actor.getSnapshot().matches('updating')).toBe(true)
    expect(actor.getSnapshot().context.changeTrackingId).toBe('c-2')
  })

  it('sends a custom secret as jwt_secret', async () => {
    const { actor, bodies } = start([status(null)])
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'secret.generate' })
    actor.send({ type: 'secret.confirm', jwt_secret: 'c'.repeat(40) })
    await vi.advanceTimersByTimeAsync(0)
    expect(bodies.map((input) => input.body)).toEqual([{ jwt_secret: 'c'.repeat(40) }])
  })

  it("a refused request shows 'Failed to update JWT secret' with the server's message and re-reads the status", async () => {
    const { actor, polls } = start([status(null), status(null)], { update: () => Promise.reject(new Error('A JWT secret update is already in progress')) })
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'secret.generate' })
    actor.send({ type: 'secret.confirm' })
    await vi.advanceTimersByTimeAsync(0)
    expect(polls).toHaveLength(2)
    expect(actor.getSnapshot().value).toBe('updated')
    expect(selectJwtSecretView(actor.getSnapshot()).notice).toEqual({
      tone: 'error',
      title: 'Failed to update JWT secret',
      detail: 'A JWT secret update is already in progress',
    })
    actor.send({ type: 'secret.generate' })
    expect(selectJwtSecretView(actor.getSnapshot()).notice).toBeNull()
  })

  it('cancelling closes the dialog and re-reads the status; a failed update can be retried', async () => {
    const { actor } = start([status('failed'), status('failed')])
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'secret.generate' })
    expect(actor.getSnapshot().value).toBe('confirming')
    actor.send({ type: 'secret.cancel' })
    expect(selectJwtSecretView(actor.getSnapshot()).dialogOpen).toBe(false)
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('failed')
  })

  it('a member who may not update cannot open the dialog', async () => {
    const { actor } = start([status(null)], { canUpdate: false })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().can({ type: 'secret.generate' })).toBe(false)
    actor.send({ type: 'secret.generate' })
    expect(actor.getSnapshot().value).toBe('updated')
  })
})
