import { useSelector } from '@xstate/react'
import { selectOrganizationBySlug } from '../../../machines/projectList.machine'
import { projectLink, selectProject, selectProjectNotFound } from '../../../machines/projectStatus.machine'
import { NotFound } from '../NotFound'
import { ApiDocsDialog } from '../layout/ApiDocsDialog'
import { AppFrame, type Crumb } from '../layout/AppFrame'
import { CommandMenu } from '../layout/CommandMenu'
import { NavBar } from '../layout/NavBar'
import { SideMenu } from '../layout/SideMenu'
import { AiSettingsHost } from '../project/ai/AiSettingsHost'
import { BranchingHost } from '../project/branches/BranchingHost'
import { LazyApiDocsDialogPanel } from '../project/apiDocs/lazy'
import { ProjectStatusGate } from '../project/lifecycle/ProjectStatusGate'
import { ProjectHome, ToolPage } from '../project/pages/ProjectPages'
import { projectScreenFor } from '../project/screens/ProjectScreens'
import { ProjectHomeSkeleton, pageTitleOf } from '../project/screens/ProjectTitle'
import { useProjectActor } from '../project/projectActor'
import { ResourceBanner, UsageBadge, useResourceWarnings } from '../project/usage/ResourceWarnings'
import { findProjectRoute, sideMenuFor } from '../routes/projectRoutes'
import { useBuildFlags, useProjectListActor, type NavBarActorRef } from '../shell/contexts'
import { lazyComponent } from '../shell/lazy'
import { Loading } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'

// The settings pages with actions (pause, upgrade, API keys) load with their first visit, off the project's first load,
// each with the machine of its action.
const pageLoading = <Loading label="Loading page…" />
const GeneralSettingsPage = lazyComponent<object>(
  () => import('../project/settings/GeneralSettingsPage').then((m) => ({ default: m.GeneralSettingsPage })),
  pageLoading,
  (logic) => [logic.pauseProject, logic.customDomain],
)
const InfrastructureSettingsPage = lazyComponent<object>(
  () => import('../project/settings/UpgradePostgresPanel').then((m) => ({ default: m.InfrastructureSettingsPage })),
  pageLoading,
  (logic) => [logic.upgradeAction],
)
const ApiSettingsPage = lazyComponent<object>(
  () => import('../project/settings/ApiSettingsPage').then((m) => ({ default: m.ApiSettingsPage })),
  pageLoading,
  (logic) => [logic.apiKeys, logic.customDomain],
)
const IntegrationsSettingsPage = lazyComponent<object>(
  () => import('../org/integrations/IntegrationsPage').then((m) => ({ default: m.ProjectIntegrationsPage })),
  pageLoading,
  (logic) => [logic.githubIntegrations, logic.repositoryRelink],
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
  const route = findProjectRoute(section)
  const notFound = useSelector(useProjectActor(), selectProjectNotFound)
  useDocumentTitle(notFound ? 'Project not found' : pageTitleOf(route, project?.name ?? null, organization?.name ?? null))

  const crumbs: Crumb[] = []
  if (organization) crumbs.push({ label: organization.name, href: `/org/${organization.slug}/general` })
  crumbs.push({ label: project?.name ?? projectRef, href: `/project/${projectRef}` })
  if (route && route.product !== 'home') crumbs.push({ label: route.title })

  const resources = useResourceWarnings(projectRef, project?.organization_slug ?? null)
  const menu = route && project && project.status !== 'INACTIVE' ? sideMenuFor(route.product, flags) : null

  return (
    <AppFrame
      nav={<NavBar navBar={navBar} project={notFound ? null : { ref: projectRef, product: route?.product ?? 'home', data: project }} />}
      crumbs={crumbs}
      badge={<UsageBadge actor={resources} />}
      banner={<ResourceBanner actor={resources} pathname={`/project/${projectRef}/${section}`.replace(/\/+$/, '')} />}
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
        <NotFound />
      ) : (
        <ProjectStatusGate skeleton={section === '' ? <ProjectHomeSkeleton /> : undefined}>
          <ProjectPageContent section={section} title={route.title} />
        </ProjectStatusGate>
      )}
    </AppFrame>
  )
}

function ProjectPageContent({ section, title }: { section: string; title: string }) {
  if (section === '') return <ProjectHome />
  if (section === 'settings/general' || section === 'settings') return <GeneralSettingsPage />
  if (section === 'settings/infrastructure') return <InfrastructureSettingsPage />
  if (section === 'building') return <ToolPage title="Project is ready" note="The project has finished setting up." />
  if (section === 'settings/api') return <ApiSettingsPage />
  if (section === 'settings/integrations') return <IntegrationsSettingsPage />
  const screen = projectScreenFor(section)
  if (screen !== null) return screen
  return <ToolPage title={title} />
}
