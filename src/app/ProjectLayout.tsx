import { useActorRef } from '@xstate/react'
import { useEffect, useState } from 'react'
import { ProjectFrame } from '../views/frames/ProjectFrame'
import { ProjectToasts } from '../views/project/lifecycle/ToastRegion'
import { ProjectActorContext } from '../views/shell/projectActor'
import { useProjectListActor, type NavBarActorRef } from '../views/shell/contexts'
import { mapLoaded } from '../views/shell/lazy'
import { AppLogicContext, useAppLogic, type AppLogic } from '../views/shell/logic'
import { inspectOption } from './inspector'

/**
 * /project/{ref}/**: one project status actor per project (the route keys this component by ref), told about
 * every route change inside the project. A project that came up asks the project list to load again.
 */
export function ProjectLayout({ projectRef, section, navBar }: { projectRef: string; section: string; navBar: NavBarActorRef }) {
  const logic = useAppLogic()
  const projectList = useProjectListActor()
  // Made once per project (the route keys this layout by ref): the list actor outlives it.
  const [machine] = useState(() =>
    logic.projectStatus.provide({ actions: { refreshProjectList: () => projectList.send({ type: 'projects.refresh' }) } }),
  )
  const actor = useActorRef(machine, { input: { ref: projectRef, section }, ...inspectOption() })
  // Inside the project, its actions (pause, upgrade) ask this project's status actor to read the project again.
  // They load with their screens: each is provided once per project, when it has loaded.
  const [projectLogic] = useState((): AppLogic => {
    const refreshProject = () => actor.send({ type: 'project.refresh' })
    return {
      ...logic,
      pauseProject: mapLoaded(logic.pauseProject, (machine) => machine.provide({ actions: { refreshProject } })),
      upgradeAction: mapLoaded(logic.upgradeAction, (machine) => machine.provide({ actions: { refreshProject } })),
    }
  })

  useEffect(() => {
    actor.send({ type: 'route.changed', section })
  }, [actor, section])

  return (
    <AppLogicContext.Provider value={projectLogic}>
      <ProjectActorContext.Provider value={actor}>
        <ProjectFrame projectRef={projectRef} section={section} navBar={navBar} />
        <ProjectToasts />
      </ProjectActorContext.Provider>
    </AppLogicContext.Provider>
  )
}
