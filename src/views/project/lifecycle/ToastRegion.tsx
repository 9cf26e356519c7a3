import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectToast, type toastMachine } from '../../../../machines/toast.machine'
import { useProjectActor } from '../../shell/projectActor'
import { Icon } from '../../shell/Icon'
import { cx } from '../../shell/ui'

/** The toast of the toast machine, in a polite live region that is always present (so it is announced). */
export function ToastRegion({ actor }: { actor: ActorRefFrom<typeof toastMachine> }) {
  const toast = useSelector(actor, selectToast)
  return (
    <div role="status" aria-live="polite" aria-label="Notifications" className="pointer-events-none fixed right-4 bottom-4 z-[60] flex w-full max-w-sm flex-col gap-2">
      {toast ? (
        <div
          key={toast.id}
          className={cx(
            'pointer-events-auto flex items-start gap-3 rounded-lg border px-4 py-3 text-sm shadow-lg',
            toast.tone === 'error'
              ? 'border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100'
              : 'border-neutral-200 bg-white text-neutral-900 dark:border-neutral-700 dark:bg-neutral-900 dark:text-neutral-100',
          )}
        >
          <span aria-hidden className={cx('mt-1 h-2 w-2 shrink-0 rounded-full', toast.tone === 'error' ? 'bg-red-500' : 'bg-emerald-500')} />
          <p className="flex-1">{toast.message}</p>
          <button
            type="button"
            aria-label="Dismiss notification"
            onClick={() => actor.send({ type: 'toast.dismiss' })}
            className="rounded p-0.5 text-neutral-500 hover:bg-neutral-100 dark:hover:bg-neutral-800"
          >
            <Icon name="close" className="h-3.5 w-3.5" />
          </button>
        </div>
      ) : null}
    </div>
  )
}

/** The open project's toasts: the toast machine the project status machine runs as its child 'toasts'. */
export function ProjectToasts() {
  const toasts = useSelector(useProjectActor(), (snapshot) => snapshot.children.toasts)
  return toasts ? <ToastRegion actor={toasts} /> : null
}
