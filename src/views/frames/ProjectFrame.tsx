import { useSelector } from '@xstate/react'
import type { ComponentProps } from 'react'
import { useRouter } from 'wouter'
import { selectOrganizationBySlug } from '../../../machines/projectList.machine'
import { projectLink, selectProject, selectProjectNotFound } from '../../../machines/projectStatus.machine'
import { href } from '../../href'
import { LazyNotFound } from '../routes/LazyNotFound'
import { ApiDocsDialog } from '../layout/ApiDocsDialog'
import { AppFrame, type Crumb } from '../layout/AppFrame'
import { CommandMenu } from '../layout/CommandMenu'
import type { SideMenu as SideMenuView } from '../layout/SideMenu'
import { NavBar } from '../layout/NavBar'
import { AiSettingsHost } from '../project/ai/AiSettingsHost'
import { BranchingHost } from '../project/branches/BranchingHost'
import { LazyApiDocsDialogPanel } from '../project/apiDocs/lazy'
import { ProjectHomeSkeleton } from '../project/home/ProjectHomeSkeleton'
import { ProjectStatusGate } from '../project/lifecycle/ProjectStatusGate'
import { ResourceBanner, UsageBadge, useResourceWarnings } from '../project/usage/ResourceWarnings'
import { pageTitleOf, projectRouteOf, sideMenuOf } from '../routes/projectRoutes'
import { useBuildFlags, useProjectListActor, type NavBarActorRef } from '../shell/contexts'
import { lazyComponent } from '../shell/lazy'
import { useProjectActor } from '../shell/projectActor'
import { useDocumentTitle } from '../shell/useDocumentTitle'

// Project home, the first screen, has no side menu: the menu's code loads with the first page that shows one,
// beside that page's own chunk. Until then its width stands empty, so the page does not move when it arrives.
const SideMenu = lazyComponent<ComponentProps<typeof SideMenuView>>(
  () => import('../layout/SideMenu').then((m) => ({ default: m.SideMenu })),
  <div aria-hidden className="w-64 shrink-0 border-r border-neutral-200 bg-white dark:border-neutral-800 dark:bg-neutral-900" />,
)

/**
 * The frame of a project route, where the layout and the project's pages meet (neither imports the other).
 * Everything around a project page: navigation, breadcrumbs (organization › project › page), the side menu of
 * the current product (hidden for a paused project) and the main area behind the lifecycle gate.
 */
export function ProjectFrame({ projectRef, section, navBar }: { projectRef: string; section: string; navBar: NavBarActorRef }) {
  const flags = useBuildFlags()
  const project = useSelector(useProjectActor(), selectProject)
  const organization = useSelector(useProjectListActor(), selectOrganizationBySlug(project?.organization_slug ?? null))
  const route = projectRouteOf(section, useRouter().parser)
  const notFound = useSelector(useProjectActor(), selectProjectNotFound)
  useDocumentTitle(notFound ? 'Project not found' : pageTitleOf(route, project?.name ?? null, organization?.name ?? null))

  const crumbs: Crumb[] = []
  if (organization) crumbs.push({ label: organization.name, href: href.org(organization.slug, 'general') })
  crumbs.push({ label: project?.name ?? projectRef, href: href.project(projectRef) })
  if (route && route.product !== 'home') crumbs.push({ label: route.title })

  const resources = useResourceWarnings(projectRef, project?.organization_slug ?? null)
  const menu = route && project && project.status !== 'INACTIVE' ? sideMenuOf(route, flags) : null

  return (
    <AppFrame
      nav={<NavBar navBar={navBar} project={notFound ? null : { ref: projectRef, product: route?.product ?? 'home', data: project }} />}
      crumbs={crumbs}
      badge={<UsageBadge actor={resources} />}
      banner={<ResourceBanner actor={resources} pathname={href.project(projectRef, section)} />}
      side={
        menu ? (
          <SideMenu
            title={menu.title}
            items={menu.items.map((item) => ({
              label: item.label,
              href: projectLink(project, projectRef, item.section),
              active: item.section === section,
            }))}
          />
        ) : null
      }
      overlays={
        <>
          {flags.isPlatform ? <CommandMenu project={project} /> : null}
          <ApiDocsDialog navBar={navBar} section={section} panel={(onDismiss) => <LazyApiDocsDialogPanel onDismiss={onDismiss} />} />
          <AiSettingsHost projectRef={projectRef} />
          <BranchingHost section={section} />
        </>
      }
    >
      {route === null ? (
        <LazyNotFound />
      ) : route.gate ? (
        <ProjectStatusGate skeleton={section === '' ? <ProjectHomeSkeleton /> : undefined}>
          <route.page.Page />
        </ProjectStatusGate>
      ) : (
        <route.page.Page />
      )}
    </AppFrame>
  )
}
