/**
 * Asking to pause a healthy project starts loading the lifecycle flows (the pausing page's code) while the person
 * confirms, so the pausing page shows as soon as the pause is answered. Runs with a module graph of its own: what it
 * checks is whether a chunk has loaded.
 */
import { describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { lifecycleFlowsLoaded } from '../../src/api/live/projects'
import { livePauseProjectMachine } from '../../src/api/live/pause'
import type { Permission } from '../../src/contracts/common'
import { REF } from '../fixtures'

describe('the pause dialog', () => {
  it('loads the pausing page’s code when it opens, before the pause is confirmed', async () => {
    const actor = createActor(
      livePauseProjectMachine.provide({ actors: { fetchPermissions: fromPromise(async (): Promise<Permission[]> => ['projects:write']) } }),
      { input: { ref: REF, organizationSlug: 'demo-pro', status: 'ACTIVE_HEALTHY' } },
    ).start()
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('idle'))
    expect(lifecycleFlowsLoaded()).toBe(false)
    actor.send({ type: 'pause.request' })
    expect(actor.getSnapshot().value).toBe('confirming')
    // The lazy chunk's import: a bound for a busy machine, not a speed claim.
    await vi.waitFor(() => expect(lifecycleFlowsLoaded()).toBe(true), { timeout: 15_000 })
    actor.stop()
  })
})
