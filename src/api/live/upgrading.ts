/** The live actors of the upgrading flow: the upgrade status it polls and the eligibility read once upgraded. */
import { fromPromise } from 'xstate'
import { upgradingChildMachine } from '../../../machines/upgrading.machine'
import { getUpgradeEligibility, getUpgradeStatus } from '../calls/upgrade'

type Signal = { signal: AbortSignal }

/** What the flow reads: the child below runs with it, and so do the tests that run the flow's machine on its own. */
export const upgradingActors = {
  fetchUpgradeStatus: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getUpgradeStatus(input.ref, { signal })),
  fetchEligibility: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getUpgradeEligibility(input.ref, { signal })),
}

export const liveUpgradingChildMachine = upgradingChildMachine.provide({ actors: upgradingActors })
