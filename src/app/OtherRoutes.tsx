/**
 * The signed-in routes off the project path: account, new project, joining, the organization pages and support, and
 * the not-found page. A chunk of its own (SignedIn.tsx loads it for any path it does not route itself), so the first
 * load of a project carries none of it.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { lazy, Suspense, useState, type ComponentProps, type ComponentType, type ReactNode } from 'react'
import { Route, Switch, useSearch, type DefaultParams } from 'wouter'
import { href, type OrgPage } from '../href'
import type { AccountPage as AccountPageView } from '../views/account/AccountPage'
import type { Crumb } from '../views/layout/AppFrame'
import { ShellFrame } from '../views/layout/ShellFrame'
import { NotFound } from '../views/NotFound'
import type { OrgIntegrationsPage as OrgIntegrationsPageView } from '../views/org/integrations/IntegrationsPage'
import type { JoinPage as JoinPageView } from '../views/org/JoinPage'
import type { OrganizationBillingPage as BillingPageView } from '../views/org/OrganizationBillingPage'
import type { OrganizationGeneralPage as GeneralPageView } from '../views/org/OrganizationGeneralPage'
import { OrganizationNav } from '../views/org/OrganizationNav'
import type { TeamPage as TeamPageView } from '../views/org/TeamPage'
import type { OrgUsagePage as OrgUsagePageView } from '../views/org/usage/OrgUsagePage'
import { UsageSkeleton } from '../views/org/usage/UsageSkeleton'
import type { NewProjectPage as NewProjectPageView } from '../views/projects/NewProjectPage'
import { useProjectListActor, useShell, type NavBarActorRef } from '../views/shell/contexts'
import { lazyComponent, preloadLoader, useLoaded } from '../views/shell/lazy'
import { useAppLogic, type AppLogic } from '../views/shell/logic'
import { Loading } from '../views/shell/ui'
import { inspectOption } from './inspector'
import { NestedRoute } from './NestedRoute'

// Each page loads on demand too; those that run a machine of their own fetch its code (AppLogic's loader) side by
// side with theirs, behind the page's loading treatment.
const pageLoading = <Loading label="Loading page…" />
const AccountPage = lazyComponent<ComponentProps<typeof AccountPageView>>(
  () => import('../views/account/AccountPage').then((m) => ({ default: m.AccountPage })),
  pageLoading,
)
const OrgIntegrationsPage = lazyComponent<ComponentProps<typeof OrgIntegrationsPageView>>(
  () => import('../views/org/integrations/IntegrationsPage').then((m) => ({ default: m.OrgIntegrationsPage })),
  pageLoading,
  (logic) => [logic.githubIntegrations, logic.repositoryRelink],
)
const TeamPage = lazyComponent<ComponentProps<typeof TeamPageView>>(
  () => import('../views/org/TeamPage').then((m) => ({ default: m.TeamPage })),
  pageLoading,
)
const JoinPage = lazyComponent<ComponentProps<typeof JoinPageView>>(
  () => import('../views/org/JoinPage').then((m) => ({ default: m.JoinPage })),
  pageLoading,
)
// The usage page shows its skeleton (spec 2) while its code and its machine load, then while its figures do.
const usageSkeleton = <div className="mx-auto w-full max-w-5xl px-6 py-8"><UsageSkeleton /></div>
const OrgUsagePage = lazyComponent<ComponentProps<typeof OrgUsagePageView>>(
  () => import('../views/org/usage/OrgUsagePage').then((m) => ({ default: m.OrgUsagePage })),
  usageSkeleton,
  (logic) => [logic.orgUsage],
)
const SupportPage = lazy(() => import('../views/support/SupportPage').then((m) => ({ default: m.SupportPage })))
const SupportTicketsPage = lazy(() => import('../views/support/SupportTicketsPage').then((m) => ({ default: m.SupportTicketsPage })))
const NewProjectPage = lazyComponent<ComponentProps<typeof NewProjectPageView>>(
  () => import('../views/projects/NewProjectPage').then((m) => ({ default: m.NewProjectPage })),
  pageLoading,
)

const OrganizationGeneralPage = lazyComponent<ComponentProps<typeof GeneralPageView>>(
  () => import('../views/org/OrganizationGeneralPage').then((m) => ({ default: m.OrganizationGeneralPage })),
  pageLoading,
  (logic) => [logic.organizationSettings],
)
const OrganizationBillingPage = lazyComponent<ComponentProps<typeof BillingPageView>>(
  () => import('../views/org/OrganizationBillingPage').then((m) => ({ default: m.OrganizationBillingPage })),
  pageLoading,
  (logic) => [logic.planChange],
)
function Page({ children, fallback = pageLoading }: { children: ReactNode; fallback?: ReactNode }) {
  return <Suspense fallback={fallback}>{children}</Suspense>
}

/**
 * The pages off the project path, one row each: the path, the breadcrumbs, the screen (which runs the page's
 * machines) and what starts loading as soon as the route renders: the page's code and its machines' code at once
 * (both load once however often it renders); the screen inside the page's Suspense waits for the machines, the page
 * component for its own code.
 */
interface PageRoute {
  path: string
  crumbs: (params: DefaultParams) => Crumb[]
  screen: (params: DefaultParams) => ReactNode
  preload?: (logic: AppLogic) => void
}

const orgCrumb = (slug: string): Crumb => ({ label: slug, href: href.org(slug, 'general') })

const ROUTES: PageRoute[] = [
  {
    path: '/account/me',
    crumbs: () => [{ label: 'Account preferences' }],
    screen: () => <AccountScreen />,
    preload: (logic) => {
      void AccountPage.preload()
      preloadLoader(logic.profile)
    },
  },
  {
    path: '/new/:slug',
    crumbs: ({ slug = '' }) => [orgCrumb(slug), { label: 'New project' }],
    screen: ({ slug = '' }) => <NewProjectScreen key={slug} slug={slug} />,
    preload: (logic) => {
      void NewProjectPage.preload()
      preloadLoader(logic.organization)
      preloadLoader(logic.newProject)
    },
  },
  {
    path: '/join',
    crumbs: () => [{ label: 'Join organization' }],
    screen: () => <JoinRoute />,
    preload: (logic) => {
      void JoinPage.preload()
      preloadLoader(logic.joinInvitation)
    },
  },
  { path: '/support/new', crumbs: () => [{ label: 'Support' }], screen: () => <SupportRoute /> },
  { path: '/support', crumbs: () => [{ label: 'Support' }], screen: () => <SupportTicketsScreen /> },
]

/** The organization's pages under /org/{slug}/, by the page's name (OrganizationNav links them). */
const ORG_PAGES: Record<OrgPage, { crumb: string; Screen: ComponentType<{ slug: string }>; fallback?: ReactNode; preload?: (logic: AppLogic) => void }> = {
  general: { crumb: 'General', Screen: GeneralScreen },
  team: {
    crumb: 'Team',
    Screen: TeamScreen,
    preload: (logic) => {
      void TeamPage.preload()
      preloadLoader(logic.members)
    },
  },
  integrations: { crumb: 'Integrations', Screen: OrgIntegrationsPage },
  billing: { crumb: 'Billing', Screen: BillingScreen },
  usage: { crumb: 'Usage', Screen: OrgUsagePage, fallback: usageSkeleton },
}

const isOrgPage = (page: string): page is OrgPage => Object.hasOwn(ORG_PAGES, page)

export function OtherRoutes({ navBar }: { navBar: NavBarActorRef }) {
  return (
    <Switch>
      {ROUTES.map((row) => (
        <Route key={row.path} path={row.path}>
          {(params) => <PageRouteView row={row} params={params} navBar={navBar} />}
        </Route>
      ))}
      <NestedRoute path="/org/:slug" nest>
        {({ slug = '' }, page) =>
          isOrgPage(page) ? <OrganizationRoute key={slug} navBar={navBar} slug={slug} page={page} /> : <NotFoundRoute navBar={navBar} />
        }
      </NestedRoute>
      <Route>
        <NotFoundRoute navBar={navBar} />
      </Route>
    </Switch>
  )
}

function PageRouteView({ row, params, navBar }: { row: PageRoute; params: DefaultParams; navBar: NavBarActorRef }) {
  const logic = useAppLogic()
  row.preload?.(logic)
  return (
    <ShellFrame navBar={navBar} crumbs={row.crumbs(params)}>
      <Page>
        {row.screen(params)}
      </Page>
    </ShellFrame>
  )
}

/** /org/{slug}/{page}: the organization's tabs above the page. */
function OrganizationRoute({ navBar, slug, page }: { navBar: NavBarActorRef; slug: string; page: OrgPage }) {
  const row = ORG_PAGES[page]
  row.preload?.(useAppLogic())
  return (
    <ShellFrame navBar={navBar} crumbs={[orgCrumb(slug), { label: row.crumb }]}>
      <OrganizationNav slug={slug} current={page} />
      <Page fallback={row.fallback}>
        <row.Screen slug={slug} />
      </Page>
    </ShellFrame>
  )
}

function NotFoundRoute({ navBar }: { navBar: NavBarActorRef }) {
  return (
    <ShellFrame navBar={navBar} crumbs={[{ label: 'Not found' }]}>
      <NotFound />
    </ShellFrame>
  )
}

// The screens: each runs its page's machines (provided with what they tell the rest of the app) and renders the page.

function AccountScreen() {
  const machines = useAppLogic()
  const { session } = useShell()
  const tokens = useActorRef(useLoaded(machines.accessTokens), inspectOption())
  const profileMachine = useLoaded(machines.profile)
  const [signedIn] = useState(() => session.getSnapshot().context.session)
  const [machine] = useState(() =>
    profileMachine.provide({
      actions: {
        profileSaved: (_, params) => {
          const current = session.getSnapshot().context.session
          if (current) session.send({ type: 'session.changed', session: { ...current, profile: params.profile } })
        },
      },
    }),
  )
  const profile = useActorRef(machine, { input: { profile: signedIn?.profile ?? { id: 0, username: '', primary_email: '' } }, ...inspectOption() })
  return <AccountPage tokens={tokens} profile={profile} />
}

/** /org/{slug}/team: the members machine runs for the signed-in person (their own row gives their role). */
function TeamScreen({ slug }: { slug: string }) {
  const machines = useAppLogic()
  const { session } = useShell()
  const accountId = useSelector(session, (snapshot) => snapshot.context.session?.profile.id ?? 0)
  const members = useActorRef(useLoaded(machines.members), { input: { slug, accountId }, ...inspectOption() })
  return <TeamPage members={members} slug={slug} />
}

/** A saved change of an organization (its name, its plan) asks the project list to read the organizations again. */
function useRefreshOrganizations() {
  const projectList = useProjectListActor()
  return () => projectList.send({ type: 'projects.refresh' })
}

/** /org/{slug}/general */
function GeneralScreen({ slug }: { slug: string }) {
  const loaded = useLoaded(useAppLogic().organizationSettings)
  const refreshOrganizations = useRefreshOrganizations()
  const [machine] = useState(() => loaded.provide({ actions: { refreshOrganizations } }))
  const settings = useActorRef(machine, { input: { slug }, ...inspectOption() })
  return <OrganizationGeneralPage settings={settings} />
}

/** /org/{slug}/billing (?panel=subscriptionPlan opens the plans) */
function BillingScreen({ slug }: { slug: string }) {
  const panel = new URLSearchParams(useSearch()).get('panel')
  const loaded = useLoaded(useAppLogic().planChange)
  const refreshOrganizations = useRefreshOrganizations()
  const [machine] = useState(() => loaded.provide({ actions: { refreshOrganizations } }))
  const planChange = useActorRef(machine, { input: { slug }, ...inspectOption() })
  return <OrganizationBillingPage planChange={planChange} panel={panel} />
}

/** /join?token=…: accepting an invitation; the session then holds the new organization's permissions. */
function JoinRoute() {
  const token = new URLSearchParams(useSearch()).get('token') ?? ''
  return <JoinScreen key={token} token={token} />
}

function JoinScreen({ token }: { token: string }) {
  const { session } = useShell()
  const projectList = useProjectListActor()
  const loaded = useLoaded(useAppLogic().joinInvitation)
  const [machine] = useState(() =>
    loaded.provide({
      actions: {
        joined: (_, params) => {
          session.send({ type: 'session.changed', session: params.session })
          projectList.send({ type: 'projects.refresh' })
        },
      },
    }),
  )
  const join = useActorRef(machine, { input: { token }, ...inspectOption() })
  return <JoinPage join={join} />
}

/** /new/{slug}: the organization and the create form; a created project asks the project list to load again. */
function NewProjectScreen({ slug }: { slug: string }) {
  const machines = useAppLogic()
  const projectList = useProjectListActor()
  const organizationMachine = useLoaded(machines.organization)
  const newProjectMachine = useLoaded(machines.newProject)
  const [machine] = useState(() => newProjectMachine.provide({ actions: { refreshProjectList: () => projectList.send({ type: 'projects.refresh' }) } }))
  const organization = useActorRef(organizationMachine, { input: { slug }, ...inspectOption() })
  const newProject = useActorRef(machine, { input: { slug }, ...inspectOption() })
  return <NewProjectPage organization={organization} newProject={newProject} />
}

/** /support/new, prefilled from the query (category, ref, subject, message). */
function SupportRoute() {
  const query = new URLSearchParams(useSearch())
  const prefill = {
    category: query.get('category') ?? '',
    ref: query.get('ref') ?? '',
    subject: query.get('subject') ?? '',
    message: query.get('message') ?? '',
  }
  return <SupportScreen key={query.toString()} prefill={prefill} />
}

function SupportScreen({ prefill }: { prefill: ComponentProps<typeof SupportPage>['prefill'] }) {
  const ticket = useActorRef(useLoaded(useAppLogic().supportTicket), inspectOption())
  return <SupportPage prefill={prefill} ticket={ticket} />
}

function SupportTicketsScreen() {
  const tickets = useActorRef(useLoaded(useAppLogic().supportTickets), inspectOption())
  return <SupportTicketsPage tickets={tickets} />
}
