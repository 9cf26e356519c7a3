import { useActorRef, useSelector } from '@xstate/react'
import { Suspense } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { ProjectStatus } from '../../../contracts/common'
import { selectPauseProjectView, type pauseProjectMachine } from '../../../../machines/pauseProject.machine'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic } from '../../shell/logic'
import { Modal } from '../../shell/Modal'
import { Button, Card, Loading } from '../../shell/ui'
import { useProjectActor } from '../../shell/projectActor'

/** The 'Pause project' action of the general settings; one pause flow per project status (keyed). */
export function PauseProjectSection() {
  const projectActor = useProjectActor()
  const project = useSelector(projectActor, selectProject)
  if (!project) return null
  return (
    <Suspense fallback={<Loading label="Loading pause settings…" />}>
      <PauseProjectCard
        key={`${project.ref}:${project.status}`}
        input={{ ref: project.ref, organizationSlug: project.organization_slug, status: project.status }}
        projectName={project.name}
      />
    </Suspense>
  )
}

function PauseProjectCard({ input, projectName }: { input: { ref: string; organizationSlug: string; status: ProjectStatus }; projectName: string }) {
  // The project's layout provides the flow with its refresh request wired to the project status actor.
  const actor = useActorRef(useLoaded(useAppLogic().pauseProject), { input })
  return <PauseProjectPanel actor={actor} projectName={projectName} />
}

/** The action and its confirm dialog, rendering the pause flow's state. */
export function PauseProjectPanel({ actor, projectName }: { actor: ActorRefFrom<typeof pauseProjectMachine>; projectName: string }) {
  const view = useSelector(actor, selectPauseProjectView)
  const send = actor.send

  return (
    <Card className="mt-6 p-5">
      <section aria-labelledby="pause-project-title" className="flex flex-wrap items-start justify-between gap-4">
        <div className="max-w-lg space-y-1">
          <h2 id="pause-project-title" className="font-semibold">Pause project</h2>
          <p className="text-sm text-neutral-500 dark:text-neutral-400">
            Your project's database, API and services are shut down; the data is kept and you can restore the
            project later.
          </p>
          {view.reason ? <p id="pause-project-reason" className="text-sm text-amber-700 dark:text-amber-400">{view.reason}</p> : null}
          {view.phase === 'loadFailed' ? (
            <div role="alert" className="text-sm text-red-700 dark:text-red-300">
              {view.error}{' '}
              <button type="button" className="underline" onClick={() => send({ type: 'permissions.retry' })}>
                Try again
              </button>
            </div>
          ) : null}
        </div>
        <Button
          variant="secondary"
          disabled={!view.canRequest}
          aria-describedby={view.reason ? 'pause-project-reason' : undefined}
          onClick={() => send({ type: 'pause.request' })}
        >
          Pause project
        </Button>
      </section>

      <Modal open={view.dialogOpen} onClose={() => send({ type: 'pause.cancel' })} title="Pause this project">
        <div className="space-y-3 text-sm">
          <p>
            Pausing {projectName} shuts down its database, API and services until you restore it. Anything connected
            to the project stops working meanwhile.
          </p>
          {view.error ? (
            <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200">
              {view.error}
            </p>
          ) : null}
          <div className="flex justify-end gap-2 pt-2">
            <Button disabled={!view.canCancel} onClick={() => send({ type: 'pause.cancel' })}>
              Cancel
            </Button>
            <Button variant="danger" disabled={!view.canConfirm} onClick={() => send({ type: 'pause.confirm' })}>
              {view.confirmed ? 'Pausing…' : 'Confirm pause'}
            </Button>
          </div>
        </div>
      </Modal>
    </Card>
  )
}
