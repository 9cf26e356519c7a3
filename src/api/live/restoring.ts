/** The live actors of the restoring flow: the project status it polls and the recorded failure of a restore. */
import { fromPromise } from 'xstate'
import { restoringChildMachine, restoringMachine } from '../../../machines/restoring.machine'
import { getRestoreStatus } from '../calls/pause'
import { fetchProjectStatus } from './statusPolling'

const restoringActors = {
  fetchProjectStatus,
  fetchRestoreStatus: fromPromise(({ input, signal }: { input: { ref: string }; signal: AbortSignal }) => getRestoreStatus(input.ref, { signal })),
}

export const liveRestoringMachine = restoringMachine.provide({ actors: restoringActors })
/** As the project status machine's child. */
export const liveRestoringChildMachine = restoringChildMachine.provide({ actors: restoringActors })
