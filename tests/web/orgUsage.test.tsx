/**
 * The usage page as a person sees it: the exceeded rule of spec section 5 on each row (capped, available in plan,
 * not unlimited, usage greater than the free units — 0 if missing), the charts with their table fallback, the
 * read-only banner, the skeleton while loading, and the project filter.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { orgUsageMachine, type OrgUsageData } from '../../machines/orgUsage.machine'
import type { UsageRecord } from '../../src/contracts/usage'
import { OrgUsage } from '../../src/views/org/usage/OrgUsagePage'
import { REF } from '../fixtures'
import { USAGE_DATA } from '../fixtures.usage'

beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => vi.useRealTimers())

async function renderWith(data: OrgUsageData, fetch = vi.fn(async (_input: { slug: string; projectRef: string }) => data)) {
  const actor = createActor(orgUsageMachine.provide({ actors: { fetchOrgUsage: fromPromise(({ input }: { input: { slug: string; projectRef: string } }) => fetch(input)) } }), {
    input: { slug: 'demo-free' },
  }).start()
  render(<OrgUsage actor={actor} />)
  await act(() => vi.advanceTimersByTimeAsync(0))
  return { actor, fetch }
}

const statusOf = (label: string) => {
  const row = within(screen.getByRole('table', { name: 'Usage per metric' })).getByRole('rowheader', { name: label }).closest('tr')
  return (row?.lastElementChild?.textContent ?? '').trim()
}

const base: UsageRecord = { metric: 'EGRESS', usage: 6, capped: true, available_in_plan: true, unlimited: false, pricing_free_units: 5 }

describe('the exceeded rule on the usage page', () => {
  it.each<[string, Partial<UsageRecord>, string]>([
    ['capped, in plan, limited, over the free units', {}, 'Exceeded'],
    ['not capped', { capped: false }, 'Within limit'],
    ['not available in the plan', { available_in_plan: false }, 'Within limit'],
    ['unlimited', { unlimited: true }, 'Within limit'],
    ['exactly the free units', { usage: 5 }, 'Within limit'],
    ['free units missing (0) and any usage', { usage: 0.001, pricing_free_units: undefined }, 'Exceeded'],
    ['free units null (0) and no usage', { usage: 0, pricing_free_units: null }, 'Within limit'],
  ])('%s → %s', async (_name, change, expected) => {
    const { actor } = await renderWith({ ...USAGE_DATA, usages: [{ ...base, ...change }] })
    expect(statusOf('Egress')).toBe(expected)
    actor.stop()
  })
})

describe('the usage page', () => {
  it('shows a row per metric, a chart per measured metric with its table, and the read-only banner', async () => {
    const { actor } = await renderWith(USAGE_DATA)
    const rows = within(screen.getByRole('table', { name: 'Usage per metric' })).getAllByRole('row').slice(1)
    expect(rows.map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      ['Egress', '12.5 GB', '5.0 GB', 'Exceeded'],
      ['Database size', '25.0 MB', '512 MB', 'Within limit'],
      ['Storage size', '0 B', '1.0 GB', 'Within limit'],
      ['Monthly active users', '0', '50,000', 'Within limit'],
      ['Edge function invocations', '0', '500,000', 'Within limit'],
      ['Realtime messages', '0', '2,000,000', 'Within limit'],
      ['Realtime peak connections', '0', '200', 'Within limit'],
    ])
    const egress = screen.getByRole('region', { name: 'Egress' })
    expect(within(egress).getByRole('img')).toHaveAccessibleName('Egress per day from 2026-11-01 to 2026-11-03: highest 12.5 kB, 3 of 3 days measured')
    const table = within(egress).getByRole('table', { name: 'Egress per day (table)' })
    expect(within(table).getAllByRole('row').slice(1).map((r) => r.textContent)).toEqual(['2026-11-010 B', '2026-11-0212.5 kB', '2026-11-032.0 kB'])
    const size = screen.getByRole('region', { name: 'Database size' })
    expect(within(size).getByRole('cell', { name: '25.0 MB' })).toBeInTheDocument()
    expect(within(size).getAllByRole('cell', { name: 'Not measured' })).toHaveLength(2)
    expect(within(screen.getByRole('region', { name: 'Monthly active users' })).getByText('The local platform does not measure this metric per day.')).toBeInTheDocument()
    expect(screen.getByRole('img', { name: /^REST requests per day from 2026-11-01 to 2026-11-03: highest 42/ })).toBeInTheDocument()
    const banner = screen.getByRole('alert')
    expect(banner).toHaveTextContent('Weekend Hackathon: Your project is in read-only mode')
    expect(within(banner).getByRole('link', { name: 'Increase disk size' })).toHaveAttribute('href', expect.stringMatching(/settings\/database$/))
    expect(screen.getByText('Billing period 2026-11-01 to 2026-11-03 (UTC)')).toBeInTheDocument()
    actor.stop()
  })

  it('shows the skeleton while loading, then filters by project (the skeleton again while it loads)', async () => {
    let answer: (data: OrgUsageData) => void = () => {}
    const fetch = vi.fn((_input: { slug: string; projectRef: string }) => new Promise<OrgUsageData>((resolve) => (answer = resolve)))
    const actor = createActor(orgUsageMachine.provide({ actors: { fetchOrgUsage: fromPromise(({ input }: { input: { slug: string; projectRef: string } }) => fetch(input)) } }), {
      input: { slug: 'demo-free' },
    }).start()
    render(<OrgUsage actor={actor} />)
    expect(screen.getByRole('status')).toHaveTextContent('Loading usage…')
    expect(screen.queryByRole('table')).toBeNull()
    await act(async () => answer(USAGE_DATA))
    fireEvent.change(screen.getByLabelText('Project'), { target: { value: REF } })
    expect(screen.getByRole('status')).toHaveTextContent('Loading usage…')
    expect(screen.getByLabelText('Project')).toHaveValue(REF)
    expect(fetch).toHaveBeenLastCalledWith({ slug: 'demo-free', projectRef: REF })
    await act(async () => answer({ ...USAGE_DATA, warnings: [] }))
    expect(screen.getByRole('table', { name: 'Usage per metric' })).toBeInTheDocument()
    expect(screen.queryByRole('alert')).toBeNull()
    actor.stop()
  })
})
