/** The live actors of the building flow: the project status it polls. */
import { buildingChildMachine } from '../../../machines/building.machine'
import { fetchProjectStatus } from './statusPolling'

/** What the flow reads: the child below runs with it, and so do the tests that run the flow's machine on its own. */
export const buildingActors = { fetchProjectStatus }

export const liveBuildingChildMachine = buildingChildMachine.provide({ actors: buildingActors })
