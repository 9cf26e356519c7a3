/**
 * Project settings pages with data: Add-ons (PITR, its panel at ?panel=pitr), Database (how the database is reached)
 * and Storage (the buckets' upload limits). Each renders its machine's state; the pages load with their first visit.
 */
import { useSelector } from '@xstate/react'
import { useSearchParams } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { selectCanSavePassword, selectDatabaseSettingsView, type databaseSettingsMachine, type PasswordResetView } from '../../../../machines/databaseSettings.machine'
import { STRONG_PASSWORD_HINT } from '../../../../machines/dbPassword'
import { Field, fieldAria } from '../../shell/Field'
import { selectProjectAddonsView, type projectAddonsMachine } from '../../../../machines/projectAddons.machine'
import { selectOrganizationBySlug } from '../../../../machines/projectList.machine'
import { projectLink, selectProject } from '../../../../machines/projectStatus.machine'
import { selectStorageBucketsView, type storageBucketsMachine } from '../../../../machines/storageBuckets.machine'
import { can } from '../../../contracts/common'
import { href } from '../../../href'
import { Modal } from '../../shell/Modal'
import { useProjectListActor, useShell } from '../../shell/contexts'
import { useAppLogic } from '../../shell/logic'
import { Button, Card, DataList, ErrorPanel, Loading, PageHeading, TextLink, cx, inputClass } from '../../shell/ui'
import { ProjectMachinePage } from '../ProjectMachinePage'
import { useProjectActor } from '../../shell/projectActor'

const PAGE = 'mx-auto w-full max-w-4xl space-y-6 px-6 py-8'

export type ProjectAddonsActorRef = ActorRefFrom<typeof projectAddonsMachine>
export type DatabaseSettingsActorRef = ActorRefFrom<typeof databaseSettingsMachine>
export type StorageLimitsActorRef = ActorRefFrom<typeof storageBucketsMachine>

// ---------------------------------------------------------------- Add-ons

const ADDONS_HEADING = { title: 'Add-ons', description: "Extra capabilities of the project, billed with its organization's plan." }
export const PITR_NOTICE = 'We strongly encourage enabling Point in Time Recovery (PITR)'

/** /project/{ref}/settings/addons (?panel=pitr opens the PITR panel). */
export function AddonsSettingsPage() {
  const logic = useAppLogic()
  const project = useSelector(useProjectActor(), selectProject)
  const organization = useSelector(useProjectListActor(), selectOrganizationBySlug(project?.organization_slug ?? null))
  const role = useSelector(useShell().session, (snapshot) =>
    snapshot.context.session?.permissions.find((entry) => entry.organization_slug === project?.organization_slug)?.role ?? null,
  )
  const paidPlan = organization !== null && organization.plan.id !== 'free'
  const mayChange = role !== null && can(role, 'organizations:write')
  return (
    <ProjectMachinePage
      key={`${paidPlan}:${mayChange}`}
      machine={logic.projectAddons}
      heading={ADDONS_HEADING}
      loadingLabel="Retrieving add-ons…"
      input={(ref) => ({ ref, paidPlan, mayChange })}
      render={(actor) => <AddonsPage actor={actor} organizationSlug={project?.organization_slug ?? null} />}
    />
  )
}

export function AddonsPage({ actor, organizationSlug }: { actor: ProjectAddonsActorRef; organizationSlug: string | null }) {
  const view = useSelector(actor, selectProjectAddonsView)
  const [params, setParams] = useSearchParams()
  const panelOpen = params.get('panel') === 'pitr'
  const closePanel = () => {
    actor.send({ type: 'pitr.choose', variant: null })
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous)
        next.delete('panel')
        return next
      },
      { replace: true },
    )
  }
  return (
    <div className={PAGE}>
      <PageHeading {...ADDONS_HEADING} />
      {view.phase === 'loading' ? <Loading label="Retrieving add-ons…" /> : null}
      {view.phase === 'loadFailed' ? (
        <ErrorPanel title="Failed to retrieve add-ons" message={view.error} onRetry={() => actor.send({ type: 'addons.retry' })} />
      ) : null}
      {view.phase === 'ready' || view.phase === 'saving' ? (
        <>
          <Card>
            <section aria-labelledby="pitr-heading" className="flex flex-wrap items-center justify-between gap-4 px-5 py-4">
              <div>
                <h2 id="pitr-heading" className="font-semibold">
                  Point in Time Recovery
                </h2>
                <p className="mt-1 text-sm text-neutral-600 dark:text-neutral-300">
                  {view.pitr ? `Enabled: ${view.pitr.name}.` : 'Not enabled.'} The local platform records the choice; it takes no backups itself.
                </p>
              </div>
              <Button onClick={() => setParams((previous) => new URLSearchParams([...new URLSearchParams(previous), ['panel', 'pitr']]))}>Change point in time recovery</Button>
            </section>
          </Card>
          {view.saved && !panelOpen ? (
            <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
              {view.saved.kind === 'enable' ? 'Point in Time Recovery is enabled' : 'Point in Time Recovery is disabled'}
            </p>
          ) : null}
          <Modal open={panelOpen} onClose={closePanel} title="Point in Time Recovery">
            <PitrPanel actor={actor} organizationSlug={organizationSlug} onDone={closePanel} />
          </Modal>
        </>
      ) : null}
    </div>
  )
}

function PitrPanel({ actor, organizationSlug, onDone }: { actor: ProjectAddonsActorRef; organizationSlug: string | null; onDone: () => void }) {
  const view = useSelector(actor, selectProjectAddonsView)
  const canEnable = useSelector(actor, (snapshot) => snapshot.can({ type: 'pitr.enable', variant: 'pitr_7' }))
  const canDisable = useSelector(actor, (snapshot) => snapshot.can({ type: 'pitr.disable' }))
  if (view.phase !== 'ready' && view.phase !== 'saving') return null
  const selected = view.selected
  return (
    <div className="space-y-4 text-sm">
      {view.pitr === null ? <p className="rounded-md bg-amber-50 p-3 text-amber-900 dark:bg-amber-950 dark:text-amber-200">{PITR_NOTICE}</p> : null}
      {!view.paidPlan ? (
        <p>
          Point in Time Recovery needs the Pro plan or above.{' '}
          {organizationSlug ? <TextLink href={href.orgPlans(organizationSlug)}>Upgrade the plan</TextLink> : null}
        </p>
      ) : null}
      {view.paidPlan && !view.mayChange ? <p>Only the organization's Owners and Administrators change its add-ons.</p> : null}
      <fieldset className="space-y-2" disabled={!canEnable}>
        <legend className="font-medium">Recovery period</legend>
        {view.variants.map((variant) => (
          <label key={variant.identifier} className="flex items-center gap-2">
            <input type="radio" name="pitr-variant" value={variant.identifier} checked={selected === variant.identifier} onChange={() => actor.send({ type: 'pitr.choose', variant: variant.identifier })} />
            {variant.name}
          </label>
        ))}
      </fieldset>
      {view.error ? (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {view.error}
        </p>
      ) : null}
      {view.saved ? (
        <p role="status" className="text-emerald-700 dark:text-emerald-400">
          {view.saved.kind === 'enable' ? 'Point in Time Recovery is enabled' : 'Point in Time Recovery is disabled'}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button onClick={onDone}>Close</Button>
        {view.pitr ? (
          <Button variant="danger" disabled={!canDisable} onClick={() => actor.send({ type: 'pitr.disable' })}>
            Disable PITR
          </Button>
        ) : null}
        <Button variant="primary" disabled={!canEnable || selected === view.pitr?.identifier} onClick={() => actor.send({ type: 'pitr.enable', variant: selected })}>
          {view.phase === 'saving' ? 'Saving…' : view.pitr ? 'Change recovery period' : 'Enable PITR'}
        </Button>
      </div>
    </div>
  )
}

// ---------------------------------------------------------------- Database

const DATABASE_HEADING = { title: 'Database settings', description: "How the project's database is reached, as the database itself reports it." }

/** /project/{ref}/settings/database */
export function DatabaseSettingsPage() {
  const logic = useAppLogic()
  return (
    <ProjectMachinePage
      machine={logic.databaseSettings}
      heading={DATABASE_HEADING}
      loadingLabel="Retrieving database settings…"
      input={(ref) => ({ ref })}
      render={(actor) => <DatabaseSettings actor={actor} />}
    />
  )
}

const formatBytes = (bytes: number) =>
  bytes >= 1024 ** 3 ? `${(bytes / 1024 ** 3).toFixed(1)} GB` : bytes >= 1024 ** 2 ? `${(bytes / 1024 ** 2).toFixed(1)} MB` : `${Math.round(bytes / 1024)} kB`

export function DatabaseSettings({ actor }: { actor: DatabaseSettingsActorRef }) {
  const view = useSelector(actor, selectDatabaseSettingsView)
  const project = useSelector(useProjectActor(), selectProject)
  return (
    <div className={PAGE}>
      <PageHeading {...DATABASE_HEADING} />
      {view.phase === 'loading' ? <Loading label="Retrieving database settings…" /> : null}
      {view.phase === 'failed' ? (
        <ErrorPanel title="Failed to retrieve the database settings" message={view.error} onRetry={() => actor.send({ type: 'settings.retry' })} />
      ) : null}
      {view.phase === 'loaded' ? (
        <>
          <Card>
            <section aria-labelledby="connection-heading">
              <h2 id="connection-heading" className="px-5 pt-4 font-semibold">
                Connection
              </h2>
              <DataList
                rows={[
                  ['Engine', view.connection.engine === 'pglite' ? `PGlite (Postgres ${view.connection.server_version}, embedded)` : `PostgreSQL ${view.connection.server_version}`],
                  ['Host', view.connection.host ?? 'None: nothing listens for connections'],
                  ['Port', view.connection.port === null ? 'None' : String(view.connection.port)],
                  ['Database name', <span className="font-mono">{view.connection.database}</span>],
                  ['User', <span className="font-mono">{view.connection.user}</span>],
                  ['Connection string', view.connection.connection_string === null ? 'None' : <span className="font-mono">{view.connection.connection_string}</span>],
                  ['Connection pooler', view.connection.pooler.enabled ? 'Enabled: the platform\u2019s Postgres port routes by user name' : 'None: every connection goes straight to the database'],
                  ['Max connections', String(view.connection.max_connections)],
                  ['Database size', formatBytes(view.connection.size_bytes)],
                ]}
              />
            </section>
          </Card>
          <DatabasePasswordSection actor={actor} reset={view.reset} />
          <p className="text-sm text-neutral-600 dark:text-neutral-300">
            {view.connection.connection_string === null
              ? 'This project database is embedded in the platform: reach it through the '
              : 'Connect with the database password (reset it above), or through the '}
            {project ? <TextLink href={projectLink(project, project.ref, 'sql/new')}>SQL Editor</TextLink> : 'SQL Editor'}
            {' and the project\u2019s REST API ('}
            {project ? <TextLink href={projectLink(project, project.ref, 'settings/api')}>API settings</TextLink> : 'API settings'}
            {').'}
          </p>
        </>
      ) : null}
    </div>
  )
}

/** The database password: reset it in a dialog (the platform keeps only its verifier, so it is never shown). */
function DatabasePasswordSection({ actor, reset }: { actor: DatabaseSettingsActorRef; reset: PasswordResetView }) {
  const canSave = useSelector(actor, selectCanSavePassword)
  return (
    <Card>
      <section aria-labelledby="db-password-heading" className="flex flex-wrap items-center justify-between gap-4 px-5 py-4">
        <div className="space-y-1">
          <h2 id="db-password-heading" className="font-semibold">
            Database password
          </h2>
          <p className="text-sm text-neutral-600 dark:text-neutral-300">
            The password of <span className="font-mono">postgres</span> on the project&apos;s Postgres port. It cannot be shown: reset it if you lost it.
          </p>
          {reset.notice ? (
            <p role="status" className="text-sm text-green-800 dark:text-green-300">
              {reset.notice}
            </p>
          ) : null}
        </div>
        <Button onClick={() => actor.send({ type: 'password.open' })}>Reset database password</Button>
      </section>
      <Modal open={reset.open} onClose={() => actor.send({ type: 'password.cancel' })} title="Reset database password">
        <form
          className="space-y-4"
          aria-label="Reset database password"
          onSubmit={(event) => {
            event.preventDefault()
            actor.send({ type: 'password.save' })
          }}
        >
          <Field id="reset-db-password" label="New password" hint={reset.problem ?? STRONG_PASSWORD_HINT}>
            <input
              {...fieldAria('reset-db-password', { hint: true })}
              type="password"
              className={inputClass}
              value={reset.password}
              disabled={reset.saving}
              autoComplete="new-password"
              onChange={(event) => actor.send({ type: 'password.change', password: event.target.value })}
            />
          </Field>
          <p className="text-sm text-neutral-600 dark:text-neutral-300">Clients using the old password are refused from their next connection.</p>
          {reset.error ? (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              {reset.error}
            </p>
          ) : null}
          <div className="flex justify-end gap-3">
            <Button type="button" onClick={() => actor.send({ type: 'password.cancel' })} disabled={reset.saving}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={!canSave}>
              {reset.saving ? 'Resetting password…' : 'Reset password'}
            </Button>
          </div>
        </form>
      </Modal>
    </Card>
  )
}

// ---------------------------------------------------------------- Storage

const STORAGE_HEADING = { title: 'Storage settings', description: "The upload limits of the project's buckets." }

/** /project/{ref}/settings/storage: the buckets' limits (file size and MIME types), read like the Storage page. */
export function StorageSettingsPage() {
  const logic = useAppLogic()
  return (
    <ProjectMachinePage
      machine={logic.storageBuckets}
      heading={STORAGE_HEADING}
      loadingLabel="Loading buckets…"
      // This page only reads the buckets' limits: it offers no change.
      input={(ref) => ({ ref, canManage: false })}
      render={(actor) => <StorageLimits actor={actor} />}
    />
  )
}

const sizeOf = (bytes: number | null) => (bytes === null ? 'No limit' : bytes >= 1024 ** 2 ? `${+(bytes / 1024 ** 2).toFixed(1)} MB` : bytes >= 1024 ? `${+(bytes / 1024).toFixed(1)} KB` : `${bytes} bytes`)

export function StorageLimits({ actor }: { actor: StorageLimitsActorRef }) {
  const view = useSelector(actor, selectStorageBucketsView)
  const project = useSelector(useProjectActor(), selectProject)
  return (
    <div className={PAGE}>
      <PageHeading {...STORAGE_HEADING} />
      {view.phase === 'loading' ? <Loading label="Loading buckets…" /> : null}
      {view.phase === 'failed' ? (
        <ErrorPanel
          title={view.storageDisabled ? 'Storage is not enabled for this project' : 'Failed to load buckets'}
          message={view.error}
          onRetry={view.storageDisabled ? undefined : () => actor.send({ type: 'buckets.retry' })}
        />
      ) : null}
      {view.phase === 'loaded' ? (
        view.buckets.length === 0 ? (
          <p className="text-sm text-neutral-600 dark:text-neutral-300">
            No buckets yet, so no limits: uploads are limited per bucket.{' '}
            {project ? <TextLink href={projectLink(project, project.ref, 'storage/buckets')}>Create a bucket</TextLink> : null}
          </p>
        ) : (
          <Card>
            <table aria-label="Upload limits" className="min-w-full text-sm">
              <thead className="border-b border-neutral-200 text-left text-xs text-neutral-500 dark:border-neutral-800 dark:text-neutral-400">
                <tr>
                  <th scope="col" className="px-5 py-2 font-medium">Bucket</th>
                  <th scope="col" className="px-3 py-2 font-medium">Access</th>
                  <th scope="col" className="px-3 py-2 font-medium">File size limit</th>
                  <th scope="col" className="px-5 py-2 font-medium">Allowed MIME types</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
                {view.buckets.map((bucket) => (
                  <tr key={bucket.id}>
                    <th scope="row" className="px-5 py-3 text-left font-medium">{bucket.name}</th>
                    <td className="px-3 py-3">{bucket.public ? 'Public' : 'Private'}</td>
                    <td className="px-3 py-3">{sizeOf(bucket.file_size_limit)}</td>
                    <td className={cx('px-5 py-3', bucket.allowed_mime_types !== null && 'font-mono text-xs')}>
                      {bucket.allowed_mime_types === null ? 'Any' : bucket.allowed_mime_types.length === 0 ? 'None' : bucket.allowed_mime_types.join(', ')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        )
      ) : null}
    </div>
  )
}
