import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import type { pausedMachine } from '../../../../machines/paused.machine'
import type { pausingMachine } from '../../../../machines/pausing.machine'
import type { restoringMachine } from '../../../../machines/restoring.machine'
import type { Project } from '../../../contracts/projects'
import { useProjectActor } from '../projectActor'
import { LifecycleScreen } from './LifecycleScreen'
import { PausedPage } from './PausedPage'
import { PausingPage, PausingScreen } from './PausingPage'
import { RestoringPage, RestoringScreen } from './RestoringPage'

/**
 * The paused, pausing and restoring pages, each driven by the child the project status machine runs in that
 * state. Without the child (the moment the project is being fetched again) the page's own screen stays up.
 */
export function PauseRestoreGate({ page, project }: { page: 'paused' | 'pausing' | 'restoring'; project: Project }) {
  const children = useSelector(useProjectActor(), (snapshot) => snapshot.children)
  if (page === 'paused') {
    const paused = children.paused as ActorRefFrom<typeof pausedMachine> | undefined
    return paused ? (
      <PausedPage actor={paused} project={project} />
    ) : (
      <LifecycleScreen titleId="paused-title" title="Project is paused" projectName={project.name} tone="paused" />
    )
  }
  if (page === 'pausing') {
    const pausing = children.pausing as ActorRefFrom<typeof pausingMachine> | undefined
    return pausing ? <PausingPage actor={pausing} projectName={project.name} /> : <PausingScreen projectName={project.name} />
  }
  const restoring = children.restoring as ActorRefFrom<typeof restoringMachine> | undefined
  return restoring ? (
    <RestoringPage actor={restoring} projectName={project.name} />
  ) : (
    <RestoringScreen projectName={project.name} title={project.status === 'RESTORATION_FAILED' ? 'Restoration failed' : 'Returning to project'} />
  )
}
