/** The live actors of the project list: the organizations and their projects, read together. */
import { fromPromise } from 'xstate'
import { projectListMachine } from '../../../machines/projectList.machine'
import { listOrganizations } from '../calls/organizations'
import { listProjects } from '../calls/projects'

export const liveProjectListMachine = projectListMachine.provide({
  actors: {
    fetchProjects: fromPromise(async ({ signal }: { signal: AbortSignal }) => {
      const [organizations, projects] = await Promise.all([listOrganizations({ signal }), listProjects({ signal })])
      return { organizations, projects }
    }),
  },
})
