import { Menu, MenuButton, MenuHeading, MenuItem, MenuItems, MenuSection, MenuSeparator } from '@headlessui/react'
import { useSelector } from '@xstate/react'
import { useEffect, useRef, type ReactNode } from 'react'
import { Link } from 'wouter'
import { selectApiDocsPanelPreview } from '../../../machines/featurePreviews.machine'
import { selectNavExpanded } from '../../../machines/navBar.machine'
import { projectLink, selectProject } from '../../../machines/projectStatus.machine'
import { selectOrgPermissions, selectProfile } from '../../../machines/session.machine'
import { selectTheme, THEME_LABELS, type Theme } from '../../../machines/theme.machine'
import type { Project } from '../../contracts/projects'
import { useProjectActor } from '../project/projectActor'
import { visibleNavEntries, type NavEntry, type ProductId } from '../project/routes'
import { useBuildFlags, useShell, type NavBarActorRef } from '../shell/contexts'
import { Icon } from '../shell/Icon'
import { Logo } from '../shell/Logo'
import { cx } from '../shell/ui'

const MENU_THEMES: Theme[] = ['light', 'dark', 'system']

/**
 * The left navigation bar: 56px wide, 13rem while hovered (or while the account menu is open). Inside a project
 * it lists the project's tools; every tool link goes through projectLink, so it leads to the building page while
 * the project is coming up.
 */
export function NavBar({ navBar, project }: { navBar: NavBarActorRef; project: { ref: string; product: ProductId } | null }) {
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
          href={project ? `/project/${project.ref}` : '/projects'}
          aria-label={project ? 'Project home' : 'Projects'}
          className="mb-3 flex h-10 items-center gap-3 px-[14px]"
        >
          <Logo className="h-7 w-7 shrink-0" />
        </Link>
        <div className="flex flex-1 flex-col gap-1 overflow-y-auto overflow-x-hidden">
          {project ? <ProjectEntries navBar={navBar} projectRef={project.ref} product={project.product} expanded={expanded} /> : null}
        </div>
        <div className="mt-2 flex flex-col gap-1 border-t border-neutral-200 pt-2 dark:border-neutral-800">
          {project ? <ProjectEntries navBar={navBar} projectRef={project.ref} product={project.product} expanded={expanded} bottom /> : null}
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
                Search <kbd className="ml-auto rounded border border-neutral-300 px-1 font-sans text-[10px] text-neutral-500 dark:border-neutral-700">⌘K</kbd>
              </EntryLabel>
            </button>
          ) : null}
          <AccountMenu navBar={navBar} expanded={expanded} />
        </div>
      </nav>
    </div>
  )
}

function entryClass(active: boolean) {
  return cx(
    'mx-2 flex h-10 items-center gap-3 rounded-md px-[10px] text-sm whitespace-nowrap transition-colors',
    active
      ? 'bg-neutral-100 font-medium text-neutral-900 dark:bg-neutral-800 dark:text-white'
      : 'text-neutral-500 hover:bg-neutral-100 hover:text-neutral-900 dark:text-neutral-400 dark:hover:bg-neutral-800 dark:hover:text-white',
  )
}

function EntryLabel({ expanded, children }: { expanded: boolean; children: ReactNode }) {
  return (
    <span aria-hidden className={cx('flex flex-1 items-center gap-2 transition-opacity', expanded ? 'opacity-100' : 'opacity-0')}>
      {children}
    </span>
  )
}

function ProjectEntries({
  navBar,
  projectRef,
  product,
  expanded,
  bottom = false,
}: {
  navBar: NavBarActorRef
  projectRef: string
  product: ProductId
  expanded: boolean
  bottom?: boolean
}) {
  const flags = useBuildFlags()
  const { session, previews } = useShell()
  const projectActor = useProjectActor()
  const project = useSelector(projectActor, selectProject)
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

function AccountMenu({ navBar, expanded }: { navBar: NavBarActorRef; expanded: boolean }) {
  const { session, theme, previews } = useShell()
  const flags = useBuildFlags()
  const profile = useSelector(session, selectProfile)
  const currentTheme = useSelector(theme, selectTheme)
  const canSignOut = useSelector(session, (snapshot) => snapshot.can({ type: 'session.signOut' }))
  const username = profile?.username ?? 'Account'
  const email = profile?.primary_email ?? ''

  return (
    <Menu>
      {({ open }) => (
        <>
          <ReportMenuOpen open={open} navBar={navBar} />
          <MenuButton aria-label="Account" className={cx(entryClass(open), 'w-[calc(100%-1rem)] text-left')}>
            <span className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-emerald-600 text-xs font-semibold text-white uppercase">
              {username.slice(0, 1)}
            </span>
            <EntryLabel expanded={expanded}>
              <span className="truncate">{username}</span>
            </EntryLabel>
          </MenuButton>
          <MenuItems
            anchor={{ to: 'right end', gap: 8 }}
            className="z-50 w-60 rounded-lg border border-neutral-200 bg-white p-1 text-sm shadow-lg focus:outline-none dark:border-neutral-800 dark:bg-neutral-900"
          >
            <div className="px-3 py-2">
              <p className="truncate font-medium text-neutral-900 dark:text-neutral-100">{username}</p>
              {email !== '' && email !== username ? <p className="truncate text-xs text-neutral-500">{email}</p> : null}
            </div>
            <MenuSeparator className="my-1 h-px bg-neutral-200 dark:bg-neutral-800" />
            <MenuItem>
              <Link href="/account/me" className={menuItemClass}>
                Account preferences
              </Link>
            </MenuItem>
            <MenuItem>
              <button type="button" className={menuItemClass} onClick={() => previews.send({ type: 'previews.open' })}>
                Feature previews
              </button>
            </MenuItem>
            <MenuSeparator className="my-1 h-px bg-neutral-200 dark:bg-neutral-800" />
            <MenuSection>
              <MenuHeading className="px-3 py-1 text-xs font-medium text-neutral-500">Theme</MenuHeading>
              {MENU_THEMES.map((option) => (
                <MenuItem key={option}>
                  <button
                    type="button"
                    className={menuItemClass}
                    onClick={() => theme.send({ type: 'theme.set', theme: option })}
                  >
                    <span
                      aria-hidden
                      className={cx(
                        'h-2 w-2 rounded-full',
                        currentTheme === option ? 'bg-emerald-600' : 'border border-neutral-300 dark:border-neutral-600',
                      )}
                    />
                    {THEME_LABELS[option]}
                    {/* Headless UI gives every menu entry role=menuitem, so the choice is spelled out. */}
                    {currentTheme === option ? <span className="sr-only"> (current)</span> : null}
                  </button>
                </MenuItem>
              ))}
            </MenuSection>
            {flags.isPlatform ? (
              <>
                <MenuSeparator className="my-1 h-px bg-neutral-200 dark:bg-neutral-800" />
                <MenuItem disabled={!canSignOut}>
                  <button type="button" className={menuItemClass} onClick={() => session.send({ type: 'session.signOut' })}>
                    Log out
                  </button>
                </MenuItem>
              </>
            ) : null}
          </MenuItems>
        </>
      )}
    </Menu>
  )
}

const menuItemClass =
  'flex w-full items-center gap-2 rounded-md px-3 py-1.5 text-left text-neutral-700 data-focus:bg-neutral-100 data-focus:text-neutral-900 dark:text-neutral-300 dark:data-focus:bg-neutral-800 dark:data-focus:text-white'

/** Headless UI owns the menu's open state; the navigation bar hears of it as a fact. */
function ReportMenuOpen({ open, navBar }: { open: boolean; navBar: NavBarActorRef }) {
  const reported = useRef(false)
  useEffect(() => {
    if (open === reported.current) return
    reported.current = open
    navBar.send({ type: open ? 'menu.opened' : 'menu.closed' })
  }, [open, navBar])
  useEffect(
    () => () => {
      if (reported.current) navBar.send({ type: 'menu.closed' })
    },
    [navBar],
  )
  return null
}
