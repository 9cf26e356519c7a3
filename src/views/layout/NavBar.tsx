import { useSelector } from '@xstate/react'
import { Link } from 'wouter'
import { selectApiDocsPanelPreview } from '../../../machines/featurePreviews.machine'
import { selectNavExpanded } from '../../../machines/navBar.machine'
import { projectLink } from '../../../machines/projectStatus.machine'
import { selectOrgPermissions } from '../../../machines/session.machine'
import type { Project } from '../../contracts/projects'
import { visibleNavEntries, type NavEntry, type ProductId } from '../routes/projectRoutes'
import { useBuildFlags, useShell, type NavBarActorRef } from '../shell/contexts'
import { AccountMenu } from './AccountMenu'
import { EntryLabel, entryClass } from './navEntry'
import { Icon } from '../shell/Icon'
import { Logo } from '../shell/Logo'
import { cx } from '../shell/ui'
import { href } from '../../href'


/**
 * The left navigation bar: 56px wide, 13rem while hovered (or while the account menu is open). Inside a project
 * it lists the project's tools; every tool link goes through projectLink, so it leads to the building page while
 * the project is coming up.
 */
export function NavBar({
  navBar,
  project,
}: {
  navBar: NavBarActorRef
  /** Inside a project: its ref, the product of the page, and the project once loaded. */
  project: { ref: string; product: ProductId; data: Project | null } | null
}) {
  const expanded = useSelector(navBar, selectNavExpanded)
  const flags = useBuildFlags()
  const { commandMenu } = useShell()

  return (
    <div className="relative h-full w-nav-collapsed shrink-0">
      <nav
        aria-label="Main navigation"
        data-expanded={expanded}
        onMouseEnter={() => navBar.send({ type: 'pointer.entered' })}
        onMouseLeave={() => navBar.send({ type: 'pointer.left' })}
        className={cx(
          'absolute inset-y-0 left-0 z-30 flex flex-col overflow-hidden border-r border-neutral-200 bg-white py-3 transition-[width] duration-200 dark:border-neutral-800 dark:bg-neutral-950',
          expanded ? 'w-nav-expanded shadow-xl' : 'w-nav-collapsed',
        )}
      >
        <Link
          href={project ? href.project(project.ref) : href.projects()}
          aria-label={project ? 'Project home' : 'Projects'}
          className="mb-3 flex h-10 items-center gap-3 px-[14px]"
        >
          <Logo className="h-7 w-7 shrink-0" />
        </Link>
        <div className="flex flex-1 flex-col gap-1 overflow-y-auto overflow-x-hidden">
          {project ? <ProjectEntries navBar={navBar} projectRef={project.ref} project={project.data} product={project.product} expanded={expanded} /> : null}
        </div>
        <div className="mt-2 flex flex-col gap-1 border-t border-neutral-200 pt-2 dark:border-neutral-800">
          {project ? <ProjectEntries navBar={navBar} projectRef={project.ref} project={project.data} product={project.product} expanded={expanded} bottom /> : null}
          {flags.isPlatform ? (
            <button
              type="button"
              aria-label="Search"
              aria-keyshortcuts="Control+K Meta+K"
              onClick={() => commandMenu.send({ type: 'commandMenu.open' })}
              className={entryClass(false)}
            >
              <Icon name="search" className="h-5 w-5 shrink-0" />
              <EntryLabel expanded={expanded}>
                Search
                {/* The shortcut is drawn, not written: the button's name ('Search', its shortcut in aria-keyshortcuts)
                    must contain its visible text as it reads (WCAG 2.5.3). */}
                <kbd
                  data-shortcut="⌘K"
                  className="ml-auto rounded border border-neutral-300 px-1 font-sans text-[10px] text-neutral-600 before:content-[attr(data-shortcut)] dark:border-neutral-700"
                />
              </EntryLabel>
            </button>
          ) : null}
          <AccountMenu navBar={navBar} expanded={expanded} />
        </div>
      </nav>
    </div>
  )
}



function ProjectEntries({
  navBar,
  projectRef,
  project,
  product,
  expanded,
  bottom = false,
}: {
  navBar: NavBarActorRef
  projectRef: string
  project: Project | null
  product: ProductId
  expanded: boolean
  bottom?: boolean
}) {
  const flags = useBuildFlags()
  const { session, previews } = useShell()
  const permissions = useSelector(session, selectOrgPermissions(project?.organization_slug ?? null))
  const apiDocsPanel = useSelector(previews, selectApiDocsPanelPreview)
  const entries = visibleNavEntries(flags, permissions).filter((entry) =>
    bottom ? entry.group === 'settings' : entry.group !== 'settings',
  )
  // Product entries depend on the organization's permissions, known once the project is.
  const shown = project === null ? entries.filter((entry) => entry.permission === undefined) : entries

  const groups: Array<NavEntry['group']> = bottom ? ['settings'] : ['home', 'tools', 'product', 'other']
  return (
    <>
      {groups.map((group, index) => {
        const inGroup = shown.filter((entry) => entry.group === group)
        if (inGroup.length === 0) return null
        return (
          <ul key={group} className={cx('flex flex-col gap-1', index > 0 && 'mt-1 border-t border-neutral-200 pt-2 dark:border-neutral-800')}>
            {inGroup.map((entry) => (
              <li key={entry.id}>
                <NavLink
                  entry={entry}
                  project={project}
                  projectRef={projectRef}
                  active={entry.product === product || (entry.id === 'database' && product === 'branches')}
                  expanded={expanded}
                  onOpenApiDocs={entry.opensApiDocs && apiDocsPanel ? () => navBar.send({ type: 'apiDocs.open' }) : null}
                />
              </li>
            ))}
          </ul>
        )
      })}
    </>
  )
}

function NavLink({
  entry,
  project,
  projectRef,
  active,
  expanded,
  onOpenApiDocs,
}: {
  entry: NavEntry
  project: Project | null
  projectRef: string
  active: boolean
  expanded: boolean
  onOpenApiDocs: (() => void) | null
}) {
  const content = (
    <>
      <Icon name={entry.icon} className="h-5 w-5 shrink-0" />
      <EntryLabel expanded={expanded}>{entry.label}</EntryLabel>
    </>
  )
  if (onOpenApiDocs) {
    return (
      <button type="button" aria-label={entry.label} aria-haspopup="dialog" onClick={onOpenApiDocs} className={cx(entryClass(active), 'w-[calc(100%-1rem)]')}>
        {content}
      </button>
    )
  }
  return (
    <Link
      href={projectLink(project, projectRef, entry.section)}
      aria-label={entry.label}
      aria-current={active ? 'page' : undefined}
      className={entryClass(active)}
    >
      {content}
    </Link>
  )
}

