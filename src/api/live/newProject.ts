/** The live actor of 'Create a new project': the Management API's create (the session cookie authorizes it). */
import { fromPromise } from 'xstate'
import { newProjectMachine, type CreateProjectInput } from '../../../machines/newProject.machine'
import { createProject } from '../calls/database'

type Signal = { signal: AbortSignal }

export const liveNewProjectMachine = newProjectMachine.provide({
  actors: {
    createProject: fromPromise(({ input, signal }: Signal & { input: CreateProjectInput }) =>
      createProject({ name: input.name, organization_slug: input.organizationSlug, region: input.region, db_pass: input.dbPass }, { signal }),
    ),
  },
})
