import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import type { DatabaseUpgradeStatus, DatabaseUpgradeStatusResponse, ProjectUpgradeEligibilityResponse } from '../../src/contracts/upgrade'
import { formatUtc, selectUpgradingView, upgradingMachine } from '../../machines/upgrading.machine'
import { scriptedEndpoint, slow, usePathClock } from '../../model-tests/fakes'
import { upgradeEligibility } from '../fixtures'

const SINCE = '2026-11-21T10:00:00.000Z'
const status = (overrides: Partial<DatabaseUpgradeStatus> = {}): DatabaseUpgradeStatusResponse => ({
  databaseUpgradeStatus: {
    initiated_at: SINCE,
    latest_status_at: SINCE,
    target_version: 17,
    status: 'upgrading',
    progress: '0_requested',
    error: null,
    ...overrides,
  },
})
const ELIGIBILITY = upgradeEligibility([], 'supabase-postgres-17.4.1.042')

type Reply = DatabaseUpgradeStatusResponse | Error | 'hang'

function start(replies: Reply[]) {
  const upgradeStatus = scriptedEndpoint<DatabaseUpgradeStatusResponse, { ref: string }>(replies, status())
  const eligibility = scriptedEndpoint<ProjectUpgradeEligibilityResponse, { ref: string }>([], ELIGIBILITY)
  const refreshProject = vi.fn()
  const actor = createActor(
    upgradingMachine.provide({
      actors: { fetchUpgradeStatus: upgradeStatus.actor, fetchEligibility: eligibility.actor },
      actions: { refreshProject },
    }),
    { input: { ref: 'abcdefghijklmnopqrst', since: SINCE } },
  ).start()
  return { actor, requests: upgradeStatus.calls, eligibilityReads: eligibility.requests, refreshProject }
}

usePathClock({ now: Date.parse(SINCE) + 1_000 })

describe('upgrading machine', () => {
  it('reads the status at once, then every 5 seconds', async () => {
    const t0 = Date.now()
    const { requests } = start([])
    await vi.advanceTimersByTimeAsync(0)
    expect(requests.map((r) => r.at - t0)).toEqual([0])
    await vi.advanceTimersByTimeAsync(20_000)
    expect(requests.map((r) => r.at - t0)).toEqual([0, 5_000, 10_000, 15_000, 20_000])
  })

  it('abandons a read after 3 seconds (aborted) and reads again on the beat, 5 seconds after its start', async () => {
    const t0 = Date.now()
    const { actor, requests } = start(['hang'])
    await vi.advanceTimersByTimeAsync(2_999)
    expect(requests[0].signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(requests[0].signal.aborted).toBe(true)
    expect(actor.getSnapshot().value).toEqual({ running: { polling: 'settled' } })
    await vi.advanceTimersByTimeAsync(1_999)
    expect(requests).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(requests.map((r) => r.at - t0)).toEqual([0, 5_000])
    expect(requests[1].signal.aborted).toBe(false)
  })

  it('reads every 5 s exactly from the previous read\'s start, however slow or lost the answers', async () => {
    const t0 = Date.now()
    const endpoint = scriptedEndpoint<DatabaseUpgradeStatusResponse, { ref: string }>(
      [slow(1_200, status()), slow(2_999, new Error('500')), 'hang', slow(3_500, status()), status()],
      status(),
    )
    const actor = createActor(upgradingMachine.provide({ actors: { fetchUpgradeStatus: endpoint.actor } }), {
      input: { ref: 'abcdefghijklmnopqrst', since: SINCE },
    }).start()
    await vi.advanceTimersByTimeAsync(25_000)
    expect(endpoint.requests.map((at) => at - t0)).toEqual([0, 5_000, 10_000, 15_000, 20_000, 25_000])
    expect(endpoint.aborted.map((at) => at - t0)).toEqual([13_000, 18_000])
    actor.stop()
  })

  it('follows the progress: steps before the index completed, the index in progress, the rest pending', async () => {
    const { actor } = start([status({ progress: '3_detached_volume_from_upgraded_instance' })])
    await vi.advanceTimersByTimeAsync(0)
    const view = selectUpgradingView(actor.getSnapshot())
    expect(view.phase).toBe('running')
    if (view.phase !== 'running') return
    expect(view.steps.map((s) => s.state)).toEqual(['completed', 'completed', 'completed', 'inProgress', 'pending', 'pending', 'pending', 'pending'])
    expect(view.steps[0].label).toBe('Prepare new server')
    expect(view.steps[7].label).toBe('Optimize database')
    expect(view.startedUtc).toBe('21 Nov 2026 10:00:00')
  })

  it('errors keep polling and never show success', async () => {
    const { actor, requests } = start([new Error('500'), new Error('malformed'), status()])
    await vi.advanceTimersByTimeAsync(10_000)
    expect(requests).toHaveLength(3)
    expect(actor.getSnapshot().matches('running')).toBe(true)
  })

  it('when upgraded: stops polling, reads the eligibility again, and Return to project asks for a refresh', async () => {
    const { actor, requests, eligibilityReads, refreshProject } = start([status(), status({ status: 'upgraded', progress: '8_attached_volume_to_upgraded_instance' })])
    await vi.advanceTimersByTimeAsync(5_000)
    expect(actor.getSnapshot().value).toBe('upgraded')
    expect(eligibilityReads).toHaveLength(1)
    expect(actor.getSnapshot().children.elapsed).toBeUndefined()
    expect(selectUpgradingView(actor.getSnapshot())).toEqual({ phase: 'upgraded', targetVersion: 17, installedVersion: 'supabase-postgres-17.4.1.042' })
    await vi.advanceTimersByTimeAsync(30_000)
    expect(requests).toHaveLength(2)
    expect(refreshProject).not.toHaveBeenCalled()
    actor.send({ type: 'project.return' })
    expect(refreshProject).toHaveBeenCalledTimes(1)
  })

  it('when failed: the failure page with a prefilled support link', async () => {
    const { actor } = start([status({ status: 'failed', progress: '2_launched_upgraded_instance', error: '2_volume_detachchment_from_upgraded_instance_failed' })])
    await vi.advanceTimersByTimeAsync(0)
    const view = selectUpgradingView(actor.getSnapshot())
    expect(view.phase).toBe('failed')
    if (view.phase !== 'failed') return
    const url = new URL(view.supportHref, 'http://x')
    expect(url.pathname).toBe('/support/new')
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ category: 'Database_unresponsive', ref: 'abcdefghijklmnopqrst', subject: 'Upgrade failed for project' })
    expect(url.searchParams.get('message')).toContain('Initiated at: 21 Nov 2026 10:00:00 (UTC)')
    expect(url.searchParams.get('message')).toContain('Target Postgres version: 17')
    expect(url.searchParams.get('message')).toContain('Error: 2_volume_detachchment_from_upgraded_instance_failed')
  })

  it('does not take the outcome of an earlier upgrade as this one', async () => {
    const earlier = '2026-11-20T10:00:00.000Z'
    const { actor } = start([status({ status: 'upgraded', initiated_at: earlier }), status({ status: 'failed', initiated_at: earlier })])
    await vi.advanceTimersByTimeAsync(5_000)
    expect(actor.getSnapshot().matches('running')).toBe(true)
    const view = selectUpgradingView(actor.getSnapshot())
    expect(view.phase === 'running' && view.steps.every((s, i) => (i === 0 ? s.state === 'inProgress' : s.state === 'pending'))).toBe(true)
  })

  it('runs an elapsed child while running, counting from the start', async () => {
    const { actor } = start([])
    await vi.advanceTimersByTimeAsync(0)
    const elapsed = actor.getSnapshot().children.elapsed
    expect(elapsed).toBeDefined()
    expect(elapsed!.getSnapshot().context.since).toBe(Date.parse(SINCE))
  })

  it('formats times as DD MMM YYYY HH:mm:ss in UTC', () => {
    expect(formatUtc('2026-01-05T03:04:05.000Z')).toBe('05 Jan 2026 03:04:05')
    expect(formatUtc('not a date')).toBe('not a date')
  })
})
