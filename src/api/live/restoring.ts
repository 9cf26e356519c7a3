/** The live actors of the restoring flow: the project status it polls and the recorded failure of a restore. */
import { fromPromise } from 'xstate'
import { restoringChildMachine } from '../../../machines/restoring.machine'
import { getRestoreStatus } from '../calls/pause'
import { fetchProjectStatus } from './statusPolling'

/** What the flow reads: the child below runs with it, and so do the tests that run the flow's machine on its own. */
export const restoringActors = {
  fetchProjectStatus,
  fetchRestoreStatus: fromPromise(({ input, signal }: { input: { ref: string }; signal: AbortSignal }) => getRestoreStatus(input.ref, { signal })),
}

export const liveRestoringChildMachine = restoringChildMachine.provide({ actors: restoringActors })
