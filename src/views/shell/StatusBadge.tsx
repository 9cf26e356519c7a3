import type { ProjectStatus } from '../../contracts/common'
import { cx } from './ui'

const LABELS: Record<ProjectStatus, string> = {
  ACTIVE_HEALTHY: 'Active',
  COMING_UP: 'Coming up',
  UNKNOWN: 'Unknown',
  INACTIVE: 'Paused',
  UPGRADING: 'Upgrading',
  RESTORING: 'Restoring',
  GOING_DOWN: 'Going down',
  PAUSING: 'Pausing',
  RESTORATION_FAILED: 'Restoration failed',
}

const TONES: Record<ProjectStatus, string> = {
  ACTIVE_HEALTHY: 'bg-emerald-50 text-emerald-700 ring-emerald-600/20 dark:bg-emerald-950/50 dark:text-emerald-300',
  COMING_UP: 'bg-amber-50 text-amber-700 ring-amber-600/20 dark:bg-amber-950/50 dark:text-amber-300',
  UNKNOWN: 'bg-amber-50 text-amber-700 ring-amber-600/20 dark:bg-amber-950/50 dark:text-amber-300',
  UPGRADING: 'bg-sky-50 text-sky-700 ring-sky-600/20 dark:bg-sky-950/50 dark:text-sky-300',
  RESTORING: 'bg-sky-50 text-sky-700 ring-sky-600/20 dark:bg-sky-950/50 dark:text-sky-300',
  INACTIVE: 'bg-neutral-100 text-neutral-600 ring-neutral-500/20 dark:bg-neutral-800 dark:text-neutral-300',
  GOING_DOWN: 'bg-neutral-100 text-neutral-600 ring-neutral-500/20 dark:bg-neutral-800 dark:text-neutral-300',
  PAUSING: 'bg-neutral-100 text-neutral-600 ring-neutral-500/20 dark:bg-neutral-800 dark:text-neutral-300',
  RESTORATION_FAILED: 'bg-red-50 text-red-700 ring-red-600/20 dark:bg-red-950/50 dark:text-red-300',
}

export function StatusBadge({ status }: { status: ProjectStatus }) {
  return (
    <span className={cx('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset', TONES[status])}>
      {LABELS[status]}
    </span>
  )
}
