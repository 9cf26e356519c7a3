import type { ReactNode } from 'react'
import { cx } from '../../shell/ui'

/** The frame every pause/restore page shares: project name, a status dot, the title and the body. */
export function LifecycleScreen({
  titleId,
  title,
  projectName,
  tone,
  children,
}: {
  titleId: string
  title: string
  projectName: string
  tone: 'waiting' | 'paused' | 'success' | 'failure'
  children?: ReactNode
}) {
  return (
    <section aria-labelledby={titleId} className="mx-auto w-full max-w-2xl p-8">
      <div className="rounded-xl border border-neutral-200 bg-white p-8 shadow-xs dark:border-neutral-800 dark:bg-neutral-900">
        <p className="text-sm text-neutral-500 dark:text-neutral-400">{projectName}</p>
        <h1 id={titleId} className="mt-1 flex items-center gap-3 text-2xl font-semibold tracking-tight">
          <span
            aria-hidden
            className={cx(
              'inline-block h-3 w-3 rounded-full',
              tone === 'waiting' && 'animate-pulse bg-amber-500',
              tone === 'paused' && 'bg-neutral-400',
              tone === 'success' && 'bg-emerald-500',
              tone === 'failure' && 'bg-red-500',
            )}
          />
          {title}
        </h1>
        <div className="mt-4 space-y-4 text-sm text-neutral-600 dark:text-neutral-300">{children}</div>
      </div>
    </section>
  )
}
