/** The live actors of the project status flow: the project read, and every lifecycle flow it runs as a child. */
import { fromPromise } from 'xstate'
import { projectStatusMachine } from '../../../machines/projectStatus.machine'
import { getProject } from '../calls/projects'
import { liveBuildingChildMachine } from './building'
import { liveConnectingChildMachine } from './connecting'
import { livePausedChildMachine } from './paused'
import { livePausingChildMachine } from './pausing'
import { liveRestoringChildMachine } from './restoring'
import { liveUpgradingChildMachine } from './upgrading'

export const liveProjectStatusMachine = projectStatusMachine.provide({
  actors: {
    fetchProject: fromPromise(({ input, signal }: { input: { ref: string }; signal: AbortSignal }) => getProject(input.ref, { signal })),
    building: liveBuildingChildMachine,
    paused: livePausedChildMachine,
    pausing: livePausingChildMachine,
    restoring: liveRestoringChildMachine,
    upgrading: liveUpgradingChildMachine,
    connecting: liveConnectingChildMachine,
  },
})
