/** The live actors of the upgrading flow: the upgrade status it polls and the eligibility read once upgraded. */
import { fromPromise } from 'xstate'
import { upgradingChildMachine, upgradingMachine } from '../../../machines/upgrading.machine'
import { getUpgradeEligibility, getUpgradeStatus } from '../calls/upgrade'

type Signal = { signal: AbortSignal }

const upgradingActors = {
  fetchUpgradeStatus: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getUpgradeStatus(input.ref, { signal })),
  fetchEligibility: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getUpgradeEligibility(input.ref, { signal })),
}

export const liveUpgradingMachine = upgradingMachine.provide({ actors: upgradingActors })
/** As the project status machine's child. */
export const liveUpgradingChildMachine = upgradingChildMachine.provide({ actors: upgradingActors })
