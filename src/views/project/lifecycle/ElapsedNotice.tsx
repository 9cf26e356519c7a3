import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectElapsed, type elapsedMachine } from '../../../../machines/elapsed.machine'

/** How long a transition has been running and, once overdue, a way to reach support. */
export function ElapsedNotice({ actor, supportHref }: { actor: ActorRefFrom<typeof elapsedMachine>; supportHref: string }) {
  const view = useSelector(actor, selectElapsed)
  return (
    <div className="space-y-2 text-sm">
      <p className="text-neutral-600 dark:text-neutral-400">
        Running for <span className="font-medium tabular-nums">{view.elapsedText}</span>
      </p>
      {view.overdue ? (
        <div role="alert" className="rounded border border-amber-300 bg-amber-50 p-3 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          <p className="font-medium">This is taking longer than usual.</p>
          <p className="mt-1">
            Nothing is lost while you wait. If it does not finish soon,{' '}
            <a className="underline" href={supportHref}>
              Contact support
            </a>
            .
          </p>
        </div>
      ) : null}
    </div>
  )
}

