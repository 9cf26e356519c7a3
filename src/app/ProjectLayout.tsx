import { useActorRef } from '@xstate/react'
import { useEffect, useState } from 'react'
import { ProjectFrame } from '../views/frames/ProjectFrame'
import { ProjectToasts } from '../views/project/lifecycle/ToastRegion'
import { ProjectActorContext } from '../views/project/projectActor'
import { useProjectListActor, type NavBarActorRef } from '../views/shell/contexts'
import { useAppLogic } from '../views/shell/logic'
import { inspectOption } from './inspector'

/**
 * /project/{ref}/**: one project status actor per project (the route keys this component by ref), told about
 * every route change inside the project. A project that came up asks the project list to load again.
 */
export function ProjectLayout({ projectRef, section, navBar }: { projectRef: string; section: string; navBar: NavBarActorRef }) {
  const { projectStatus } = useAppLogic()
  const projectList = useProjectListActor()
  // Made once per project: the list actor outlives this layout.
  const [machine] = useState(() =>
    projectStatus.provide({ actions: { refreshProjectList: () => projectList.send({ type: 'projects.refresh' }) } }),
  )
  const actor = useActorRef(machine, { input: { ref: projectRef, section }, ...inspectOption() })

  useEffect(() => {
    actor.send({ type: 'route.changed', section })
  }, [actor, section])

  return (
    <ProjectActorContext.Provider value={actor}>
      <ProjectFrame projectRef={projectRef} section={section} navBar={navBar} />
      <ProjectToasts />
    </ProjectActorContext.Provider>
  )
}
