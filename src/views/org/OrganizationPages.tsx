import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectOrganizationView, type OrganizationData, type organizationMachine } from '../../../machines/organization.machine'
import { Card, DataList, ErrorPanel, Loading, PageHeading, TextLink } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'

type OrganizationActorRef = ActorRefFrom<typeof organizationMachine>
export type OrganizationPageKind = 'general' | 'usage' | 'billing'

const TITLES: Record<OrganizationPageKind, string> = {
  general: 'Organization settings',
  usage: 'Usage',
  billing: 'Billing',
}

/** The organization pages: real data now (name, plan); later issues fill in the rest. */
export function OrganizationPage({ organization, kind, panel }: { organization: OrganizationActorRef; kind: OrganizationPageKind; panel?: string | null }) {
  useDocumentTitle(TITLES[kind])
  const view = useSelector(organization, selectOrganizationView)
  return (
    <div className="mx-auto w-full max-w-4xl px-6 py-8">
      <PageHeading title={TITLES[kind]} description={view.phase === 'loaded' ? view.data.organization.name : undefined} />
      {view.phase === 'loading' ? <Loading label="Loading organization…" /> : null}
      {view.phase === 'failed' ? (
        <ErrorPanel title="Failed to load organization" message={view.error} onRetry={() => organization.send({ type: 'organization.retry' })} />
      ) : null}
      {view.phase === 'loaded' ? <OrganizationDetails data={view.data} kind={kind} panel={panel ?? null} /> : null}
    </div>
  )
}

function OrganizationDetails({ data, kind, panel }: { data: OrganizationData; kind: OrganizationPageKind; panel: string | null }) {
  const { organization, subscription } = data
  const rows: Array<[string, React.ReactNode]> = [
    ['Name', organization.name],
    ['Slug', <span className="font-mono">{organization.slug}</span>],
    ['Plan', subscription.plan.name],
  ]
  if (kind === 'billing' || kind === 'usage') rows.push(['Usage billing', subscription.usage_billing_enabled ? 'Enabled' : 'Disabled'])
  return (
    <div className="space-y-6">
      <Card>
        <DataList rows={rows} />
      </Card>
      {kind === 'billing' && panel === 'subscriptionPlan' ? (
        <Card className="p-5">
          <h2 className="font-semibold">Change subscription plan</h2>
          <p className="mt-1 text-sm text-neutral-500">
            You are on the {subscription.plan.name} plan. Plan changes arrive in a later version.
          </p>
        </Card>
      ) : null}
      {kind === 'usage' ? (
        <p className="text-sm text-neutral-500">Usage per metric arrives in a later version.</p>
      ) : null}
      <p className="text-sm">
        <TextLink href="/projects">Back to projects</TextLink>
      </p>
      <p className="text-sm">
        <TextLink href={`/org/${organization.slug}/integrations`}>Integrations</TextLink>
      </p>
    </div>
  )
}
