/** The live actors of the building flow: the project status it polls. */
import { buildingChildMachine, buildingMachine } from '../../../machines/building.machine'
import { fetchProjectStatus } from './statusPolling'

export const liveBuildingMachine = buildingMachine.provide({ actors: { fetchProjectStatus } })
/** As the project status machine's child. */
export const liveBuildingChildMachine = buildingChildMachine.provide({ actors: { fetchProjectStatus } })
