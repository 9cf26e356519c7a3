import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { selectUpgradeActionView, upgradeActionMachine, type UpgradeContext } from '../../machines/upgradeAction.machine'
import { answeringEndpoint, scriptedEndpoint, usePathClock } from '../../model-tests/fakes'
import { upgradeEligibility } from '../fixtures'


const eligibility = upgradeEligibility

function start(context: UpgradeContext | Error, request: () => Promise<{ tracking_id: string }> = async () => ({ tracking_id: 't' })) {
  const refreshProject = vi.fn()
  const upgrade = answeringEndpoint<{ tracking_id: string }, { ref: string; targetVersion: string }>(() => request())
  const actor = createActor(
    upgradeActionMachine.provide({
      actors: {
        fetchUpgradeContext: scriptedEndpoint<UpgradeContext, { ref: string; organizationSlug: string }>([], context).actor,
        requestUpgrade: upgrade.actor,
      },
      actions: { refreshProject },
    }),
    { input: { ref: 'abcdefghijklmnopqrst', organizationSlug: 'demo-pro' } },
  ).start()
  return { actor, refreshProject, requested: upgrade.inputs }
}

usePathClock()

describe('upgrade action machine', () => {
  it('an eligible, permitted project opens the dialog on the newest target, may pick another, and starts the upgrade', async () => {
    const { actor, refreshProject, requested } = start({ eligibility: eligibility(['15', '17']), canUpgrade: true })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().can({ type: 'upgrade.open' })).toBe(true)
    actor.send({ type: 'upgrade.open' })
    expect(selectUpgradeActionView(actor.getSnapshot())).toMatchObject({ dialogOpen: true, targetVersion: '17', targets: ['15', '17'] })
    actor.send({ type: 'upgrade.target', version: '16' })
    expect(actor.getSnapshot().context.targetVersion).toBe('17')
    actor.send({ type: 'upgrade.target', version: '15' })
    actor.send({ type: 'upgrade.confirm' })
    // Once confirmed, nothing can be sent until the server answers.
    expect(actor.getSnapshot().can({ type: 'upgrade.confirm' })).toBe(false)
    expect(actor.getSnapshot().can({ type: 'upgrade.cancel' })).toBe(false)
    await vi.advanceTimersByTimeAsync(0)
    expect(requested.map((input) => input.targetVersion)).toEqual(['15'])
    expect(actor.getSnapshot().status).toBe('done')
    expect(refreshProject).toHaveBeenCalledTimes(1)
  })

  it('without projects:write, or when not eligible, the action cannot open', async () => {
    const denied = start({ eligibility: eligibility(['17']), canUpgrade: false })
    const latest = start({ eligibility: eligibility([]), canUpgrade: true })
    await vi.advanceTimersByTimeAsync(0)
    for (const { actor } of [denied, latest]) {
      expect(actor.getSnapshot().can({ type: 'upgrade.open' })).toBe(false)
      actor.send({ type: 'upgrade.open' })
      expect(actor.getSnapshot().value).toBe('ready')
    }
  })

  it('a refusal from the server is shown and the dialog closes; cancel closes it too', async () => {
    const { actor, refreshProject } = start({ eligibility: eligibility(['17']), canUpgrade: true }, async () => {
      throw new Error('Project is UPGRADING: an upgrade can only start when the project is ACTIVE_HEALTHY')
    })
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'upgrade.open' })
    actor.send({ type: 'upgrade.cancel' })
    expect(selectUpgradeActionView(actor.getSnapshot()).dialogOpen).toBe(false)
    actor.send({ type: 'upgrade.open' })
    actor.send({ type: 'upgrade.confirm' })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectUpgradeActionView(actor.getSnapshot())).toMatchObject({ phase: 'ready', dialogOpen: false, error: expect.stringContaining('UPGRADING') })
    expect(refreshProject).not.toHaveBeenCalled()
  })

  it('a failed eligibility read can be retried', async () => {
    const { actor } = start(new Error('Request failed with status 500'))
    await vi.advanceTimersByTimeAsync(0)
    expect(selectUpgradeActionView(actor.getSnapshot())).toMatchObject({ phase: 'loadFailed', error: 'Request failed with status 500' })
    actor.send({ type: 'upgrade.retry' })
    expect(actor.getSnapshot().value).toBe('loading')
  })
})
