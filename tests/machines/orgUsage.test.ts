import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { dailySeriesOf, formatBytes, formatUsage, orgUsageMachine, selectOrgUsageView, type OrgUsageData } from '../../machines/orgUsage.machine'
import { REF } from '../fixtures'
import { DAYS, OTHER_REF, USAGE_DATA } from '../fixtures.usage'
import { answeringEndpoint, usePathClock } from '../../model-tests/fakes'

usePathClock()

function start(fetch: (input: { slug: string; projectRef: string }, signal: AbortSignal) => Promise<OrgUsageData>) {
  const actor = createActor(
    orgUsageMachine.provide({ actors: { fetchOrgUsage: answeringEndpoint(fetch).actor } }),
    { input: { slug: 'demo-free' } },
  ).start()
  return actor
}

describe('orgUsage machine', () => {
  it('loads every project of the organization first, then the loaded view marks the exceeded metrics', async () => {
    const calls: Array<{ slug: string; projectRef: string }> = []
    const actor = start(async (input) => (calls.push(input), USAGE_DATA))
    expect(selectOrgUsageView(actor.getSnapshot()).phase).toBe('loading')
    await vi.advanceTimersByTimeAsync(0)
    expect(calls).toEqual([{ slug: 'demo-free', projectRef: '' }])
    const view = selectOrgUsageView(actor.getSnapshot())
    if (view.phase !== 'loaded') throw new Error(view.phase)
    expect(view.rows.filter((r) => r.exceeded).map((r) => r.metric)).toEqual(['EGRESS'])
    expect(view.rows[0]).toMatchObject({ label: 'Egress', usage: '12.5 GB', included: '5.0 GB' })
    // Only the read-only project's banner shows on the usage page (a CPU warning alone is hidden there).
    expect(view.banners.map((b) => [b.project, b.title])).toEqual([['Weekend Hackathon', 'Your project is in read-only mode']])
    actor.stop()
  })

  it('choosing a project loads again for it, dropping an answer still on its way, and keeps the choice', async () => {
    const signals: AbortSignal[] = []
    let answer: (data: OrgUsageData) => void = () => {}
    const actor = start((_, signal) => (signals.push(signal), new Promise((resolve) => (answer = resolve))))
    actor.send({ type: 'project.select', ref: REF })
    expect(signals[0].aborted).toBe(true)
    answer({ ...USAGE_DATA, warnings: [] })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().context.projectRef).toBe(REF)
    const view = selectOrgUsageView(actor.getSnapshot())
    if (view.phase !== 'loaded') throw new Error(view.phase)
    // The filter narrows the banners to the chosen project.
    expect(view.banners).toEqual([])
    actor.send({ type: 'project.select', ref: OTHER_REF })
    expect(selectOrgUsageView(actor.getSnapshot())).toMatchObject({ phase: 'loading', projectRef: OTHER_REF, projects: USAGE_DATA.projects })
    actor.stop()
  })

  it('a request unanswered after 10 s is abandoned and reported; Try again loads again', async () => {
    let attempt = 0
    const actor = start((_, signal) => (attempt++ === 0 ? new Promise((_r, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))) : Promise.resolve(USAGE_DATA)))
    await vi.advanceTimersByTimeAsync(9_999)
    expect(actor.getSnapshot().value).toBe('loading')
    await vi.advanceTimersByTimeAsync(1)
    expect(selectOrgUsageView(actor.getSnapshot())).toMatchObject({ phase: 'failed', error: 'The request timed out' })
    actor.send({ type: 'usage.retry' })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('loaded')
    actor.stop()
  })

  it("a failed load says the server's message", async () => {
    const actor = start(async () => {
      throw new Error('Organization not found')
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectOrgUsageView(actor.getSnapshot())).toMatchObject({ phase: 'failed', error: 'Organization not found' })
    actor.stop()
  })
})

describe('usage figures as shown', () => {
  it('bytes in the largest unit, counts with separators, GB metrics from their GB figure', () => {
    expect([0, 812, 12_800, 25 * 1024 ** 2, 1.5 * 1024 ** 3].map(formatBytes)).toEqual(['0 B', '812 B', '12.5 kB', '25.0 MB', '1.5 GB'])
    expect(formatUsage('MONTHLY_ACTIVE_USERS', 50_000)).toBe('50,000')
    expect(formatUsage('EGRESS', 0.5)).toBe('512 MB')
  })

  it('a daily chart for egress and database size only (the metrics measured per day)', () => {
    expect(dailySeriesOf('EGRESS', DAYS)?.points.map((p) => p.value)).toEqual([0, 12_800, 2_048])
    expect(dailySeriesOf('DATABASE_SIZE', DAYS)?.points.map((p) => p.value)).toEqual([null, 25 * 1024 ** 2, null])
    expect(dailySeriesOf('MONTHLY_ACTIVE_USERS', DAYS)).toBeNull()
  })
})
