/** The live actors of the project list: the organizations and their projects, read together. */
import { fromPromise } from 'xstate'
import { projectListMachine } from '../../../machines/projectList.machine'
import { listOrganizations, listProjects } from '../client'

export const liveProjectListMachine = projectListMachine.provide({
  actors: {
    fetchProjects: fromPromise(async ({ signal }: { signal: AbortSignal }) => {
      const [organizations, projects] = await Promise.all([listOrganizations({ signal }), listProjects({ signal })])
      return { organizations, projects }
    }),
  },
})
