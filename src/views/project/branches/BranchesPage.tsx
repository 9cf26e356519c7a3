import { useActorRef, useSelector } from '@xstate/react'
import { Suspense } from 'react'
import { Link } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import type { BranchingProject, ToastsRef } from '../../../../machines/branchingEnablement.machine'
import {
  branchStatusLabel,
  selectBranchesView,
  type BranchDetailView,
  type BranchStatusActorRef,
  type branchStatusMachine,
} from '../../../../machines/branchStatus.machine'
import { selectProject } from '../../../../machines/projectStatus.machine'
import type { BranchResponse, DiffChange, MigrationError, MigrationResult, SeedResult } from '../../../contracts/branching'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic, type Loader } from '../../shell/logic'
import { Modal } from '../../shell/Modal'
import { Button, Card, ErrorPanel, Loading, PageHeading, cx, InlineError } from '../../shell/ui'
import { PAGE_CLASS } from '../ProjectMachinePage'
import { useProjectActor } from '../../shell/projectActor'
import { BranchingModal } from './BranchingModal'
import { href } from '../../../href'

const HEADING = {
  title: 'Branches',
  description: "Preview branches: projects whose database is built by running your repository's migrations and seed for a git branch.",
}

/** /project/{ref}/branches: one branch status actor per project, with the project's toasts. */
export function BranchesPage() {
  const logic = useAppLogic()
  const projectActor = useProjectActor()
  const project = useSelector(projectActor, selectProject)
  const toasts = useSelector(projectActor, (snapshot) => snapshot.children.toasts)
  if (!project || !toasts) return null
  const branching: BranchingProject = { ref: project.ref, organizationSlug: project.organization_slug, organizationId: project.organization_id, region: project.region }
  return (
    <Suspense
      fallback={
        <div className={PAGE_CLASS}>
          <PageHeading {...HEADING} />
          <Loading label="Loading branches…" />
        </div>
      }
    >
      <Host key={project.ref} machine={logic.branchStatus} project={branching} toasts={toasts} />
    </Suspense>
  )
}

function Host({ machine, project, toasts }: { machine: Loader<typeof branchStatusMachine>; project: BranchingProject; toasts: ToastsRef }) {
  const actor = useActorRef(useLoaded(machine), { input: { project, toasts } })
  return <Branches actor={actor} />
}

export function Branches({ actor }: { actor: BranchStatusActorRef }) {
  const view = useSelector(actor, selectBranchesView)
  const enablement = useSelector(actor, (snapshot) => snapshot.children.enablement)
  const canOpen = useSelector(enablement, (snapshot) => snapshot?.can({ type: 'modal.open' }) ?? false)
  return (
    <div className={PAGE_CLASS}>
      <PageHeading
        {...HEADING}
        actions={
          enablement ? (
            <Button variant="primary" disabled={!canOpen} onClick={() => enablement.send({ type: 'modal.open' })}>
              Enable branching
            </Button>
          ) : null
        }
      />
      {view.phase === 'loading' ? <Loading label="Loading branches…" /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to load branches" message={view.error} onRetry={() => actor.send({ type: 'branches.retry' })} /> : null}
      {view.phase === 'loaded' ? (
        <div className="space-y-6">
          <BranchTable actor={actor} branches={view.branches} watching={view.watching} selectedId={view.selected?.branch.id ?? null} />
          {view.selected ? <BranchDetailPanel actor={actor} view={view.selected} /> : null}
        </div>
      ) : null}
      {enablement ? <BranchingModal actor={enablement as ActorRefFrom<typeof enablement>} /> : null}
    </div>
  )
}

const formatTime = (iso: string) => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}

function StatusPill({ status, label }: { status: string; label: string }) {
  const failed = /FAILED|failed/.test(status)
  const done = /PASSED|DEPLOYED|applied/.test(status)
  return (
    <span
      className={cx(
        'rounded-full px-2 py-0.5 text-xs whitespace-nowrap',
        failed && 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200',
        done && 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200',
        !failed && !done && 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200',
      )}
    >
      {label}
    </span>
  )
}

function BranchTable({ actor, branches, watching, selectedId }: { actor: BranchStatusActorRef; branches: BranchResponse[]; watching: boolean; selectedId: string | null }) {
  if (branches.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-neutral-300 p-8 text-center text-sm text-neutral-500 dark:border-neutral-700">
        No preview branches yet. Enable branching to build one from a git branch of the connected repository.
      </p>
    )
  }
  return (
    <Card>
      {watching ? <p className="border-b border-neutral-200 px-5 py-2 text-xs text-neutral-500 dark:border-neutral-800">Watching the branches being built…</p> : null}
      <div className="overflow-x-auto">
        <table aria-label="Branches" className="min-w-full text-sm">
          <thead className="border-b border-neutral-200 text-left text-xs text-neutral-500 dark:border-neutral-800 dark:text-neutral-400">
            <tr>
              <th scope="col" className="px-5 py-2 font-medium">Name</th>
              <th scope="col" className="px-3 py-2 font-medium">Git branch</th>
              <th scope="col" className="px-3 py-2 font-medium">Status</th>
              <th scope="col" className="px-3 py-2 font-medium">Created</th>
              <th scope="col" className="px-5 py-2 font-medium"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
            {branches.map((branch) => (
              <tr key={branch.id} aria-selected={branch.id === selectedId}>
                <th scope="row" className="px-5 py-3 text-left font-mono font-medium">{branch.name}</th>
                <td className="px-3 py-3 font-mono text-xs">{branch.git_branch ?? '—'}</td>
                <td className="px-3 py-3">
                  <StatusPill status={branch.status} label={branchStatusLabel(branch)} />
                </td>
                <td className="px-3 py-3 text-xs">{formatTime(branch.created_at)}</td>
                <td className="px-5 py-3 text-right">
                  <Button variant="ghost" aria-label={`Open branch ${branch.name}`} onClick={() => actor.send({ type: 'branch.open', id: branch.id })}>
                    Open
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  )
}

const duration = (ms: number | null) => (ms === null ? '—' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`)

function ErrorCell({ error }: { error: MigrationError | null }) {
  if (!error) return <>—</>
  return (
    <div className="space-y-1">
      <p className="text-red-700 dark:text-red-300">
        {error.code ? `${error.code}: ` : ''}
        {error.message}
      </p>
      <pre className="max-w-md overflow-x-auto rounded bg-neutral-100 p-1 text-[11px] dark:bg-neutral-800">{error.statement}</pre>
    </div>
  )
}

function StepRow({ label, step }: { label: string; step: MigrationResult | SeedResult }) {
  return (
    <tr>
      <th scope="row" className="px-5 py-2 text-left font-mono text-xs font-normal">{label}</th>
      <td className="px-3 py-2">
        <StatusPill status={step.status} label={step.status} />
      </td>
      <td className="px-3 py-2 text-xs">{duration(step.duration_ms)}</td>
      <td className="px-3 py-2 text-xs">
        <ErrorCell error={step.error} />
      </td>
    </tr>
  )
}

function changeLine(change: DiffChange) {
  const where = change.table ? `${change.schema}.${change.table}.${change.name}` : `${change.schema}.${change.name}`
  return `${change.change} ${change.kind} ${where}`
}

function BranchDetailPanel({ actor, view }: { actor: BranchStatusActorRef; view: BranchDetailView }) {
  const { branch } = view
  return (
    <section aria-label={`Branch ${branch.name}`} className="space-y-4 rounded-lg border border-neutral-200 p-5 dark:border-neutral-800">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-lg font-semibold">
            Branch <span className="font-mono">{branch.name}</span>
          </h2>
          <p className="text-xs text-neutral-500">
            {branchStatusLabel(branch)} · git branch <span className="font-mono">{branch.git_branch ?? '—'}</span> ·{' '}
            <Link href={href.project(branch.project_ref)} className="font-medium text-emerald-700 underline-offset-4 hover:underline dark:text-emerald-400">
              Open the branch's project
            </Link>
          </p>
        </div>
        <Button variant="ghost" onClick={() => actor.send({ type: 'branch.close' })}>
          Close
        </Button>
      </header>
      {view.phase === 'loading' ? <Loading label="Loading the branch's results…" /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to load the branch" message={view.error} onRetry={() => actor.send({ type: 'detail.retry' })} /> : null}
      {view.phase === 'shown' ? <BranchResults actor={actor} view={view} /> : null}
    </section>
  )
}

function BranchResults({ actor, view }: { actor: BranchStatusActorRef; view: Extract<BranchDetailView, { phase: 'shown' }> }) {
  const { detail, branch } = view
  const canMerge = useSelector(actor, (snapshot) => snapshot.can({ type: 'merge.start' }))
  const { migrations } = detail
  return (
    <>
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => actor.send({ type: 'merge.start' })} disabled={!canMerge}>
          Merge into parent
        </Button>
        <Button onClick={() => actor.send({ type: 'reset.start' })} disabled={!canMerge}>
          Reset branch
        </Button>
        <Button variant="danger" onClick={() => actor.send({ type: 'delete.start' })} disabled={!canMerge}>
          Delete branch
        </Button>
      </div>
      {view.error && view.action === null ? (
        <InlineError>{view.error}</InlineError>
      ) : null}
      <Card>
        <div className="overflow-x-auto">
          <table aria-label="Migrations" className="min-w-full text-sm">
            <thead className="border-b border-neutral-200 text-left text-xs text-neutral-500 dark:border-neutral-800 dark:text-neutral-400">
              <tr>
                <th scope="col" className="px-5 py-2 font-medium">File</th>
                <th scope="col" className="px-3 py-2 font-medium">Status</th>
                <th scope="col" className="px-3 py-2 font-medium">Time</th>
                <th scope="col" className="px-3 py-2 font-medium">Error</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
              {migrations.migrations.map((migration) => (
                <StepRow key={migration.file} label={migration.file} step={migration} />
              ))}
              <StepRow label={`${migrations.seed.path} (seed)`} step={migrations.seed} />
            </tbody>
          </table>
        </div>
      </Card>
      {migrations.warnings.length > 0 ? (
        <ul aria-label="Warnings" className="space-y-0.5 text-xs text-amber-800 dark:text-amber-300">
          {migrations.warnings.map((warning, index) => (
            <li key={index}>{warning.message}</li>
          ))}
        </ul>
      ) : null}
      <section aria-label="Schema changes" className="space-y-2">
        <h3 className="text-sm font-semibold">Schema changes against the parent</h3>
        {detail.diff === null ? (
          <p className="text-sm text-neutral-500">The schemas could not be compared: {detail.diffError}</p>
        ) : detail.diff.changes.length === 0 ? (
          <p className="text-sm text-neutral-500">No differences: the branch's schema is the parent's.</p>
        ) : (
          <ul className="space-y-0.5 font-mono text-xs">
            {detail.diff.changes.map((change, index) => (
              <li key={index}>{changeLine(change)}</li>
            ))}
          </ul>
        )}
      </section>
      <ActionDialog actor={actor} view={view} name={branch.name} />
    </>
  )
}

const ACTION_TITLES = { merge: 'Merge branch', reset: 'Reset branch', delete: 'Delete branch' } as const
const ACTION_RUNNING = { merge: 'Merging…', reset: 'Resetting…', delete: 'Deleting…' } as const

function ActionDialog({ actor, view, name }: { actor: BranchStatusActorRef; view: Extract<BranchDetailView, { phase: 'shown' }>; name: string }) {
  const canConfirm = useSelector(actor, (snapshot) => snapshot.can({ type: 'action.confirm' }))
  const canCancel = useSelector(actor, (snapshot) => snapshot.can({ type: 'action.cancel' }))
  const action = view.action
  const open = action !== null && !action.planning
  return (
    <>
      {action?.planning ? <Loading label="Reading what a merge would run…" /> : null}
      <Modal open={open} onClose={() => canCancel && actor.send({ type: 'action.cancel' })} title={action ? ACTION_TITLES[action.kind] : ''}>
        {action && open ? (
          <div className="space-y-4 text-sm">
            {action.kind === 'merge' ? (
              action.plan && action.plan.migrations.length > 0 ? (
                <>
                  <p>These migrations of {name} run on the parent project, in this order, each in its own transaction:</p>
                  <ol aria-label="Migrations to merge" className="list-decimal pl-5 font-mono text-xs">
                    {action.plan.migrations.map((migration) => (
                      <li key={migration.version}>
                        {migration.version}_{migration.name}
                      </li>
                    ))}
                  </ol>
                </>
              ) : (
                <p>Nothing to merge: the parent has run every migration of {name}.</p>
              )
            ) : null}
            {action.kind === 'reset' ? <p>Reset {name}? Its database is rebuilt and every migration and the seed run again; its data is lost.</p> : null}
            {action.kind === 'delete' ? <p>Delete {name}? Its project and database are deleted. This cannot be undone.</p> : null}
            {view.error ? (
              <InlineError>{view.error}</InlineError>
            ) : null}
            <div className="flex justify-end gap-2">
              <Button onClick={() => actor.send({ type: 'action.cancel' })} disabled={!canCancel}>
                Cancel
              </Button>
              <Button variant={action.kind === 'merge' ? 'primary' : 'danger'} onClick={() => actor.send({ type: 'action.confirm' })} disabled={!canConfirm}>
                {action.running ? ACTION_RUNNING[action.kind] : ACTION_TITLES[action.kind]}
              </Button>
            </div>
          </div>
        ) : null}
      </Modal>
    </>
  )
}
