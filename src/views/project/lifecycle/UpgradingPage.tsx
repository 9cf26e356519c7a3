import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectUpgradingView, type StepState, type upgradingMachine } from '../../../../machines/upgrading.machine'
import { Button, Card } from '../../shell/ui'
import { ElapsedNotice } from './ElapsedNotice'

const STEP_TEXT: Record<StepState, string> = { pending: 'Pending', inProgress: 'In progress', completed: 'Completed' }

function StepIcon({ state }: { state: StepState }) {
  if (state === 'completed') {
    return (
      <span aria-hidden className="flex h-5 w-5 items-center justify-center rounded-full bg-emerald-600 text-white">
        <svg viewBox="0 0 16 16" className="h-3 w-3" fill="none" stroke="currentColor" strokeWidth="2.5">
          <path d="M3.5 8.5l3 3 6-7" />
        </svg>
      </span>
    )
  }
  if (state === 'inProgress') {
    return <span aria-hidden className="h-5 w-5 animate-spin rounded-full border-2 border-neutral-300 border-t-emerald-600 dark:border-neutral-700 dark:border-t-emerald-500" />
  }
  return <span aria-hidden className="h-5 w-5 rounded-full border-2 border-neutral-300 dark:border-neutral-700" />
}

/** The upgrade page: eight steps while running, then completed or failed, as the upgrading machine says. */
export function UpgradingPage({ actor, projectName }: { actor: ActorRefFrom<typeof upgradingMachine>; projectName: string }) {
  const view = useSelector(actor, selectUpgradingView)
  const elapsed = useSelector(actor, (snapshot) => snapshot.children.elapsed)

  if (view.phase === 'upgraded') {
    return (
      <section aria-labelledby="upgrade-title" className="mx-auto max-w-2xl p-8">
        <Card className="space-y-4 p-6">
          <p className="text-sm text-neutral-500">{projectName}</p>
          <h1 id="upgrade-title" className="text-2xl font-semibold">Upgrade completed!</h1>
          <p className="text-sm text-neutral-600 dark:text-neutral-300">
            Your project has been upgraded to Postgres {view.targetVersion} and is back online.
            {view.installedVersion ? <> It now runs <span className="font-mono">{view.installedVersion}</span>.</> : null}
          </p>
          <Button variant="primary" onClick={() => actor.send({ type: 'project.return' })}>
            Return to project
          </Button>
        </Card>
      </section>
    )
  }

  if (view.phase === 'failed') {
    return (
      <section aria-labelledby="upgrade-title" className="mx-auto max-w-2xl p-8">
        <Card className="space-y-4 p-6">
          <p className="text-sm text-neutral-500">{projectName}</p>
          <h1 id="upgrade-title" className="text-2xl font-semibold">We ran into an issue while upgrading your project</h1>
          <p className="text-sm text-neutral-600 dark:text-neutral-300">
            Your project is back online and its data is unaffected. Please reach out to us with the details below so
            we can look into it.
          </p>
          <dl className="grid grid-cols-3 gap-2 rounded-md bg-neutral-50 p-4 text-sm dark:bg-neutral-800/60">
            <dt className="text-neutral-500">Initiated at</dt>
            <dd className="col-span-2">
              <time title={view.startedLocal}>{view.startedUtc} (UTC)</time>
            </dd>
            <dt className="text-neutral-500">Target version</dt>
            <dd className="col-span-2">Postgres {view.targetVersion}</dd>
            <dt className="text-neutral-500">Error</dt>
            <dd className="col-span-2 break-all font-mono text-xs">{view.error ?? 'No error was reported'}</dd>
          </dl>
          <div className="flex flex-wrap gap-3">
            <a
              href={view.supportHref}
              className="inline-flex items-center rounded-md bg-primary px-3 py-1.5 text-sm font-medium text-white hover:bg-primary-hover"
            >
              Contact support
            </a>
            <Button onClick={() => actor.send({ type: 'project.return' })}>Return to project</Button>
          </div>
        </Card>
      </section>
    )
  }

  return (
    <section aria-labelledby="upgrade-title" className="mx-auto max-w-2xl p-8">
      <Card className="space-y-6 p-6">
        <header className="space-y-1">
          <p className="text-sm text-neutral-500">{projectName}</p>
          <h1 id="upgrade-title" className="text-2xl font-semibold">Upgrading project</h1>
          <p className="text-sm text-neutral-600 dark:text-neutral-300">
            {view.targetVersion === null ? 'Your Postgres upgrade is starting.' : `Upgrading to Postgres ${view.targetVersion}.`}{' '}
            Your project is offline while this runs; it can take a few minutes.
          </p>
          {view.startedUtc ? (
            <p className="text-sm text-neutral-500">
              Started at <time title={view.startedLocal ?? undefined}>{view.startedUtc} (UTC)</time>
            </p>
          ) : null}
        </header>
        <ol aria-label="Upgrade steps" className="space-y-3">
          {view.steps.map((step) => (
            <li key={step.key} aria-current={step.state === 'inProgress' ? 'step' : undefined} className="flex items-center gap-3 text-sm">
              <StepIcon state={step.state} />
              <span className={step.state === 'pending' ? 'text-neutral-500 dark:text-neutral-400' : 'font-medium'}>{step.label}</span>
              <span className="ml-auto text-xs text-neutral-500">{STEP_TEXT[step.state]}</span>
            </li>
          ))}
        </ol>
        {elapsed ? <ElapsedNotice actor={elapsed} supportHref={view.supportHref} /> : null}
      </Card>
    </section>
  )
}
