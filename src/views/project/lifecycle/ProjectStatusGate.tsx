import { useSelector } from '@xstate/react'
import type { ReactNode } from 'react'
import type { ActorRefFrom } from 'xstate'
import { buildingTitle, type buildingMachine } from '../../../../machines/building.machine'
import { selectProjectView } from '../../../../machines/projectStatus.machine'
import { useProjectActor } from '../projectActor'
import { BuildingPage, BuildingScreen } from './BuildingPage'
import { UpgradeConnectGate } from './UpgradeConnectGate'
import { PauseRestoreGate } from './PauseRestoreGate'

const TITLES = {
  paused: 'Project is paused',
  upgrading: 'Upgrading project',
  pausing: 'Pausing project',
  connecting: 'Connecting to project',
  restoring: 'Restoration in progress',
} as const

/**
 * The main area of a project route: a full-page lifecycle state when the project status machine says so,
 * otherwise the page itself. Never blank: loading and failure have their own screens.
 */
export function ProjectStatusGate({ children }: { children: ReactNode }) {
  const actor = useProjectActor()
  const view = useSelector(actor, selectProjectView)
  const building = useSelector(actor, (snapshot) => snapshot.children.building as ActorRefFrom<typeof buildingMachine> | undefined)

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
  if (view.page === 'normal') return <>{children}</>
  if (view.page === 'upgrading' || view.page === 'connecting') return <UpgradeConnectGate page={view.page} project={view.project} />
  if (view.page === 'paused' || view.page === 'pausing' || view.page === 'restoring') return <PauseRestoreGate page={view.page} project={view.project} />
  if (view.page === 'building') {
    return building ? (
      <BuildingPage actor={building} projectName={view.project.name} />
    ) : (
      <BuildingScreen
        title={buildingTitle(view.project.status)}
        projectName={view.project.name}
      />
    )
  }
  return (
    <section className="p-8">
      <h1 className="text-2xl font-semibold">{TITLES[view.page]}</h1>
      <p className="mt-2 text-sm text-neutral-500">{view.project.name}</p>
    </section>
  )
}
