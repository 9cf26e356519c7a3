/** The live actors of the 'Pause project' action: the person's permissions and the pause call. */
import { fromPromise } from 'xstate'
import { pauseProjectMachine } from '../../../machines/pauseProject.machine'
import { pauseProject } from '../calls/pause'
import { getOrganizationPermissions } from '../calls/session'
import { preloadLifecycleFlows } from './projects'

type Signal = { signal: AbortSignal }

export const livePauseProjectMachine = pauseProjectMachine.provide({
  actions: {
    prepareForPausing: preloadLifecycleFlows,
  },
  actors: {
    fetchPermissions: fromPromise(({ input, signal }: Signal & { input: { organizationSlug: string } }) =>
      getOrganizationPermissions(input.organizationSlug, { signal }),
    ),
    pauseProject: fromPromise(async ({ input, signal }: Signal & { input: { ref: string } }) => {
      await pauseProject(input.ref, { signal })
    }),
  },
})
