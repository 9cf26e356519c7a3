/**
 * The badge and the banner themselves, loaded when the open project first has one to show (ResourceWarnings.tsx):
 * most projects never do, so their texts and markup stay out of the first load.
 */
import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { selectResourceBanner } from '../../../../machines/resourceBanner'
import { selectUsageBadge, type resourceWarningsMachine } from '../../../../machines/resourceWarnings.machine'
import { cx } from '../../shell/ui'

type ResourceWarningsActorRef = ActorRefFrom<typeof resourceWarningsMachine>

const sameBadge = (a: { show: boolean; href: string | null }, b: { show: boolean; href: string | null }) => a.show === b.show && a.href === b.href

/** The header's 'Exceeding usage limits' badge (spec section 4). */
export function UsageBadgeLink({ actor }: { actor: ResourceWarningsActorRef }) {
  const badge = useSelector(actor, selectUsageBadge, sameBadge)
  if (!badge.show || badge.href === null) return null
  return (
    <Link
      href={badge.href}
      className="ml-3 inline-flex items-center gap-1.5 rounded-full border border-amber-300 bg-amber-50 px-2.5 py-0.5 text-xs font-medium text-amber-900 hover:bg-amber-100 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200 dark:hover:bg-amber-900"
    >
      <span aria-hidden className="h-1.5 w-1.5 rounded-full bg-amber-500" />
      Exceeding usage limits
    </Link>
  )
}

/** The resource-exhaustion banner above the main content (spec section 4). */
export function ResourceBannerNotice({ actor, pathname }: { actor: ResourceWarningsActorRef; pathname: string }) {
  const banner = useSelector(actor, selectResourceBanner(pathname), (a, b) => JSON.stringify(a) === JSON.stringify(b))
  if (!banner.show) return null
  const destructive = banner.variant === 'destructive'
  return (
    <div
      role={destructive ? 'alert' : 'status'}
      data-variant={banner.variant}
      className={cx(
        'flex flex-wrap items-center gap-x-4 gap-y-1 border-b px-6 py-3 text-sm',
        destructive
          ? 'border-red-300 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100'
          : 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100',
      )}
    >
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{banner.title}</p>
        <p className="opacity-90">{banner.message}</p>
      </div>
      <Link href={banner.href} className="shrink-0 font-medium underline underline-offset-4">
        {banner.linkLabel}
      </Link>
    </div>
  )
}
