import { useSelector } from '@xstate/react'
import type { ReactNode } from 'react'
import { buildingTitle } from '../../../../machines/building.machine'
import { selectProjectView } from '../../../../machines/projectStatus.machine'
import { Loading } from '../../shell/ui'
import { useProjectActor } from '../projectActor'
import { BuildingPage, BuildingScreen } from './BuildingPage'
import { ConnectingPage, ConnectingScreen } from './ConnectingPage'
import { LifecycleScreen } from './LifecycleScreen'
import { PausedPage } from './PausedPage'
import { PausingPage, PausingScreen } from './PausingPage'
import { RestoringPage, RestoringScreen } from './RestoringPage'
import { UpgradingPage } from './UpgradingPage'

/**
 * The main area of a project route: the full-page state the project status machine routed to, each driven by
 * the child it runs in that state, otherwise the page itself. Never blank: loading and failure have their own
 * screens, and without the child (the moment the project is being fetched again) the page's own screen stays up.
 */
export function ProjectStatusGate({ children }: { children: ReactNode }) {
  const actor = useProjectActor()
  const view = useSelector(actor, selectProjectView)
  const flows = useSelector(actor, (snapshot) => snapshot.children)

  if (view.phase === 'loading') {
    return (
      <div role="status" aria-live="polite" className="p-8 text-sm text-neutral-500">
        Loading project…
      </div>
    )
  }
  if (view.phase === 'loadFailed') {
    return (
      <div role="alert" className="m-8 max-w-xl space-y-3 rounded border border-red-300 p-6">
        <h1 className="text-lg font-semibold">Failed to load project</h1>
        <p className="text-sm">{view.error}</p>
        <button type="button" className="rounded bg-neutral-900 px-3 py-1.5 text-sm text-white dark:bg-white dark:text-neutral-900" onClick={() => actor.send({ type: 'project.retry' })}>
          Try again
        </button>
      </div>
    )
  }

  const { project } = view
  switch (view.page) {
    case 'normal':
      return <>{children}</>
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
