import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectRestoringView, type restoringMachine } from '../../../../machines/restoring.machine'
import { href } from '../../../href'
import { Button } from '../../shell/ui'
import { ElapsedNotice } from './ElapsedNotice'
import { LifecycleScreen } from './LifecycleScreen'

const linkClass = 'font-medium text-emerald-700 underline-offset-4 hover:underline dark:text-emerald-400'

export function RestoringPage({ actor, projectName }: { actor: ActorRefFrom<typeof restoringMachine>; projectName: string }) {
  const view = useSelector(actor, selectRestoringView)
  const ref = useSelector(actor, (snapshot) => snapshot.context.ref)
  const elapsed = useSelector(actor, (snapshot) => snapshot.children.elapsed)

  if (view.phase === 'failed') {
    const error = view.error ?? 'The restore did not finish; no error message was recorded.'
    return (
      <LifecycleScreen titleId="restoring-title" title={view.title} projectName={projectName} tone="failure">
        <div role="alert" className="rounded-lg border border-red-300 bg-red-50 p-4 text-red-900 dark:border-red-900 dark:bg-red-950/40 dark:text-red-200">
          <p className="font-medium">Something went wrong while restoring your project.</p>
          <p className="mt-1">{error}</p>
        </div>
        <p>
          Your data has not been lost. Our team can finish the restore for you:{' '}
          <a
            className={linkClass}
            href={href.support({
              category: 'Database_unresponsive',
              ref,
              subject: `Restoration failed for project ${projectName}`,
              message: `The restoration of my project ${ref} failed with: ${error}`,
            })}
          >
            Contact support
          </a>
        </p>
      </LifecycleScreen>
    )
  }
  if (view.phase === 'complete') {
    return (
      <LifecycleScreen titleId="restoring-title" title={view.title} projectName={projectName} tone="success">
        <p>Your project has been restored and is up and running again.</p>
        <Button variant="primary" disabled={!view.canReturn} onClick={() => actor.send({ type: 'project.return' })}>
          Return to project
        </Button>
      </LifecycleScreen>
    )
  }
  return (
    <RestoringScreen projectName={projectName}>
      {elapsed ? (
        <ElapsedNotice
          actor={elapsed}
          supportHref={href.support({
            category: 'Database_unresponsive',
            ref,
            subject: `Project ${projectName} is stuck restoring`,
            message: `My project ${ref} has been restoring for longer than expected.`,
          })}
        />
      ) : null}
    </RestoringScreen>
  )
}

/** 'Restoration in progress': also the screen while the restored project is being fetched again. */
export function RestoringScreen({ projectName, title = 'Restoration in progress', children }: { projectName: string; title?: string; children?: React.ReactNode }) {
  return (
    <LifecycleScreen titleId="restoring-title" title={title} projectName={projectName} tone="waiting">
      <p>
        Your project is being restored from its last backup. This can take from a few minutes to several hours
        depending on the size of your database; you can leave this page and come back.
      </p>
      {children}
    </LifecycleScreen>
  )
}
