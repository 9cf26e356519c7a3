import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createActor, type AnyMachineSnapshot } from 'xstate'
import { resourceWarningsMachine } from '../machines/resourceWarnings.machine'
import { liveResourceWarningsMachine } from '../src/api/live/resourceWarnings'
import { ResourceBanner, UsageBadge } from '../src/views/project/usage/ResourceWarnings'
import { REF } from '../tests/fixtures'
import { type ModelEvent, describePath, keyByIncomingEdge, missingCoverage, modelOf } from './harness'
import { usePlatform } from './fakes'

const WARNINGS_URL = /\/platform\/projects-resource-warnings$/
const SUBSCRIPTION_URL = /\/platform\/organizations\/demo-free\/billing\/subscription$/
const USAGE_URL = /\/platform\/organizations\/demo-free\/usage$/
/**
 * The real client gives a request 30 s (ky's time-out), so a request pending in one region would fail while the
 * clock jumps the other region's 30 minutes. The paths drive the live actor with a short stale time instead; the
 * unit tests (tests/machines/resourceWarnings.test.ts) pin the spec's 1,800,000 ms.
 */
const STALE = 20_000

const WARNINGS = [
  {
    project: REF,
    is_readonly_mode_enabled: false,
    disk_io_exhaustion: null,
    disk_space_exhaustion: null,
    cpu_exhaustion: 'critical',
    memory_and_swap_exhaustion: null,
  },
]
const SUBSCRIPTION = { plan: { id: 'free', name: 'Free' }, usage_billing_enabled: false }
const USAGE = {
  usages: [{ metric: 'EGRESS', usage: 12, capped: true, available_in_plan: true, unlimited: false, pricing_free_units: 5 }],
}

// A region's timer is taken only while the other region has none running, so moving the clock by one stale
// time fires exactly the edge the path names.
const timed = (snapshot: AnyMachineSnapshot, region: 'warnings' | 'usage') =>
  region === 'warnings'
    ? snapshot.matches({ warnings: 'fresh' }) || snapshot.matches({ warnings: 'failed' })
    : snapshot.matches({ usage: 'loaded' }) || snapshot.matches({ usage: 'failed' })

const modelFor = (organizationSlug: string | null) => modelOf(resourceWarningsMachine, {
  input: { ref: REF, organizationSlug },
  events: (snapshot) => {
    const events: Array<ModelEvent<typeof resourceWarningsMachine>> = []
    if (snapshot.matches({ warnings: 'loading' })) {
      events.push(
        { type: 'xstate.done.actor.fetchResourceWarnings', output: WARNINGS },
        { type: 'xstate.error.actor.fetchResourceWarnings', error: new Error('Request failed with status 500') },
      )
    }
    if (!timed(snapshot, 'usage')) {
      if (snapshot.matches({ warnings: 'fresh' })) events.push({ type: 'xstate.after.resourceWarningsStaleTime.resourceWarnings.warnings.fresh' })
      if (snapshot.matches({ warnings: 'failed' })) events.push({ type: 'xstate.after.resourceWarningsStaleTime.resourceWarnings.warnings.failed' })
    }
    if (snapshot.matches({ usage: 'awaitingOrganization' })) events.push({ type: 'organization.known', slug: 'demo-free' })
    if (snapshot.matches({ usage: 'loading' })) {
      events.push(
        { type: 'xstate.done.actor.fetchUsageSummary', output: { subscription: SUBSCRIPTION, usages: USAGE.usages } },
        { type: 'xstate.error.actor.fetchUsageSummary', error: new Error('Request failed with status 500') },
      )
    }
    if (!timed(snapshot, 'warnings')) {
      if (snapshot.matches({ usage: 'loaded' })) events.push({ type: 'xstate.after.usageStaleTime.resourceWarnings.usage.loaded' })
      if (snapshot.matches({ usage: 'failed' })) events.push({ type: 'xstate.after.usageStaleTime.resourceWarnings.usage.failed' })
    }
    return events
  },
  serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event),
})
// The organization is known at once (a project already loaded) or only later (organization.known).
const cases = [null, 'demo-free'].flatMap((organizationSlug) => modelFor(organizationSlug).getShortestPaths().map((path) => ({ organizationSlug, path })))
const paths = cases.map((c) => c.path)

const platform = usePlatform({ now: Date.parse('2026-11-21T10:00:00.000Z') })

describe('resource warnings model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(resourceWarningsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const { organizationSlug, path } of cases) {
    it(`organization ${organizationSlug ?? 'unknown'} at start: ${describePath(path)}`, async () => {
      const actor = createActor(liveResourceWarningsMachine.provide({ delays: { resourceWarningsStaleTime: STALE, usageStaleTime: STALE } }), {
        input: { ref: REF, organizationSlug },
      })
      actor.start()
      render(
        <>
          <UsageBadge actor={actor} />
          <ResourceBanner actor={actor} pathname={`/project/${REF}/editor`} />
        </>,
      )
      const badge = () => screen.queryByRole('link', { name: 'Exceeding usage limits' })
      const banner = () => screen.queryByRole('alert')
      const noBanner = () => expect(banner()).toBeNull()
      const bannerShown = () => {
        expect(banner()).toHaveTextContent('Your project has exhausted its CPU')
        expect(banner()).toHaveAttribute('data-variant', 'destructive')
      }

      await path.test({
        states: {
          'warnings.loading': () => {
            expect(platform.server.isPending(WARNINGS_URL)).toBe(true)
          },
          'warnings.fresh': () => {
            bannerShown()
            expect(platform.server.isPending(WARNINGS_URL)).toBe(false)
          },
          'warnings.failed': () => {
            noBanner()
            expect(platform.server.isPending(WARNINGS_URL)).toBe(false)
          },
          'usage.awaitingOrganization': () => {
            expect(badge()).toBeNull()
            expect(platform.server.isPending(USAGE_URL)).toBe(false)
          },
          'usage.loading': () => {
            expect(platform.server.isPending(USAGE_URL)).toBe(true)
          },
          'usage.loaded': () => {
            expect(badge()).toHaveAttribute('href', '/org/demo-free/usage')
          },
          'usage.failed': () => {
            expect(badge()).toBeNull()
          },
        },
        events: {
          'xstate.done.actor.fetchResourceWarnings': async () => {
            platform.server.json(WARNINGS_URL, WARNINGS)
            await platform.settle()
          },
          'xstate.error.actor.fetchResourceWarnings': async () => {
            platform.server.text(WARNINGS_URL, '<html>Bad gateway</html>', 502)
            await platform.settle()
          },
          'organization.known': async () => {
            act(() => actor.send({ type: 'organization.known', slug: 'demo-free' }))
            await platform.settle()
          },
          'xstate.done.actor.fetchUsageSummary': async () => {
            platform.server.json(SUBSCRIPTION_URL, SUBSCRIPTION)
            platform.server.json(USAGE_URL, USAGE)
            await platform.settle()
          },
          'xstate.error.actor.fetchUsageSummary': async () => {
            platform.server.json(SUBSCRIPTION_URL, SUBSCRIPTION)
            platform.server.json(USAGE_URL, { message: 'start must be an ISO date' }, 400)
            await platform.settle()
          },
          'xstate.after.resourceWarningsStaleTime.resourceWarnings.warnings.fresh': async () => {
            await platform.advance(STALE)
          },
          'xstate.after.resourceWarningsStaleTime.resourceWarnings.warnings.failed': async () => {
            await platform.advance(STALE)
          },
          'xstate.after.usageStaleTime.resourceWarnings.usage.loaded': async () => {
            await platform.advance(STALE)
          },
          'xstate.after.usageStaleTime.resourceWarnings.usage.failed': async () => {
            await platform.advance(STALE)
          },
        },
      })
      expect(actor.getSnapshot().value).toEqual(path.state.value)
      actor.stop()
    })
  }
})
