/**
 * The signed-in routes off the project path: account, new project, joining, the organization pages and support, and
 * the not-found page. A chunk of its own (SignedIn.tsx loads it for any path it does not route itself), so the first
 * load of a project carries none of it.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { lazy, Suspense, useState, type ComponentProps, type ReactNode } from 'react'
import { Route, Switch, useSearch } from 'wouter'
import type { TicketPrefill } from '../../machines/supportTicket.machine'
import type { AccountPage as AccountPageView } from '../views/account/AccountPage'
import { ShellFrame } from '../views/layout/ShellFrame'
import { NotFound } from '../views/NotFound'
import type { OrgIntegrationsPage as OrgIntegrationsPageView } from '../views/org/integrations/IntegrationsPage'
import type { JoinPage as JoinPageView } from '../views/org/JoinPage'
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
import { OrganizationBillingRoute, OrganizationGeneralRoute } from './OrganizationSettingsRoutes'

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
const OrgUsagePage = lazyComponent<ComponentProps<typeof OrgUsagePageView>>(
  () => import('../views/org/usage/OrgUsagePage').then((m) => ({ default: m.OrgUsagePage })),
  <div className="mx-auto w-full max-w-5xl px-6 py-8"><UsageSkeleton /></div>,
  (logic) => [logic.orgUsage],
)
const SupportPage = lazy(() => import('../views/support/SupportPage').then((m) => ({ default: m.SupportPage })))
const SupportTicketsPage = lazy(() => import('../views/support/SupportTicketsPage').then((m) => ({ default: m.SupportTicketsPage })))
const NewProjectPage = lazyComponent<ComponentProps<typeof NewProjectPageView>>(
  () => import('../views/projects/NewProjectPage').then((m) => ({ default: m.NewProjectPage })),
  pageLoading,
)

function Page({ children }: { children: ReactNode }) {
  return <Suspense fallback={pageLoading}>{children}</Suspense>
}

export function OtherRoutes({ navBar }: { navBar: NavBarActorRef }) {
  return (
    <Switch>
      <Route path="/account/me">
        <ShellFrame navBar={navBar} crumbs={[{ label: 'Account preferences' }]}>
          <AccountRoute />
        </ShellFrame>
      </Route>
      <Route path="/new/:slug">{({ slug }) => <NewProjectRoute key={slug} navBar={navBar} slug={slug} />}</Route>
      <Route path="/join">
        <ShellFrame navBar={navBar} crumbs={[{ label: 'Join organization' }]}>
          <JoinRoute />
        </ShellFrame>
      </Route>
      <Route path="/org/:slug/general">{({ slug }) => <OrganizationGeneralRoute key={slug} navBar={navBar} slug={slug} />}</Route>
      <Route path="/org/:slug/billing">{({ slug }) => <OrganizationBillingRoute key={slug} navBar={navBar} slug={slug} />}</Route>
      <Route path="/org/:slug/usage">
        {({ slug }) => (
          <ShellFrame navBar={navBar} crumbs={[{ label: slug, href: `/org/${slug}/general` }, { label: 'Usage' }]}>
            <OrganizationNav slug={slug} current="usage" />
            <Suspense fallback={<div className="mx-auto w-full max-w-5xl px-6 py-8"><UsageSkeleton /></div>}>
              <OrgUsagePage key={slug} slug={slug} />
            </Suspense>
          </ShellFrame>
        )}
      </Route>
      <Route path="/org/:slug/:page">
        {({ slug, page }) =>
          page === 'team' ? (
            <TeamRoute key={slug} navBar={navBar} slug={slug} />
          ) : page === 'integrations' ? (
            <ShellFrame key={slug} navBar={navBar} crumbs={[{ label: slug, href: `/org/${slug}/general` }, { label: 'Integrations' }]}>
              <OrganizationNav slug={slug} current="integrations" />
              <Page>
                <OrgIntegrationsPage slug={slug} />
              </Page>
            </ShellFrame>
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
      <Route>
        <ShellFrame navBar={navBar} crumbs={[{ label: 'Not found' }]}>
          <NotFound />
        </ShellFrame>
      </Route>
    </Switch>
  )
}

// Each route below starts its page's code and its machines' code at once (both load once however often it renders);
// the screen inside the page's Suspense waits for the machines, the page component for its own code.

function AccountRoute() {
  const logic = useAppLogic()
  void AccountPage.preload()
  preloadLoader(logic.profile)
  return (
    <Page>
      <AccountScreen machines={logic} />
    </Page>
  )
}

function AccountScreen({ machines }: { machines: AppLogic }) {
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
function TeamRoute({ navBar, slug }: { navBar: NavBarActorRef; slug: string }) {
  const logic = useAppLogic()
  void TeamPage.preload()
  preloadLoader(logic.members)
  return (
    <ShellFrame navBar={navBar} crumbs={[{ label: slug, href: `/org/${slug}/general` }, { label: 'Team' }]}>
      <OrganizationNav slug={slug} current="team" />
      <Page>
        <TeamScreen machines={logic} slug={slug} />
      </Page>
    </ShellFrame>
  )
}

function TeamScreen({ machines, slug }: { machines: AppLogic; slug: string }) {
  const { session } = useShell()
  const accountId = useSelector(session, (snapshot) => snapshot.context.session?.profile.id ?? 0)
  const members = useActorRef(useLoaded(machines.members), { input: { slug, accountId }, ...inspectOption() })
  return <TeamPage members={members} slug={slug} />
}

/** /join?token=…: accepting an invitation; the session then holds the new organization's permissions. */
function JoinRoute() {
  const logic = useAppLogic()
  void JoinPage.preload()
  preloadLoader(logic.joinInvitation)
  const token = new URLSearchParams(useSearch()).get('token') ?? ''
  return (
    <Page>
      <JoinScreen key={token} machines={logic} token={token} />
    </Page>
  )
}

function JoinScreen({ machines, token }: { machines: AppLogic; token: string }) {
  const { session } = useShell()
  const projectList = useProjectListActor()
  const loaded = useLoaded(machines.joinInvitation)
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

function SupportScreen({ machines, prefill }: { machines: AppLogic; prefill: TicketPrefill }) {
  const ticket = useActorRef(useLoaded(machines.supportTicket), { input: { prefill }, ...inspectOption() })
  return <SupportPage ticket={ticket} />
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
