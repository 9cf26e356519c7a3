import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectPausedView, type pausedMachine } from '../../../../machines/paused.machine'
import type { Project } from '../../../contracts/projects'
import { Modal } from '../../shell/Modal'
import { Button, TextLink } from '../../shell/ui'
import { LifecycleScreen } from './LifecycleScreen'
import { href } from '../../../href'

export const RESTORE_DENIED = 'You do not have the required permissions to restore this project'
export const RESTORE_TOOLTIP = 'You need additional permissions to resume this project'

export function PausedPage({ actor, project }: { actor: ActorRefFrom<typeof pausedMachine>; project: Project }) {
  const view = useSelector(actor, selectPausedView)
  const send = actor.send

  return (
    <LifecycleScreen titleId="paused-title" title="Project is paused" projectName={project.name} tone="paused">
      <p>
        This project is not running: its database, API and services are paused, and its data is kept safe. Restore it
        to use it again.
      </p>

      {view.phase === 'loadFailed' ? (
        <div role="alert" className="space-y-2 rounded-lg border border-red-300 bg-red-50 p-4 text-red-900 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200">
          <p className="font-medium">Failed to check whether this project can be restored</p>
          <p>{view.loadError}</p>
          <Button onClick={() => send({ type: 'context.retry' })}>Try again</Button>
        </div>
      ) : null}

      <div className="flex flex-wrap items-center gap-3">
        <span className="group relative inline-flex">
          <Button
            variant="primary"
            disabled={!view.canRequestRestore}
            aria-describedby={view.lacksPermission ? 'restore-tooltip' : undefined}
            onClick={() => send({ type: 'restore.request' })}
          >
            {view.phase === 'loading' ? 'Checking…' : 'Restore project'}
          </Button>
          {view.lacksPermission ? (
            <span
              id="restore-tooltip"
              role="tooltip"
              className="invisible absolute top-full left-0 z-10 mt-2 w-64 rounded-md bg-neutral-900 px-3 py-2 text-xs text-white shadow-lg group-focus-within:visible group-hover:visible dark:bg-neutral-100 dark:text-neutral-900"
            >
              {RESTORE_TOOLTIP}
            </span>
          ) : null}
        </span>
      </div>

      {view.denied ? (
        <p role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100">
          {RESTORE_DENIED}
        </p>
      ) : null}

      {view.plan === 'free' ? (
        <div className="rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
          <p>
            Projects on the Free plan are paused after a week of inactivity, and a member can run only a limited number
            of free projects at a time. Upgrade to Pro to keep your projects running.
          </p>
          <p className="mt-2">
            <TextLink href={href.orgPlans(project.organization_slug)}>Upgrade to Pro</TextLink>
          </p>
        </div>
      ) : view.plan !== null ? (
        <div className="rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
          <p>
            Once restored, the project's compute is billed again by the hour for as long as it runs, at the rate of
            its compute size.
          </p>
          <p className="mt-2">
            <TextLink href={href.project(project.ref, 'settings/general')}>Project settings</TextLink>
          </p>
        </div>
      ) : null}

      <Modal open={view.dialog === 'limit'} onClose={() => send({ type: 'limit.close' })} title="Free project limit reached">
        <div className="space-y-3 text-sm">
          <p>
            This organization is on the Free plan, and these members already own the maximum number of active free
            projects ({view.membersReachedLimit[0]?.free_project_limit ?? 0}):
          </p>
          <ul className="divide-y divide-neutral-200 rounded-lg border border-neutral-200 dark:divide-neutral-800 dark:border-neutral-800">
            {view.membersReachedLimit.map((member) => (
              <li key={member.primary_email} className="px-3 py-2">
                <span className="font-medium">{member.username}</span>{' '}
                <span className="text-neutral-500">{member.primary_email}</span>
              </li>
            ))}
          </ul>
          <p>To restore this project, delete, pause or upgrade one of their projects first.</p>
          <div className="flex justify-end gap-2 pt-2">
            <Button onClick={() => send({ type: 'limit.close' })}>Understood</Button>
          </div>
        </div>
      </Modal>

      <Modal open={view.dialog === 'confirm'} onClose={() => send({ type: 'restore.cancel' })} title="Restore this project">
        <div className="space-y-3 text-sm">
          <p>
            Restoring brings {project.name} back online: its database, API and services start again. It can take a few
            minutes; you can follow it on the project's page.
          </p>
          <div className="flex justify-end gap-2 pt-2">
            <Button disabled={!view.canCancel} onClick={() => send({ type: 'restore.cancel' })}>
              Cancel
            </Button>
            <Button variant="primary" disabled={!view.canConfirm} onClick={() => send({ type: 'restore.confirm' })}>
              {view.confirmed ? 'Restoring…' : 'Confirm restore'}
            </Button>
          </div>
        </div>
      </Modal>
    </LifecycleScreen>
  )
}
