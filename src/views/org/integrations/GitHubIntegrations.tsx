import { useActorRef, useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectGitHubIntegrationsView, selectIntegrationsOrganization, selectOwnToasts, type githubIntegrationsMachine } from '../../../../machines/githubIntegrations.machine'
import type { ToastsRef } from '../../../../machines/repositoryRelink.machine'
import type { Connection, Installation } from '../../../contracts/github'
import { ToastRegion } from '../../shell/ToastRegion'
import { useLoaded } from '../../shell/lazy'
import type { AppLogic } from '../../shell/logic'
import { Modal } from '../../shell/Modal'
import { Button, Card, ErrorPanel, Loading } from '../../shell/ui'
import { PANEL_TITLE, RepositoryLinkerPanel, type RepositoryRelinkActorRef } from './RepositoryLinkerPanel'

export type GitHubIntegrationsActorRef = ActorRefFrom<typeof githubIntegrationsMachine>

/** Dates as the platform's cards show them: day, month, year (UTC). */
export function formatAddedAt(iso: string): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
}

/**
 * The GitHub integration of an organization: its installation cards, its project-to-repository connection cards
 * (each deleted after a confirmation) and the 'Add GitHub repository' panel. Renders the two machines' state only.
 */
export function GitHubIntegrations({
  integrations,
  linker,
  defaultProjectRef,
}: {
  integrations: GitHubIntegrationsActorRef
  linker: RepositoryRelinkActorRef | null
  /** The project the panel opens with chosen (a project's settings page). */
  defaultProjectRef?: string
}) {
  const view = useSelector(integrations, selectGitHubIntegrationsView)
  const ownToasts = useSelector(integrations, selectOwnToasts)
  return (
    <section aria-labelledby="github-integration" className="space-y-6">
      <h2 id="github-integration" className="text-lg font-semibold">
        GitHub
      </h2>
      {view.phase === 'loading' ? <Loading label="Loading integrations…" /> : null}
      {view.phase === 'failed' ? (
        <ErrorPanel title="Failed to load integrations" message={view.error} onRetry={() => integrations.send({ type: 'integrations.retry' })} />
      ) : null}
      {view.phase === 'loaded' ? (
        <>
          <div className="space-y-3">
            <h3 className="text-sm font-medium text-neutral-500">Installations</h3>
            {view.installations.length === 0 ? <p className="text-sm text-neutral-500">GitHub is not installed in {view.organization.name} yet.</p> : null}
            <ul aria-label="Installations" className="space-y-3">
              {view.installations.map((installation) => (
                <InstallationCard key={installation.id} installation={installation} />
              ))}
            </ul>
          </div>
          <div className="space-y-3">
            <div className="flex items-center justify-between">
              <h3 className="text-sm font-medium text-neutral-500">Connected repositories</h3>
              {linker ? <OpenLinkerButton linker={linker} projectRef={defaultProjectRef} /> : null}
            </div>
            {view.connections.length === 0 ? <p className="text-sm text-neutral-500">No project is linked to a repository yet.</p> : null}
            <ul aria-label="Connections" className="space-y-3">
              {view.connections.map((connection) => (
                <ConnectionCard
                  key={connection.id}
                  connection={connection}
                  busy={view.remove !== null}
                  onDelete={() => integrations.send({ type: 'connection.delete', id: connection.id })}
                />
              ))}
            </ul>
          </div>
          <Modal open={view.remove !== null} title="Delete GitHub connection" onClose={() => integrations.send({ type: 'delete.cancel' })}>
            {view.remove ? (
              <div className="space-y-4 text-sm">
                <p>
                  Unlink <strong>{view.remove.connection.project.name}</strong> from <strong>{view.remove.connection.repository.name}</strong>?
                </p>
                <div className="flex justify-end gap-2">
                  <Button disabled={view.remove.deleting} onClick={() => integrations.send({ type: 'delete.cancel' })}>
                    Cancel
                  </Button>
                  <Button variant="danger" disabled={view.remove.deleting} onClick={() => integrations.send({ type: 'delete.confirm' })}>
                    {view.remove.deleting ? 'Deleting…' : 'Delete connection'}
                  </Button>
                </div>
              </div>
            ) : null}
          </Modal>
        </>
      ) : null}
      {linker ? <RepositoryLinkerPanel actor={linker} /> : null}
      {ownToasts ? <ToastRegion actor={ownToasts} /> : null}
    </section>
  )
}

function OpenLinkerButton({ linker, projectRef }: { linker: RepositoryRelinkActorRef; projectRef?: string }) {
  const canOpen = useSelector(linker, (snapshot) => snapshot.can({ type: 'panel.open' }))
  return (
    <Button variant="primary" disabled={!canOpen} onClick={() => linker.send({ type: 'panel.open', ...(projectRef ? { projectRef } : {}) })}>
      {PANEL_TITLE}
    </Button>
  )
}

function InstallationCard({ installation }: { installation: Installation }) {
  const { account } = installation.metadata
  return (
    <li>
      <Card className="flex items-center gap-4 p-4">
        <img src={account.avatar_url} alt="" width={40} height={40} className="h-10 w-10 rounded-md" />
        <div className="flex-1 text-sm">
          <p className="font-medium">
            {account.name} <span className="font-normal text-neutral-500">({account.type})</span>
          </p>
          <p className="text-neutral-500">
            {installation.integration.name} · Added by {installation.added_by.primary_email} on {formatAddedAt(installation.inserted_at)}
          </p>
        </div>
      </Card>
    </li>
  )
}

function ConnectionCard({ connection, busy, onDelete }: { connection: Connection; busy: boolean; onDelete: () => void }) {
  return (
    <li>
      <Card className="flex items-center gap-4 p-4">
        <div className="flex-1 text-sm">
          <p className="font-medium">
            <span className="font-mono">{connection.repository.name}</span> → {connection.project.name}
          </p>
          <p className="text-neutral-500">
            Added by {connection.user.primary_email} on {formatAddedAt(connection.inserted_at)}
          </p>
        </div>
        <Button variant="danger" disabled={busy} aria-label={`Delete connection of ${connection.project.name} to ${connection.repository.name}`} onClick={onDelete}>
          Delete
        </Button>
      </Card>
    </li>
  )
}

/** Creates the two actors of the integrations once their machines have loaded; the linker once the organization is known. */
export function GitHubIntegrationsHost({
  logic,
  slug,
  toasts,
  defaultProjectRef,
}: {
  logic: Pick<AppLogic, 'githubIntegrations' | 'repositoryRelink'>
  slug: string
  /** The region the toasts go to (the open project's); without it the integrations show their own. */
  toasts?: ToastsRef
  defaultProjectRef?: string
}) {
  const integrations = useActorRef(useLoaded(logic.githubIntegrations), { input: { slug, toasts } })
  const organization = useSelector(integrations, selectIntegrationsOrganization)
  return organization ? (
    <LinkerHost logic={logic} integrations={integrations} organization={organization} defaultProjectRef={defaultProjectRef} />
  ) : (
    <GitHubIntegrations integrations={integrations} linker={null} />
  )
}

function LinkerHost({
  logic,
  integrations,
  organization,
  defaultProjectRef,
}: {
  logic: Pick<AppLogic, 'repositoryRelink'>
  integrations: GitHubIntegrationsActorRef
  organization: { id: number; slug: string }
  defaultProjectRef?: string
}) {
  const toasts = useSelector(integrations, (snapshot) => snapshot.context.toasts)
  const linker = useActorRef(useLoaded(logic.repositoryRelink), {
    input: { organization: { id: organization.id, slug: organization.slug }, toasts, connectionsOwner: integrations },
  })
  return <GitHubIntegrations integrations={integrations} linker={linker} defaultProjectRef={defaultProjectRef} />
}
