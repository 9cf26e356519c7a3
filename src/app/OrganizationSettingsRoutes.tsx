import { useActorRef } from '@xstate/react'
import { Suspense, useState, type ComponentProps } from 'react'
import { useSearch } from 'wouter'
import { ShellFrame } from '../views/layout/ShellFrame'
import { OrganizationNav } from '../views/org/OrganizationNav'
import type { OrganizationBillingPage as BillingPageView } from '../views/org/OrganizationBillingPage'
import type { OrganizationGeneralPage as GeneralPageView } from '../views/org/OrganizationGeneralPage'
import { useProjectListActor, type NavBarActorRef } from '../views/shell/contexts'
import { lazyComponent, useLoaded } from '../views/shell/lazy'
import { useAppLogic } from '../views/shell/logic'
import { Loading } from '../views/shell/ui'
import { inspectOption } from './inspector'

// Each page loads on demand with its machine, behind the page's loading treatment.
const pageLoading = <Loading label="Loading page…" />
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

/** A saved change of an organization (its name, its plan) asks the project list to read the organizations again. */
function useRefreshOrganizations() {
  const projectList = useProjectListActor()
  return () => projectList.send({ type: 'projects.refresh' })
}

/** /org/{slug}/general */
export function OrganizationGeneralRoute({ navBar, slug }: { navBar: NavBarActorRef; slug: string }) {
  return (
    <ShellFrame navBar={navBar} crumbs={[{ label: slug, href: `/org/${slug}/general` }, { label: 'General' }]}>
      <OrganizationNav slug={slug} current="general" />
      <Suspense fallback={pageLoading}>
        <GeneralScreen slug={slug} />
      </Suspense>
    </ShellFrame>
  )
}

function GeneralScreen({ slug }: { slug: string }) {
  const loaded = useLoaded(useAppLogic().organizationSettings)
  const refreshOrganizations = useRefreshOrganizations()
  const [machine] = useState(() => loaded.provide({ actions: { refreshOrganizations } }))
  const settings = useActorRef(machine, { input: { slug }, ...inspectOption() })
  return <OrganizationGeneralPage settings={settings} />
}

/** /org/{slug}/billing (?panel=subscriptionPlan opens the plans) */
export function OrganizationBillingRoute({ navBar, slug }: { navBar: NavBarActorRef; slug: string }) {
  const panel = new URLSearchParams(useSearch()).get('panel')
  return (
    <ShellFrame navBar={navBar} crumbs={[{ label: slug, href: `/org/${slug}/general` }, { label: 'Billing' }]}>
      <OrganizationNav slug={slug} current="billing" />
      <Suspense fallback={pageLoading}>
        <BillingScreen slug={slug} panel={panel} />
      </Suspense>
    </ShellFrame>
  )
}

function BillingScreen({ slug, panel }: { slug: string; panel: string | null }) {
  const loaded = useLoaded(useAppLogic().planChange)
  const refreshOrganizations = useRefreshOrganizations()
  const [machine] = useState(() => loaded.provide({ actions: { refreshOrganizations } }))
  const planChange = useActorRef(machine, { input: { slug }, ...inspectOption() })
  return <OrganizationBillingPage planChange={planChange} panel={panel} />
}
