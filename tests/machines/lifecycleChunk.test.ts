/**
 * The lifecycle flows load with the first project that may show one of their screens, before the project status
 * machine routes to it; a healthy project's read never loads them.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { mayShowLifecyclePage, resolveProjectPage } from '../../machines/projectPage'
import { lifecycleFlowsLoaded, liveProjectStatusMachine } from '../../src/api/live/projects'
import { PostgrestStatus, ProjectStatus } from '../../src/contracts/common'
import { makeProject, REF } from '../fixtures'

const SECTIONS = ['', 'editor', 'sql', 'settings', 'settings/general', 'settings/api', 'settings/vault', 'settings/infrastructure', 'branches', 'reports', 'database/backups/scheduled', 'api']

afterEach(() => vi.unstubAllGlobals())

describe('when the lifecycle flows load', () => {
  it('every project that shows a lifecycle page on some route is one whose read loads them', () => {
    for (const status of ProjectStatus.options) {
      for (const postgrestStatus of PostgrestStatus.options) {
        const project = { status, postgrestStatus }
        const pages = SECTIONS.map((section) => resolveProjectPage(project, section))
        if (pages.some((page) => page !== 'normal')) expect(mayShowLifecyclePage(project), `${status} ${postgrestStatus}`).toBe(true)
      }
    }
    expect(mayShowLifecyclePage({ status: 'ACTIVE_HEALTHY', postgrestStatus: 'ONLINE' })).toBe(false)
  })

  const open = async (status: ProjectStatus) => {
    vi.stubGlobal('fetch', async () => Response.json(makeProject({ status })))
    const actor = createActor(liveProjectStatusMachine, { input: { ref: REF, section: 'editor' } }).start()
    // The read and the lazy lifecycle chunk's import: a bound for a busy machine, not a speed claim.
    await vi.waitFor(() => expect(actor.getSnapshot().value).not.toBe('loading'), { timeout: 15_000 })
    return actor
  }

  it("a healthy project's read does not load them; a paused one's loads them before the paused page starts", async () => {
    const healthy = await open('ACTIVE_HEALTHY')
    expect(healthy.getSnapshot().value).toBe('normal')
    expect(lifecycleFlowsLoaded()).toBe(false)
    healthy.stop()

    const paused = await open('INACTIVE')
    expect(lifecycleFlowsLoaded()).toBe(true)
    expect(paused.getSnapshot().value).toBe('paused')
    expect(paused.getSnapshot().children.paused?.getSnapshot().status).toBe('active')
    paused.stop()
  })
})
