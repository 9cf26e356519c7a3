import { useSelector } from '@xstate/react'
import type { ReactNode } from 'react'
import { selectProjectView } from '../../../../machines/projectStatus.machine'
import { lazyComponent } from '../../shell/lazy'
import { Loading, TextLink } from '../../shell/ui'
import { useProjectActor } from '../../shell/projectActor'
import { href } from '../../../href'

// The lifecycle screens load with the first project that needs one, off a healthy project's first load; while
// their chunk loads the project's loading treatment stays up.
const LifecyclePage = lazyComponent(() => import('./LifecyclePage'), <Loading label="Loading project…" />)

/**
 * The main area of a project route: the full-page state the project status machine routed to, each driven by
 * the child it runs in that state, otherwise the page itself. Never blank: loading and failure have their own
 * screens, and without the child (the moment the project is being fetched again) the page's own screen stays up.
 */
export function ProjectStatusGate({ children, skeleton }: { children: ReactNode; /** Shown instead of the loading line (project home's skeleton). */ skeleton?: ReactNode }) {
  const actor = useProjectActor()
  const view = useSelector(actor, selectProjectView)

  if (view.phase === 'loading') {
    if (skeleton) return <>{skeleton}</>
    return (
      <div role="status" aria-live="polite" className="p-8 text-sm text-neutral-500">
        Loading project…
      </div>
    )
  }
  if (view.phase === 'notFound') return <ProjectNotFound />
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
  return <LifecyclePage page={view.page} project={view.project} />
}

/** An unknown project ref: no such project for this person, and the way back to the project list. */
function ProjectNotFound() {
  return (
    <main className="flex min-h-[60vh] flex-col items-center justify-center gap-3 p-8 text-center">
      <p className="text-sm font-semibold text-emerald-700 dark:text-emerald-400">404</p>
      <h1 className="text-2xl font-semibold tracking-tight">Project not found</h1>
      <p className="max-w-md text-sm text-neutral-600 dark:text-neutral-400">
        No project with this reference exists in your organizations. It may have been deleted, or the link may be mistyped.
      </p>
      <TextLink href={href.projects()}>Back to your projects</TextLink>
    </main>
  )
}
