/** The live actors of the building flow: the project status it polls. */
import { buildingMachine } from '../../../machines/building.machine'
import { buildingChildMachine } from '../../../machines/projectStatus.machine'
import { fetchProjectStatus } from './statusPolling'

export const liveBuildingMachine = buildingMachine.provide({ actors: { fetchProjectStatus } })
/** As the project status machine's child. */
export const liveBuildingChildMachine = buildingChildMachine.provide({ actors: { fetchProjectStatus } })
