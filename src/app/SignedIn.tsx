import { useActorRef, useSelector } from '@xstate/react'
import { lazy, Suspense, useState, type ComponentProps, type ReactNode } from 'react'
import { Redirect, Route, Switch, useSearch } from 'wouter'
import { selectSessionPhase } from '../../machines/session.machine'
import { SessionCheckFailed, SessionChecking } from '../views/auth/SessionScreens'
import { FeaturePreviewsDialog } from '../views/layout/FeaturePreviewsDialog'
import { ShellFrame } from '../views/layout/ShellFrame'
import { NotFound } from '../views/NotFound'
import type { AccountPage as AccountPageView } from '../views/account/AccountPage'
import type { OrganizationPage as OrganizationPageView, OrganizationPageKind } from '../views/org/OrganizationPages'
import type { NewProjectPage as NewProjectPageView } from '../views/projects/NewProjectPage'
import type { ProjectsPage as ProjectsPageView } from '../views/projects/ProjectsPage'
import { lazyComponent, preloadLoader, useLoaded } from '../views/shell/lazy'
import { Loading } from '../views/shell/ui'
import { ProjectListContext, useProjectListActor, useShell, type NavBarActorRef } from '../views/shell/contexts'
import { inspectOption } from './inspector'
import { useAppLogic, type AppLogic } from '../views/shell/logic'
import { ProjectLayout } from './ProjectLayout'

// Pages off the main path load on demand, keeping them out of the entry chunk. Those that run a machine of their
// own fetch its code (AppLogic's loader) side by side with theirs, behind the page's loading treatment.
const pageLoading = <Loading label="Loading page…" />
const AccountPage = lazyComponent<ComponentProps<typeof AccountPageView>>(
  () => import('../views/account/AccountPage').then((m) => ({ default: m.AccountPage })),
  pageLoading,
)
const OrganizationPage = lazyComponent<ComponentProps<typeof OrganizationPageView>>(
  () => import('../views/org/OrganizationPages').then((m) => ({ default: m.OrganizationPage })),
  pageLoading,
)
const SupportPage = lazy(() => import('../views/support/SupportPage').then((m) => ({ default: m.SupportPage })))
const SupportTicketsPage = lazy(() => import('../views/support/SupportTicketsPage').then((m) => ({ default: m.SupportTicketsPage })))
const NewProjectPage = lazyComponent<ComponentProps<typeof NewProjectPageView>>(
  () => import('../views/projects/NewProjectPage').then((m) => ({ default: m.NewProjectPage })),
  pageLoading,
)

// The project list loads when shown, off the first load of a project page.
const ProjectsPage = lazyComponent<ComponentProps<typeof ProjectsPageView>>(
  () => import('../views/projects/ProjectsPage').then((m) => ({ default: m.ProjectsPage })),
  pageLoading,
)

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={pageLoading}>{children}</Suspense>
}

const PROJECT_ROUTE = /^\/project\/(?<ref>[^/]+)(?:\/(?<section>.*))?$/

/** Signed-in routes: redirect to /sign-in when signed out; otherwise the project list and the shell around pages. */
export function SignedIn() {
  const { session } = useShell()
  const phase = useSelector(session, selectSessionPhase)
  if (phase === 'checking') return <SessionChecking />
  if (phase === 'checkFailed') return <SessionCheckFailed session={session} />
  if (phase === 'signedOut') return <Redirect to="/sign-in" replace />
  return <SignedInShell />
}

function SignedInShell() {
  const logic = useAppLogic()
  const { previews } = useShell()
  const projectList = useActorRef(logic.projectList, inspectOption())
  const navBar = useActorRef(logic.navBar, inspectOption())

  return (
    <ProjectListContext.Provider value={projectList}>
      <Switch>
        <Route path="/projects">
          <ShellFrame navBar={navBar} crumbs={[{ label: 'Projects' }]}>
            <ProjectsPage projectList={projectList} />
          </ShellFrame>
        </Route>
        <Route path="/account/me">
          <ShellFrame navBar={navBar} crumbs={[{ label: 'Account preferences' }]}>
            <AccountRoute />
          </ShellFrame>
        </Route>
        <Route path="/new/:slug">{({ slug }) => <NewProjectRoute key={slug} navBar={navBar} slug={slug} />}</Route>
        <Route path="/org/:slug/:page">
          {({ slug, page }) =>
            page === 'usage' || page === 'general' || page === 'billing' ? (
              <OrganizationRoute key={slug} navBar={navBar} slug={slug} kind={page} />
            ) : (
              <ShellFrame navBar={navBar} crumbs={[{ label: 'Not found' }]}>
                <NotFound />
              </ShellFrame>
            )
          }
        </Route>
        <Route path="/support/new">
          <ShellFrame navBar={navBar} crumbs={[{ label: 'Support' }]}>
            <SupportRoute />
          </ShellFrame>
        </Route>
        <Route path="/support">
          <ShellFrame navBar={navBar} crumbs={[{ label: 'Support' }]}>
            <SupportTicketsRoute />
          </ShellFrame>
        </Route>
        <Route path={PROJECT_ROUTE}>
          {(params: { ref?: string; section?: string }) => (
            <ProjectLayout
              key={params.ref}
              projectRef={params.ref ?? ''}
              section={(params.section ?? '').replace(/\/+$/, '')}
              navBar={navBar}
            />
          )}
        </Route>
        <Route>
          <ShellFrame navBar={navBar} crumbs={[{ label: 'Not found' }]}>
            <NotFound />
          </ShellFrame>
        </Route>
      </Switch>
      <FeaturePreviewsDialog previews={previews} />
    </ProjectListContext.Provider>
  )
}

// Each route below starts its page's code and its machines' code at once (both load once however often it renders);
// the screen inside the page's Suspense waits for the machines, the page component for its own code.

function AccountRoute() {
  const logic = useAppLogic()
  void AccountPage.preload()
  return (
    <Page>
      <AccountScreen machines={logic} />
    </Page>
  )
}

function AccountScreen({ machines }: { machines: AppLogic }) {
  const tokens = useActorRef(useLoaded(machines.accessTokens), inspectOption())
  return <AccountPage tokens={tokens} />
}

function OrganizationRoute({ navBar, slug, kind }: { navBar: NavBarActorRef; slug: string; kind: OrganizationPageKind }) {
  const logic = useAppLogic()
  void OrganizationPage.preload()
  const panel = new URLSearchParams(useSearch()).get('panel')
  const crumbs = [{ label: slug, href: `/org/${slug}/general` }, { label: kind[0].toUpperCase() + kind.slice(1) }]
  return (
    <ShellFrame navBar={navBar} crumbs={crumbs}>
      <Page>
        <OrganizationScreen machines={logic} slug={slug} kind={kind} panel={panel} />
      </Page>
    </ShellFrame>
  )
}

function OrganizationScreen({ machines, slug, kind, panel }: { machines: AppLogic; slug: string; kind: OrganizationPageKind; panel: string | null }) {
  const organization = useActorRef(useLoaded(machines.organization), { input: { slug }, ...inspectOption() })
  return <OrganizationPage organization={organization} kind={kind} panel={panel} />
}

/** /new/{slug}: the organization and the create form; a created project asks the project list to load again. */
function NewProjectRoute({ navBar, slug }: { navBar: NavBarActorRef; slug: string }) {
  const logic = useAppLogic()
  void NewProjectPage.preload()
  preloadLoader(logic.organization)
  preloadLoader(logic.newProject)
  return (
    <ShellFrame navBar={navBar} crumbs={[{ label: slug, href: `/org/${slug}/general` }, { label: 'New project' }]}>
      <Page>
        <NewProjectScreen machines={logic} slug={slug} />
      </Page>
    </ShellFrame>
  )
}

function NewProjectScreen({ machines, slug }: { machines: AppLogic; slug: string }) {
  const projectList = useProjectListActor()
  const organizationMachine = useLoaded(machines.organization)
  const newProjectMachine = useLoaded(machines.newProject)
  const [machine] = useState(() => newProjectMachine.provide({ actions: { refreshProjectList: () => projectList.send({ type: 'projects.refresh' }) } }))
  const organization = useActorRef(organizationMachine, { input: { slug }, ...inspectOption() })
  const newProject = useActorRef(machine, { input: { slug }, ...inspectOption() })
  return <NewProjectPage organization={organization} newProject={newProject} />
}

function SupportRoute() {
  const query = new URLSearchParams(useSearch())
  const prefill = {
    category: query.get('category') ?? '',
    ref: query.get('ref') ?? '',
    subject: query.get('subject') ?? '',
    message: query.get('message') ?? '',
  }
  return (
    <Page>
      <SupportScreen key={query.toString()} machines={useAppLogic()} prefill={prefill} />
    </Page>
  )
}

function SupportScreen({ machines, prefill }: { machines: AppLogic; prefill: ComponentProps<typeof SupportPage>['prefill'] }) {
  const ticket = useActorRef(useLoaded(machines.supportTicket), inspectOption())
  return <SupportPage prefill={prefill} ticket={ticket} />
}

function SupportTicketsRoute() {
  const logic = useAppLogic()
  return (
    <Page>
      <SupportTicketsScreen machines={logic} />
    </Page>
  )
}

function SupportTicketsScreen({ machines }: { machines: AppLogic }) {
  const tickets = useActorRef(useLoaded(machines.supportTickets), inspectOption())
  return <SupportTicketsPage tickets={tickets} />
}
