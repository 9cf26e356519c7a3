/**
 * The usage, Reports and Logs pages under bad answers, through the real HTTP client and contracts: any failed,
 * timed-out or malformed answer shows a clear message with Try again (never a blank page), keeps what the person
 * chose (the project, the range, the status filter), and Try again shows the figures once the platform answers.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { liveOrgUsageMachine } from '../../src/api/live/orgUsage'
import { liveProjectLogsMachine } from '../../src/api/live/projectLogs'
import { liveProjectReportsMachine } from '../../src/api/live/projectReports'
import { OrgUsage } from '../../src/views/org/usage/OrgUsagePage'
import { Logs } from '../../src/views/project/observability/LogsPage'
import { Reports } from '../../src/views/project/observability/ReportsPage'
import { REF } from '../fixtures'
import { DAYS, LOG_ENTRIES, USAGES, WARNINGS } from '../fixtures.usage'
import { BAD_ANSWER_MESSAGES, BAD_ANSWERS, badAnswerCases, json, stubFetch, useFakeClock, type Answer } from '../fakePlatform'

useFakeClock(Date.parse('2026-11-03T12:00:00Z'))

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
const PROJECT = { id: 1, ref: REF, name: 'Recipe Box', organization_id: 1, organization_slug: 'demo-free', status: 'ACTIVE_HEALTHY', restUrl: '', kpsVersion: null, is_branch_enabled: false, parent_project_ref: null, postgrestStatus: 'ONLINE', region: 'us-east-1', inserted_at: '2026-11-01T00:00:00Z', db_version: '15.6', status_changed_at: '2026-11-01T00:00:00Z' }

const DAILY = /\/organizations\/demo-free\/usage\/daily$/
const USAGE = /\/organizations\/demo-free\/usage$/
const usageFixed: Array<[RegExp, Answer]> = [
  [DAILY, json({ days: DAYS })],
  [/\/platform\/projects$/, json([PROJECT])],
  [/\/platform\/projects-resource-warnings$/, json(WARNINGS)],
]

describe('usage page under bad answers', () => {
  const cases: Array<[string, Answer, RegExp]> = [
    ...badAnswerCases(),
    ['a metric the contract does not know', json({ usages: [{ ...USAGES[0], metric: 'BANDWIDTH' }] }), /Malformed response .* at usages\.0\.metric/],
    ['a usage that is a string', json({ usages: [{ ...USAGES[0], usage: '12' }] }), /Malformed response .* at usages\.0\.usage/],
  ]
  it.each(cases)('%s: a clear error, the project kept; Try again shows the usage', async (_name, bad, message) => {
    const fetch = stubFetch({ polled: USAGE, answers: [json({ usages: USAGES }), bad], fallback: json({ usages: USAGES }), fixed: usageFixed })
    const actor = createActor(liveOrgUsageMachine, { input: { slug: 'demo-free' } }).start()
    render(<OrgUsage actor={actor} />)
    await advance(0)
    fireEvent.change(screen.getByLabelText('Project'), { target: { value: REF } })
    await advance(10_000)
    const alert = screen.getByRole('alert')
    expect(within(alert).getByRole('heading')).toHaveTextContent('Failed to load usage')
    expect(alert).toHaveTextContent(message)
    expect(screen.getByLabelText('Project')).toHaveValue(REF)
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    await advance(0)
    expect(screen.getByRole('table', { name: 'Usage per metric' })).toBeInTheDocument()
    expect(fetch.calls).toHaveLength(3)
    actor.stop()
  })

  it('malformed daily figures are an error too, never a half-drawn chart', async () => {
    stubFetch({
      polled: DAILY,
      answers: [json({ days: [{ ...DAYS[0], requests: -1 }] })],
      fallback: json({ days: DAYS }),
      fixed: [[USAGE, json({ usages: USAGES })], ...usageFixed.slice(1)],
    })
    const actor = createActor(liveOrgUsageMachine, { input: { slug: 'demo-free' } }).start()
    render(<OrgUsage actor={actor} />)
    await advance(0)
    expect(screen.getByRole('alert')).toHaveTextContent(/Malformed response .* at days\.0\.requests/)
    expect(screen.queryByRole('img')).toBeNull()
    actor.stop()
  })
})

describe('Reports under bad answers', () => {
  it.each(BAD_ANSWERS)('%s: a clear error with the range kept; Try again shows the charts', async (name, bad) => {
    const fetch = stubFetch({ polled: DAILY, answers: [json({ days: DAYS }), bad], fallback: json({ days: DAYS }) })
    const actor = createActor(liveProjectReportsMachine, { input: { ref: REF, organizationSlug: 'demo-free' } }).start()
    render(<Reports actor={actor} />)
    await advance(0)
    fireEvent.click(screen.getByRole('button', { name: 'Last 30 days' }))
    await advance(10_000)
    const alert = screen.getByRole('alert')
    expect(alert).toHaveTextContent('Failed to load reports')
    expect(alert).toHaveTextContent(BAD_ANSWER_MESSAGES[name])
    expect(screen.getByRole('button', { name: 'Last 30 days' })).toHaveAttribute('aria-pressed', 'true')
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    await advance(0)
    expect(screen.getAllByRole('img')).toHaveLength(2)
    expect(fetch.calls).toHaveLength(3)
    actor.stop()
  })
})

describe('Logs under bad answers', () => {
  const LOGS = /\/projects\/[a-z]{20}\/logs\/requests$/
  const cases: Array<[string, Answer, RegExp]> = [
    ...badAnswerCases(),
    ['an entry without a status', json({ entries: [{ ...LOG_ENTRIES[0], status: undefined }] }), /Malformed response .* at entries\.0\.status/],
  ]
  it.each(cases)('%s: a clear error with the filter kept; Refresh shows the log', async (_name, bad, message) => {
    const fetch = stubFetch({ polled: LOGS, answers: [json({ entries: LOG_ENTRIES }), bad], fallback: json({ entries: LOG_ENTRIES }) })
    const actor = createActor(liveProjectLogsMachine, { input: { ref: REF } }).start()
    render(<Logs actor={actor} />)
    await advance(0)
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: '4xx' } })
    await advance(10_000)
    const alert = screen.getByRole('alert')
    expect(alert).toHaveTextContent('Failed to load logs')
    expect(alert).toHaveTextContent(message)
    expect(screen.getByLabelText('Status')).toHaveValue('4xx')
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
    await advance(0)
    expect(within(screen.getByRole('table', { name: 'Requests' })).getAllByRole('row')).toHaveLength(4)
    expect(fetch.calls).toHaveLength(3)
    actor.stop()
  })
})
