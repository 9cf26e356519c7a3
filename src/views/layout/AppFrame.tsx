import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { Icon } from '../shell/Icon'

export interface Crumb {
  label: string
  href?: string
}

/** The page frame of every signed-in route: navigation bar, header with breadcrumbs, optional side menu, main. */
export function AppFrame({
  nav,
  crumbs,
  side,
  children,
  overlays,
  badge,
  banner,
}: {
  nav: ReactNode
  crumbs: Crumb[]
  side?: ReactNode
  children: ReactNode
  overlays?: ReactNode
  /** After the breadcrumbs (the 'Exceeding usage limits' badge). */
  badge?: ReactNode
  /** Above the main content (the resource-exhaustion banner). */
  banner?: ReactNode
}) {
  return (
    <div className="flex h-screen overflow-hidden bg-neutral-50 text-neutral-900 dark:bg-neutral-950 dark:text-neutral-100">
      {nav}
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-12 shrink-0 items-center border-b border-neutral-200 bg-white px-4 dark:border-neutral-800 dark:bg-neutral-900">
          <Breadcrumbs crumbs={crumbs} />
          {badge}
        </header>
        <div className="flex min-h-0 flex-1">
          {side}
          <main className="min-w-0 flex-1 overflow-y-auto">{banner}{children}</main>
        </div>
      </div>
      {overlays}
    </div>
  )
}

function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb">
      <ol className="flex items-center gap-1.5 text-sm">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1
          return (
            <li key={`${index}-${crumb.label}`} className="flex items-center gap-1.5">
              {index > 0 ? <Icon name="chevron" className="h-3.5 w-3.5 text-neutral-400" /> : null}
              {crumb.href && !last ? (
                <Link href={crumb.href} className="text-neutral-500 hover:text-neutral-900 dark:text-neutral-400 dark:hover:text-white">
                  {crumb.label}
                </Link>
              ) : (
                <span aria-current={last ? 'page' : undefined} className={last ? 'font-medium' : 'text-neutral-500'}>
                  {crumb.label}
                </span>
              )}
            </li>
          )
        })}
      </ol>
    </nav>
  )
}
