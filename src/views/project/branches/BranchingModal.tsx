import { useSelector } from '@xstate/react'
import { useId, type FormEvent, type ReactNode } from 'react'
import type { ActorRefFrom } from 'xstate'
import {
  FREE_PLAN_NOTICE,
  PITR_NOTICE,
  POSTGRES_VERSION_FAILED,
  POSTGRES_VERSION_NOTICE,
  PREVIEW_BRANCH_COST,
  REPOSITORIES_FAILED,
  selectBranchingModalView,
  type BranchingModalView,
  type branchingEnablementMachine,
} from '../../../../machines/branchingEnablement.machine'
import { Field, fieldAria } from '../../shell/Field'
import { Modal } from '../../shell/Modal'
import { Button, TextLink, cx, inputClass } from '../../shell/ui'

export type BranchingEnablementActorRef = ActorRefFrom<typeof branchingEnablementMachine>

/** The 'Enable database branching' modal: renders the enablement machine's state and sends it what the person does. */
export function BranchingModal({ actor }: { actor: BranchingEnablementActorRef }) {
  const view = useSelector(actor, selectBranchingModalView)
  const canClose = useSelector(actor, (snapshot) => snapshot.can({ type: 'modal.close' }))
  return (
    <Modal open={view.open} onClose={() => canClose && actor.send({ type: 'modal.close' })} title="Enable database branching" size="lg">
      {view.open ? <BranchingForm actor={actor} view={view} canClose={canClose} /> : null}
    </Modal>
  )
}

function Notice({ tone, children }: { tone: 'warning' | 'error' | 'info'; children: ReactNode }) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'note'}
      className={cx(
        'rounded-md border px-3 py-2 text-sm',
        tone === 'error' && 'border-red-300 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300',
        tone === 'warning' && 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950/40 dark:text-amber-200',
        tone === 'info' && 'border-neutral-200 bg-neutral-50 text-neutral-700 dark:border-neutral-800 dark:bg-neutral-900 dark:text-neutral-300',
      )}
    >
      {children}
    </div>
  )
}

function BranchingForm({ actor, view, canClose }: { actor: BranchingEnablementActorRef; view: BranchingModalView; canClose: boolean }) {
  const id = useId()
  const canEnable = useSelector(actor, (snapshot) => snapshot.can({ type: 'branching.enable' }))
  const { notices, repository, branch } = view
  function submit(event: FormEvent) {
    event.preventDefault()
    actor.send({ type: 'branching.enable' })
  }
  return (
    <form onSubmit={submit} aria-label="Enable database branching" className="space-y-4">
      <p className="text-sm text-neutral-600 dark:text-neutral-400">
        A preview branch is a new project whose database is built by running your repository's migrations and seed for a git branch.
      </p>
      {notices.freePlan ? (
        <Notice tone="warning">
          {FREE_PLAN_NOTICE}. <TextLink href={notices.freePlan.upgradeHref}>Upgrade to Pro</TextLink>
        </Notice>
      ) : null}
      {view.plan.phase === 'failed' ? <Notice tone="error">Failed to retrieve the organization's plan: {view.plan.error}</Notice> : null}
      {notices.versionFailed ? <Notice tone="error">{POSTGRES_VERSION_FAILED}</Notice> : null}
      {notices.postgresVersion ? (
        <Notice tone="warning">
          {POSTGRES_VERSION_NOTICE} (it runs Postgres {view.postgres.version}).
        </Notice>
      ) : null}
      {notices.repositoriesFailed ? <Notice tone="error">{REPOSITORIES_FAILED}</Notice> : null}
      {notices.pitr ? (
        <Notice tone="info">
          {PITR_NOTICE} for the project branches are made from. <TextLink href={notices.pitr.href}>Enable PITR</TextLink>
        </Notice>
      ) : null}

      <section aria-label="Repository" className="space-y-2">
        <h3 className="text-sm font-medium">Repository</h3>
        {repository.phase === 'loading' ? <p className="text-sm text-neutral-500">Loading repository…</p> : null}
        {repository.phase === 'connected' ? <p className="font-mono text-sm">{repository.name}</p> : null}
        {repository.phase === 'none' ? (
          <p className="text-sm">
            This project is not connected to a repository yet. <TextLink href={repository.integrationsHref}>Connect a GitHub repository</TextLink> in
            the organization's integrations, then come back.
          </p>
        ) : null}
      </section>

      <Field
        id={`${id}-branch`}
        label="Git branch"
        hint="The branch of the repository whose supabase/migrations build the preview branch."
        error={branch.error}
        status={
          <>
            {branch.checking ? <p className="text-xs text-neutral-500">Checking branch…</p> : null}
            {branch.valid && repository.phase === 'connected' ? (
              <p className="text-xs text-emerald-700 dark:text-emerald-400">
                Branch {branch.value.trim()} found in {repository.name}
              </p>
            ) : null}
          </>
        }
      >
        <input
          {...fieldAria(`${id}-branch`, { error: branch.error, hint: true })}
          className={inputClass}
          value={branch.value}
          disabled={repository.phase !== 'connected'}
          readOnly={view.creating}
          autoComplete="off"
          placeholder="main"
          onChange={(event) => actor.send({ type: 'branch.change', name: event.target.value })}
          onBlur={() => actor.send({ type: 'branch.blur' })}
        />
      </Field>

      <DryRun view={view.dryRun} />

      <Notice tone="info">{PREVIEW_BRANCH_COST}</Notice>

      <div className="flex justify-end gap-2">
        <Button onClick={() => actor.send({ type: 'modal.close' })} disabled={!canClose}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={!canEnable}>
          {view.creating ? 'Creating branch…' : 'Enable branching'}
        </Button>
      </div>
    </form>
  )
}

function DryRun({ view }: { view: BranchingModalView['dryRun'] }) {
  if (view === null) return null
  if (view.phase === 'loading') return <p className="text-sm text-neutral-500">Reading the branch's migrations…</p>
  if (view.phase === 'failed') return <Notice tone="error">Failed to read the branch's migrations: {view.error}</Notice>
  const { plan } = view
  return (
    <section aria-label="What will run" className="space-y-2 rounded-md border border-neutral-200 p-3 dark:border-neutral-800">
      <h3 className="text-sm font-medium">What will run</h3>
      {plan.migrations.length === 0 ? (
        <p className="text-sm text-neutral-500">No migrations in {plan.migrations_path}.</p>
      ) : (
        <ol aria-label="Migrations in order" className="list-decimal space-y-0.5 pl-5 font-mono text-xs">
          {plan.migrations.map((migration) => (
            <li key={migration.file}>
              {migration.file}
              {migration.new_to_parent ? <span className="ml-2 rounded bg-emerald-100 px-1 font-sans text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200">new</span> : null}
            </li>
          ))}
        </ol>
      )}
      {plan.warnings.length > 0 ? (
        <ul aria-label="Warnings" className="space-y-0.5 text-xs text-amber-800 dark:text-amber-300">
          {plan.warnings.map((warning, index) => (
            <li key={index}>{warning.message}</li>
          ))}
        </ul>
      ) : null}
      <p className="text-xs">{plan.seed.present ? `Then the seed ${plan.seed.path} runs once.` : `No seed: ${plan.seed.path} is not in the branch.`}</p>
    </section>
  )
}
