import { useSelector } from '@xstate/react'
import { buildingTitle } from '../../../../machines/building.machine'
import type { ProjectPage } from '../../../../machines/projectPage'
import type { Project } from '../../../contracts/projects'
import { Loading } from '../../shell/ui'
import { useProjectActor } from '../../shell/projectActor'
import { BuildingPage, BuildingScreen } from './BuildingPage'
import { ConnectingPage, ConnectingScreen } from './ConnectingPage'
import { LifecycleScreen } from './LifecycleScreen'
import { PausedPage } from './PausedPage'
import { PausingPage, PausingScreen } from './PausingPage'
import { RestoringPage, RestoringScreen } from './RestoringPage'
import { UpgradingPage } from './UpgradingPage'

/**
 * The full-page lifecycle states of a project (paused, pausing, restoring, connecting, upgrading, building), each
 * driven by the child the project status machine runs in that state; without the child (the moment the project
 * is being fetched again) the state's own screen stays up. Its own chunk: a healthy project's first load skips it.
 */
export default function LifecyclePage({ page, project }: { page: Exclude<ProjectPage, 'normal'>; project: Project }) {
  const flows = useSelector(useProjectActor(), (snapshot) => snapshot.children)
  switch (page) {
    case 'paused':
      return flows.paused ? (
        <PausedPage actor={flows.paused} project={project} />
      ) : (
        <LifecycleScreen titleId="paused-title" title="Project is paused" projectName={project.name} tone="paused" />
      )
    case 'pausing':
      return flows.pausing ? <PausingPage actor={flows.pausing} projectName={project.name} /> : <PausingScreen projectName={project.name} />
    case 'restoring':
      return flows.restoring ? (
        <RestoringPage actor={flows.restoring} projectName={project.name} />
      ) : (
        <RestoringScreen projectName={project.name} title={project.status === 'RESTORATION_FAILED' ? 'Restoration failed' : 'Returning to project'} />
      )
    case 'connecting':
      return flows.connecting ? <ConnectingPage actor={flows.connecting} projectName={project.name} /> : <ConnectingScreen projectName={project.name} />
    case 'upgrading':
      // Between the project being read and the child starting (a refresh), the page waits without claiming anything.
      return flows.upgrading ? <UpgradingPage actor={flows.upgrading} projectName={project.name} /> : <Loading label="Reading upgrade status…" />
    case 'building':
      return flows.building ? (
        <BuildingPage actor={flows.building} projectName={project.name} />
      ) : (
        <BuildingScreen title={buildingTitle(project.status)} projectName={project.name} />
      )
  }
}
