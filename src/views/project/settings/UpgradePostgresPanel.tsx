import { useActorRef, useSelector } from '@xstate/react'
import { Suspense, useEffect, type ReactNode } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { RESOURCE_TEXT } from '../../../../machines/resourceBanner'
import { selectUpgradeActionView, type upgradeActionMachine } from '../../../../machines/upgradeAction.machine'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic } from '../../shell/logic'
import { Modal } from '../../shell/Modal'
import { href } from '../../../href'
import { Button, Card, ErrorPanel, Loading, TextLink, inputClass } from '../../shell/ui'
import { Field } from '../../shell/Field'
import { ProjectFactsHeading } from '../../shell/ProjectFacts'
import { useProjectActor } from '../../shell/projectActor'

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
          <Field id="upgrade-target" label="Target version">
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
          </Field>
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

/**
 * What the resource banner's links land on (settings/infrastructure#{anchor}, the anchors of RESOURCE_TEXT): a section
 * per resource saying what the local platform really has behind it, in one line each.
 */
function ResourceSections({ organizationSlug }: { organizationSlug: string | null }) {
  const sections: Array<{ id: string; title: string; text: ReactNode }> = [
    {
      id: RESOURCE_TEXT.cpu_exhaustion.anchor,
      title: 'CPU',
      text: "Every project's database runs inside the platform's own server process, so a project has no CPU budget of its own to use up.",
    },
    {
      id: RESOURCE_TEXT.memory_and_swap_exhaustion.anchor,
      title: 'Memory and swap',
      text: "An open project database takes part of the platform server's memory; there is no per-project memory or swap limit.",
    },
    {
      id: RESOURCE_TEXT.disk_io_exhaustion.anchor,
      title: 'Disk IO budget',
      text: 'Projects read and write the disk of the machine the platform runs on; there is no IO budget to exhaust.',
    },
    {
      id: RESOURCE_TEXT.disk_space_exhaustion.anchor,
      title: 'Disk space',
      text: (
        <>
          Each database's size is measured and counted in{' '}
          {organizationSlug ? <TextLink href={href.org(organizationSlug, 'usage')}>the organization's usage</TextLink> : "the organization's usage"}.
        </>
      ),
    },
  ]
  return (
    <Card className="p-5">
      <h2 className="mb-3 font-medium">Resources</h2>
      <div className="space-y-4">
        {sections.map((section) => (
          <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="scroll-mt-4">
            <h3 id={`${section.id}-title`} className="text-sm font-medium">
              {section.title}
            </h3>
            <p className="text-sm text-neutral-600 dark:text-neutral-300">{section.text}</p>
          </section>
        ))}
      </div>
    </Card>
  )
}

/** A link with a fragment (the resource banner's) scrolls to its section once the page has it. */
function useScrollToFragment() {
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1))
    if (id) document.getElementById(id)?.scrollIntoView()
  }, [])
}

/** settings/infrastructure: the project's facts (as every settings page), its Postgres upgrade and its resources. */
export function InfrastructureSettingsPage() {
  const project = useSelector(useProjectActor(), selectProject)
  useScrollToFragment()
  return (
    <>
      <ProjectFactsHeading title="Infrastructure" description="The servers behind your project and the software versions they run." project={project} />
      <div className="mx-auto w-full max-w-4xl space-y-6 px-6 pb-8">
        <UpgradePostgresSection />
        <ResourceSections organizationSlug={project?.organization_slug ?? null} />
      </div>
    </>
  )
}
