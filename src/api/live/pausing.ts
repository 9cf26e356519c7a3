/** The live actors of the pausing flow: the project status it polls. */
import { pausingChildMachine, pausingMachine } from '../../../machines/pausing.machine'
import { fetchProjectStatus } from './statusPolling'

export const livePausingMachine = pausingMachine.provide({ actors: { fetchProjectStatus } })
/** As the project status machine's child. */
export const livePausingChildMachine = pausingChildMachine.provide({ actors: { fetchProjectStatus } })
