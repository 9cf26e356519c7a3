import { useActorRef } from '@xstate/react'
import { useEffect } from 'react'
import { liveProjectStatusMachine } from '../api/actors'
import { liveApiKeysMachine } from '../api/keysActors'
import { ApiKeysMachineContext } from '../views/project/settings/apiKeysLogic'
import { ProjectActorContext } from '../views/project/projectActor'
import { ProjectFrame } from '../views/project/ProjectFrame'
import { ProjectToasts } from '../views/project/lifecycle/ToastRegion'
import { useProjectListActor, type NavBarActorRef } from '../views/shell/contexts'
import { inspectOption } from './inspector'

/**
 * /project/{ref}/**: one project status actor per project (the route keys this component by ref), told about
 * every route change inside the project.
 */
export function ProjectLayout({ projectRef, section, navBar }: { projectRef: string; section: string; navBar: NavBarActorRef }) {
  const projectListActor = useProjectListActor()
  const actor = useActorRef(liveProjectStatusMachine(() => projectListActor.send({ type: 'projects.refresh' })), {
    input: { ref: projectRef, section },
    ...inspectOption(),
  })

  useEffect(() => {
    actor.send({ type: 'route.changed', section })
  }, [actor, section])

  return (
    <ProjectActorContext.Provider value={actor}>
      <ApiKeysMachineContext.Provider value={liveApiKeysMachine}>
        <ProjectFrame projectRef={projectRef} section={section} navBar={navBar} />
        <ProjectToasts />
      </ApiKeysMachineContext.Provider>
    </ProjectActorContext.Provider>
  )
}
