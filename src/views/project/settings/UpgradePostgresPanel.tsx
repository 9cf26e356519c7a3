import { useActorRef, useSelector } from '@xstate/react'
import { Suspense } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { selectUpgradeActionView, type upgradeActionMachine } from '../../../../machines/upgradeAction.machine'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic } from '../../shell/logic'
import { Modal } from '../../shell/Modal'
import { Button, Card, ErrorPanel, Loading, inputClass } from '../../shell/ui'
import { ToolPage } from '../pages/ProjectPages'
import { useProjectActor } from '../projectActor'

/** Mounted in settings/infrastructure: the project's Postgres version and the "Upgrade Postgres" action. */
function UpgradePostgresSection() {
  const projectActor = useProjectActor()
  const project = useSelector(projectActor, selectProject)
  if (!project) return null
  return (
    <Suspense fallback={<Loading label="Checking upgrade eligibility…" />}>
      <UpgradePostgresMount key={project.ref} projectRef={project.ref} organizationSlug={project.organization_slug} dbVersion={project.db_version} />
    </Suspense>
  )
}

function UpgradePostgresMount({ projectRef, organizationSlug, dbVersion }: { projectRef: string; organizationSlug: string; dbVersion: string }) {
  // The project's layout provides the flow with its refresh request wired to the project status actor.
  const actor = useActorRef(useLoaded(useAppLogic().upgradeAction), { input: { ref: projectRef, organizationSlug } })
  return <UpgradePostgresPanel actor={actor} dbVersion={dbVersion} />
}

export function UpgradePostgresPanel({ actor, dbVersion }: { actor: ActorRefFrom<typeof upgradeActionMachine>; dbVersion: string }) {
  const view = useSelector(actor, selectUpgradeActionView)
  const canOpen = useSelector(actor, (snapshot) => snapshot.can({ type: 'upgrade.open' }))
  const canConfirm = useSelector(actor, (snapshot) => snapshot.can({ type: 'upgrade.confirm' }))
  const canCancel = useSelector(actor, (snapshot) => snapshot.can({ type: 'upgrade.cancel' }))

  return (
    <Card>
      <section aria-labelledby="postgres-version" className="space-y-3 p-5">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <h2 id="postgres-version" className="font-semibold">Postgres version</h2>
            <p className="mt-1 text-sm text-neutral-500 dark:text-neutral-400">
              Your project runs <span className="font-mono">Postgres {dbVersion}</span>.
            </p>
          </div>
          <Button variant="primary" disabled={!canOpen} onClick={() => actor.send({ type: 'upgrade.open' })}>
            Upgrade Postgres
          </Button>
        </div>
        {view.phase === 'loading' ? <Loading label="Checking upgrade eligibility…" /> : null}
        {view.phase === 'loadFailed' ? (
          <ErrorPanel title="Failed to check upgrade eligibility" message={view.error ?? ''} onRetry={() => actor.send({ type: 'upgrade.retry' })} />
        ) : null}
        {view.phase === 'ready' || view.phase === 'started' ? (
          <p className="text-sm">
            {view.eligible
              ? `Postgres ${view.targets.join(', ')} ${view.targets.length > 1 ? 'are' : 'is'} available for this project.`
              : 'Your project is on the latest Postgres version.'}
          </p>
        ) : null}
        {view.phase === 'ready' && view.eligible && !view.canUpgrade ? (
          <p className="text-sm text-neutral-500">You need additional permissions to upgrade this project.</p>
        ) : null}
        {view.phase === 'started' ? <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">Upgrade requested.</p> : null}
        {view.error && view.phase === 'ready' ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            Failed to start the upgrade: {view.error}
          </p>
        ) : null}
      </section>

      <Modal open={view.dialogOpen} onClose={() => actor.send({ type: 'upgrade.cancel' })} title="Upgrade Postgres">
        <div className="space-y-4 text-sm">
          <p>
            Your project will be offline while it is upgraded
            {view.durationHours !== null ? ` (estimated up to ${view.durationHours} hour${view.durationHours === 1 ? '' : 's'})` : ''}. Its data is
            kept; the upgrade runs in eight steps you can follow on the project page.
          </p>
          <div className="space-y-1.5">
            <label htmlFor="upgrade-target" className="font-medium">
              Target version
            </label>
            <select
              id="upgrade-target"
              className={inputClass}
              value={view.targetVersion ?? ''}
              disabled={view.submitting}
              onChange={(event) => actor.send({ type: 'upgrade.target', version: event.target.value })}
            >
              {view.targets.map((version) => (
                <option key={version} value={version}>
                  Postgres {version}
                </option>
              ))}
            </select>
          </div>
          <div className="flex justify-end gap-3">
            <Button disabled={!canCancel} onClick={() => actor.send({ type: 'upgrade.cancel' })}>
              Cancel
            </Button>
            <Button variant="primary" disabled={!canConfirm} onClick={() => actor.send({ type: 'upgrade.confirm' })}>
              {view.submitting ? 'Starting upgrade…' : 'Confirm upgrade'}
            </Button>
          </div>
        </div>
      </Modal>
    </Card>
  )
}

/** settings/infrastructure: the project's facts (as every settings page) and its Postgres upgrade. */
export function InfrastructureSettingsPage() {
  return (
    <>
      <ToolPage title="Infrastructure" note="The servers behind your project and the software versions they run." />
      <div className="mx-auto w-full max-w-4xl px-6 pb-8">
        <UpgradePostgresSection />
      </div>
    </>
  )
}
