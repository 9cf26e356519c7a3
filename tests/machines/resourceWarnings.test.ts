import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { resourceBannerFor, selectResourceBanner } from '../../machines/resourceBanner'
import {
  isUsageExceeded,
  resourceWarningsMachine,
  selectUsageBadge,
  selectWarningRaised,
  showsUsageBadge,
  type UsageSummary,
} from '../../machines/resourceWarnings.machine'
import type { PlanId } from '../../src/contracts/common'
import type { ResourceWarning, UsageRecord } from '../../src/contracts/usage'
import { scriptedEndpoint, usePathClock } from '../../model-tests/fakes'

const REF = 'abcdefghijklmnopqrst'
const record = (overrides: Partial<UsageRecord> = {}): UsageRecord => ({
  metric: 'EGRESS',
  usage: 6,
  capped: true,
  available_in_plan: true,
  unlimited: false,
  pricing_free_units: 5,
  ...overrides,
})
const summary = (plan: PlanId, usages: UsageRecord[], billing = false): UsageSummary => ({
  subscription: { plan: { id: plan, name: plan }, usage_billing_enabled: billing },
  usages,
})
const warning = (overrides: Partial<ResourceWarning> = {}): ResourceWarning => ({
  project: REF,
  is_readonly_mode_enabled: false,
  disk_io_exhaustion: null,
  disk_space_exhaustion: null,
  cpu_exhaustion: null,
  memory_and_swap_exhaustion: null,
  ...overrides,
})

describe('usage exceeded (spec section 5) and the badge (section 4)', () => {
  it.each([
    [record(), true],
    [record({ usage: 5 }), false],
    [record({ capped: false }), false],
    [record({ available_in_plan: false }), false],
    [record({ unlimited: true }), false],
    [record({ pricing_free_units: null, usage: 0.1 }), true],
    [record({ pricing_free_units: undefined, usage: 0 }), false],
  ])('%o exceeded: %s', (r, exceeded) => {
    expect(isUsageExceeded(r)).toBe(exceeded)
  })

  it('shows only on free or pro, without usage billing, with a metric exceeded', () => {
    expect(showsUsageBadge(summary('free', [record()]))).toBe(true)
    expect(showsUsageBadge(summary('pro', [record({ usage: 1 }), record({ metric: 'DATABASE_SIZE', usage: 9, pricing_free_units: 8 })]))).toBe(true)
    expect(showsUsageBadge(summary('team', [record()]))).toBe(false)
    expect(showsUsageBadge(summary('enterprise', [record()]))).toBe(false)
    expect(showsUsageBadge(summary('pro', [record()], true))).toBe(false)
    expect(showsUsageBadge(summary('free', [record({ usage: 1 })]))).toBe(false)
    expect(showsUsageBadge(null)).toBe(false)
  })
})

describe('resource banner (spec section 4)', () => {
  const editor = `/project/${REF}/editor`
  const infra = `/project/${REF}/settings/infrastructure`
  const database = `/project/${REF}/settings/database`
  const usage = '/org/demo-free/usage'

  it('shows only when a warning exists', () => {
    expect(resourceBannerFor(undefined, REF, editor).show).toBe(false)
    expect(resourceBannerFor(warning(), REF, editor).show).toBe(false)
    expect(resourceBannerFor(warning({ cpu_exhaustion: 'warning' }), REF, editor)).toMatchObject({ show: true, variant: 'warning' })
  })

  it('is destructive when read-only mode is on or any level is critical', () => {
    expect(resourceBannerFor(warning({ cpu_exhaustion: 'warning', disk_io_exhaustion: 'critical' }), REF, editor)).toMatchObject({ variant: 'destructive' })
    expect(resourceBannerFor(warning({ is_readonly_mode_enabled: true }), REF, editor)).toMatchObject({ show: true, variant: 'destructive' })
  })

  it('is hidden on the usage and infrastructure pages unless read-only, and on settings/database when read-only', () => {
    const raised = warning({ memory_and_swap_exhaustion: 'critical' })
    expect(resourceBannerFor(raised, REF, infra).show).toBe(false)
    expect(resourceBannerFor(raised, REF, usage).show).toBe(false)
    expect(resourceBannerFor(raised, REF, database).show).toBe(true)
    const readOnly = warning({ is_readonly_mode_enabled: true, memory_and_swap_exhaustion: 'critical' })
    expect(resourceBannerFor(readOnly, REF, infra).show).toBe(true)
    expect(resourceBannerFor(readOnly, REF, usage).show).toBe(true)
    expect(resourceBannerFor(readOnly, REF, database).show).toBe(false)
  })

  it("is raised (the frame loads the banner) exactly when some page shows it: a resource raised or read-only mode", () => {
    const withWarning = (w: ResourceWarning | undefined) =>
      selectWarningRaised(
        resourceWarningsMachine.resolveState({
          value: { warnings: 'fresh', usage: 'awaitingOrganization' },
          context: { ref: REF, organizationSlug: null, warnings: w ? [w] : [], usage: null },
        }),
      )
    const cases = [undefined, warning(), warning({ cpu_exhaustion: 'warning' }), warning({ disk_space_exhaustion: 'critical' }), warning({ is_readonly_mode_enabled: true })]
    for (const w of cases) {
      const shownSomewhere = [editor, infra, database, usage].some((page) => resourceBannerFor(w, REF, page).show)
      expect(withWarning(w)).toBe(shownSomewhere)
    }
    expect(withWarning({ ...warning({ cpu_exhaustion: 'warning' }), project: 'anotherprojectrefxxx' })).toBe(false)
  })

  it('names the resources raised', () => {
    expect(resourceBannerFor(warning({ cpu_exhaustion: 'warning', disk_space_exhaustion: 'warning' }), REF, editor)).toMatchObject({
      title: 'Your project is running out of disk space and CPU',
    })
  })
})

usePathClock()

function start(organizationSlug: string | null) {
  // The second read of the warnings fails; every other one answers the same warning.
  const warnings = [warning({ cpu_exhaustion: 'warning' })]
  const warningsEndpoint = scriptedEndpoint<ResourceWarning[], void>([warnings, new Error('500')], warnings)
  const usage = scriptedEndpoint<UsageSummary, { organizationSlug: string }>([], summary('free', [record()]))
  const actor = createActor(
    resourceWarningsMachine.provide({ actors: { fetchResourceWarnings: warningsEndpoint.actor, fetchUsageSummary: usage.actor } }),
    { input: { ref: REF, organizationSlug } },
  ).start()
  return { actor, warningReads: warningsEndpoint.requests, usageReads: usage.inputs }
}

describe('resource warnings machine', () => {
  it('reads the warnings at once and again after 30 minutes (stale), also after a failure', async () => {
    const { actor, warningReads } = start('demo-free')
    expect(selectWarningRaised(actor.getSnapshot())).toBe(false)
    await vi.advanceTimersByTimeAsync(0)
    expect(selectResourceBanner(`/project/${REF}/editor`)(actor.getSnapshot()).show).toBe(true)
    expect(selectWarningRaised(actor.getSnapshot())).toBe(true)
    await vi.advanceTimersByTimeAsync(1_799_999)
    expect(warningReads).toEqual([0])
    await vi.advanceTimersByTimeAsync(1)
    expect(warningReads).toEqual([0, 1_800_000])
    // The failed read hides the banner until the next one.
    expect(selectResourceBanner(`/project/${REF}/editor`)(actor.getSnapshot()).show).toBe(false)
    expect(selectWarningRaised(actor.getSnapshot())).toBe(false)
    await vi.advanceTimersByTimeAsync(1_800_000)
    expect(warningReads).toEqual([0, 1_800_000, 3_600_000])
    expect(selectResourceBanner(`/project/${REF}/editor`)(actor.getSnapshot()).show).toBe(true)
  })

  it('reads the usage once the organization is known; the badge links to its usage page', async () => {
    const { actor, usageReads } = start(null)
    await vi.advanceTimersByTimeAsync(0)
    expect(usageReads.map((input) => input.organizationSlug)).toEqual([])
    expect(selectUsageBadge(actor.getSnapshot())).toEqual({ show: false, href: null })
    actor.send({ type: 'organization.known', slug: 'demo-free' })
    await vi.advanceTimersByTimeAsync(0)
    expect(usageReads.map((input) => input.organizationSlug)).toEqual(['demo-free'])
    expect(selectUsageBadge(actor.getSnapshot())).toEqual({ show: true, href: '/org/demo-free/usage' })
  })
})
