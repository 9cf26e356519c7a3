/** The real I/O of the machines: each placeholder actor of machines/ gets its implementation here. */
import { fromPromise } from 'xstate'
import { buildingMachine } from '../../machines/building.machine'
import { buildingChildMachine, projectStatusMachine } from '../../machines/projectStatus.machine'
import { livePauseChildren } from './pauseActors'
import { liveUpgradeChildren } from './upgradeActors'
import { getProject, getProjectStatus } from './platform'

export const fetchProjectStatus = fromPromise(({ input, signal }: { input: { ref: string }; signal: AbortSignal }) =>
  getProjectStatus(input.ref, { signal }),
)
export const fetchProject = fromPromise(({ input, signal }: { input: { ref: string }; signal: AbortSignal }) =>
  getProject(input.ref, { signal }),
)

export const liveBuildingMachine = buildingMachine.provide({ actors: { fetchProjectStatus } })

export function liveProjectStatusMachine(refreshProjectList: () => void) {
  return projectStatusMachine.provide({
    actors: {
      fetchProject,
      building: buildingChildMachine.provide({ actors: { fetchProjectStatus } }),
      ...livePauseChildren,
      ...liveUpgradeChildren,
    },
    actions: { refreshProjectList: () => refreshProjectList() },
  })
}
