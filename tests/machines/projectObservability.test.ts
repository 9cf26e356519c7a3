import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import type { DailyUsage, RequestLogEntry } from '../../src/contracts/measured'
import { projectLogsMachine, selectProjectLogsView, type LogFilter } from '../../machines/projectLogs.machine'
import { projectReportsMachine, selectProjectReportsView, type ReportRange } from '../../machines/projectReports.machine'
import { REF } from '../fixtures'
import { DAYS, LOG_ENTRIES } from '../fixtures.usage'
import { answeringEndpoint, usePathClock } from '../../model-tests/fakes'

usePathClock()

describe('projectReports machine', () => {
  const start = (fetch: (input: { ref: string; organizationSlug: string; days: ReportRange }, signal: AbortSignal) => Promise<DailyUsage[]>) =>
    createActor(
      projectReportsMachine.provide({
        actors: { fetchProjectDailyUsage: answeringEndpoint(fetch).actor },
      }),
      { input: { ref: REF, organizationSlug: 'demo-free' } },
    ).start()

  it('loads the last 7 days, charts requests and mean response times, and loads 30 days when chosen', async () => {
    const calls: number[] = []
    const actor = start(async (input) => (calls.push(input.days), DAYS))
    await vi.advanceTimersByTimeAsync(0)
    const view = selectProjectReportsView(actor.getSnapshot())
    if (view.phase !== 'loaded') throw new Error(view.phase)
    expect(view.totalRequests).toBe(49)
    expect(view.requests.points.map((p) => p.value)).toEqual([0, 42, 7])
    expect(view.responseTime.points.map((p) => p.value)).toEqual([null, 3.5, 150])
    expect(view.responseTime.format(3.5)).toBe('3.5 ms')
    actor.send({ type: 'range.select', days: 30 })
    expect(selectProjectReportsView(actor.getSnapshot())).toEqual({ phase: 'loading', days: 30 })
    await vi.advanceTimersByTimeAsync(0)
    expect(calls).toEqual([7, 30])
    actor.send({ type: 'reports.refresh' })
    await vi.advanceTimersByTimeAsync(0)
    expect(calls).toEqual([7, 30, 30])
    actor.stop()
  })

  it('a time-out and a failure are reported; Refresh tries again', async () => {
    let attempt = 0
    const actor = start((_, signal) => {
      attempt += 1
      if (attempt === 1) return new Promise((_r, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))))
      if (attempt === 2) return Promise.reject(new Error('Internal server error'))
      return Promise.resolve(DAYS)
    })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(selectProjectReportsView(actor.getSnapshot())).toMatchObject({ phase: 'failed', error: 'The request timed out' })
    actor.send({ type: 'reports.refresh' })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectProjectReportsView(actor.getSnapshot())).toMatchObject({ phase: 'failed', error: 'Internal server error' })
    actor.send({ type: 'reports.refresh' })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('loaded')
    actor.stop()
  })
})

describe('projectLogs machine', () => {
  const start = (fetch: (input: { ref: string; filter: LogFilter }, signal: AbortSignal) => Promise<RequestLogEntry[]>) =>
    createActor(
      projectLogsMachine.provide({
        actors: { fetchRequestLog: answeringEndpoint(fetch).actor },
      }),
      { input: { ref: REF } },
    ).start()

  it('loads every status, keeps the entries shown while a filter or a refresh loads, drops a stale answer', async () => {
    const calls: Array<{ filter: LogFilter; signal: AbortSignal }> = []
    const answers: Array<(entries: RequestLogEntry[]) => void> = []
    const actor = start((input, signal) => (calls.push({ filter: input.filter, signal }), new Promise((resolve) => answers.push(resolve))))
    answers[0](LOG_ENTRIES)
    await vi.advanceTimersByTimeAsync(0)
    expect(selectProjectLogsView(actor.getSnapshot())).toEqual({ phase: 'loaded', filter: 'all', entries: LOG_ENTRIES })
    actor.send({ type: 'filter.select', filter: '4xx' })
    expect(selectProjectLogsView(actor.getSnapshot())).toEqual({ phase: 'loading', filter: '4xx', entries: LOG_ENTRIES })
    actor.send({ type: 'filter.select', filter: '2xx' })
    expect(calls.map((c) => [c.filter, c.signal.aborted])).toEqual([['all', false], ['4xx', true], ['2xx', false]])
    answers[1]([LOG_ENTRIES[0]])
    answers[2]([LOG_ENTRIES[2]])
    await vi.advanceTimersByTimeAsync(0)
    expect(selectProjectLogsView(actor.getSnapshot())).toEqual({ phase: 'loaded', filter: '2xx', entries: [LOG_ENTRIES[2]] })
    actor.send({ type: 'logs.refresh' })
    expect(calls.at(-1)?.filter).toBe('2xx')
    actor.stop()
  })

  it('a failed refresh says why and keeps the filter; Refresh mends it', async () => {
    let fail = true
    const actor = start(async () => {
      if (fail) throw new Error('Project not found')
      return LOG_ENTRIES
    })
    actor.send({ type: 'filter.select', filter: '5xx' })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectProjectLogsView(actor.getSnapshot())).toEqual({ phase: 'failed', filter: '5xx', error: 'Project not found' })
    fail = false
    actor.send({ type: 'logs.refresh' })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectProjectLogsView(actor.getSnapshot())).toMatchObject({ phase: 'loaded', filter: '5xx' })
    actor.stop()
  })
})
