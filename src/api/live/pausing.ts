/** The live actors of the pausing flow: the project status it polls. */
import { pausingChildMachine } from '../../../machines/pausing.machine'
import { fetchProjectStatus } from './statusPolling'

/** What the flow reads: the child below runs with it, and so do the tests that run the flow's machine on its own. */
export const pausingActors = { fetchProjectStatus }

export const livePausingChildMachine = pausingChildMachine.provide({ actors: pausingActors })
