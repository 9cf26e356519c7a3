import type { ReactNode } from 'react'
import { cx } from '../shell/ui'

/** The look of a navigation bar entry (link or button), active or not. */
export function entryClass(active: boolean) {
  return cx(
    'mx-2 flex h-10 items-center gap-3 rounded-md px-[10px] text-sm whitespace-nowrap transition-colors',
    active
      ? 'bg-neutral-100 font-medium text-neutral-900 dark:bg-neutral-800 dark:text-white'
      : 'text-neutral-500 hover:bg-neutral-100 hover:text-neutral-900 dark:text-neutral-400 dark:hover:bg-neutral-800 dark:hover:text-white',
  )
}

/** An entry's text: hidden (but kept for layout) while the bar is collapsed; the entry's aria-label names it. */
export function EntryLabel({ expanded, children }: { expanded: boolean; children: ReactNode }) {
  return (
    <span aria-hidden className={cx('flex flex-1 items-center gap-2 transition-opacity', expanded ? 'opacity-100' : 'opacity-0')}>
      {children}
    </span>
  )
}
