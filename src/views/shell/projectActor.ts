import { createContext, useContext } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { projectStatusMachine } from '../../../machines/projectStatus.machine'

export type ProjectActorRef = ActorRefFrom<typeof projectStatusMachine>

/** The open project's status actor, created by the app (src/app) with its live actors. */
export const ProjectActorContext = createContext<ProjectActorRef | null>(null)

export function useProjectActor(): ProjectActorRef {
  const actor = useContext(ProjectActorContext)
  if (actor === null) throw new Error('useProjectActor must be used inside a project route')
  return actor
}
