import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { PLAN_PERMISSION_TEXT, selectCanSelectPlan, selectPlanChangeView, type planChangeMachine } from '../../../machines/planChange.machine'
import type { Plan, SelectablePlanId } from '../../contracts/orgSettings'
import { Modal } from '../shell/Modal'
import { Button, Card, cx, DataList, ErrorPanel, Loading, PageHeading, TextLink } from '../shell/ui'
import { useDocumentTitle } from '../shell/useDocumentTitle'
import { href } from '../../href'

export type PlanChangeActorRef = ActorRefFrom<typeof planChangeMachine>

/**
 * /org/{slug}/billing: the subscription; with ?panel=subscriptionPlan the plans on offer, each chosen after a
 * confirmation (the change is made on the server and what the plan gates follows at once).
 */
export function OrganizationBillingPage({ planChange, panel }: { planChange: PlanChangeActorRef; panel: string | null }) {
  useDocumentTitle('Billing')
  const view = useSelector(planChange, selectPlanChangeView)
  return (
    <div className="mx-auto w-full max-w-5xl px-6 py-8">
      <PageHeading title="Billing" description={view.phase === 'ready' ? view.data.organization.name : undefined} />
      {view.phase === 'loading' ? <Loading label="Loading subscription…" /> : null}
      {view.phase === 'loadFailed' ? (
        <ErrorPanel title="Failed to load the subscription" message={view.error} onRetry={() => planChange.send({ type: 'billing.retry' })} />
      ) : null}
      {view.phase === 'ready' ? (
        <div className="space-y-6">
          <Card>
            <DataList
              rows={[
                ['Plan', view.data.subscription.plan.name],
                ['Usage billing', view.data.subscription.usage_billing_enabled ? 'Enabled' : 'Disabled (spend cap)'],
              ]}
            />
          </Card>
          {view.changedTo ? (
            <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
              {`Your organization is now on the ${view.changedTo} plan`}
            </p>
          ) : null}
          {panel === 'subscriptionPlan' ? (
            <section aria-labelledby="plans-heading" className="space-y-4">
              <h2 id="plans-heading" className="text-lg font-semibold">
                Change subscription plan
              </h2>
              {view.canChange ? null : (
                <p className="rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200">
                  {PLAN_PERMISSION_TEXT}
                </p>
              )}
              <ul className="grid gap-4 md:grid-cols-3">
                {view.data.plans.map((plan) => (
                  <PlanCard key={plan.id} plan={plan} current={plan.id === view.data.subscription.plan.id} planChange={planChange} />
                ))}
              </ul>
            </section>
          ) : (
            <p className="text-sm">
              <TextLink href={href.orgPlans(view.data.organization.slug)}>Change subscription plan</TextLink>
            </p>
          )}
          <Modal open={view.dialog !== null} onClose={() => planChange.send({ type: 'plan.cancel' })} title={view.dialog ? `Change to the ${view.dialog.plan.name} plan` : 'Change plan'}>
            {view.dialog ? (
              <div className="space-y-4 text-sm">
                <p>
                  {`${view.data.organization.name} moves from the ${view.data.subscription.plan.name} plan to the ${view.dialog.plan.name} plan ($${view.dialog.plan.price_monthly} a month). It takes effect at once.`}
                </p>
                {view.dialog.error ? (
                  <p role="alert" className="text-red-700 dark:text-red-400">
                    {`Failed to change the plan: ${view.dialog.error}`}
                  </p>
                ) : null}
                <div className="flex justify-end gap-2">
                  <Button onClick={() => planChange.send({ type: 'plan.cancel' })} disabled={view.dialog.changing}>
                    Cancel
                  </Button>
                  <Button variant="primary" onClick={() => planChange.send({ type: 'plan.confirm' })} disabled={view.dialog.changing}>
                    {view.dialog.changing ? 'Changing plan…' : `Confirm ${view.dialog.plan.name} plan`}
                  </Button>
                </div>
              </div>
            ) : null}
          </Modal>
        </div>
      ) : null}
    </div>
  )
}

function PlanCard({ plan, current, planChange }: { plan: Plan; current: boolean; planChange: PlanChangeActorRef }) {
  const id = plan.id as SelectablePlanId
  const canSelect = useSelector(planChange, selectCanSelectPlan(id))
  return (
    <li>
      <Card className={cx('flex h-full flex-col gap-3 p-5', current && 'border-emerald-600 dark:border-emerald-500')}>
        <h3 className="font-semibold">{plan.name}</h3>
        {/* The price is a fact of the card, not a heading of what follows: a term and its value. */}
        <dl>
          <dt className="sr-only">Price</dt>
          <dd className="text-2xl font-semibold">
            {`$${plan.price_monthly}`}
            <span className="text-sm font-normal text-neutral-600 dark:text-neutral-400"> / month</span>
          </dd>
        </dl>
        <p className="text-sm text-neutral-600 dark:text-neutral-400">{plan.description}</p>
        <ul className="list-disc space-y-1 pl-5 text-sm">
          {plan.features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
        <div className="mt-auto pt-2">
          {current ? (
            <p className="text-sm font-medium text-emerald-700 dark:text-emerald-400">Current plan</p>
          ) : (
            <Button variant="primary" disabled={!canSelect} aria-label={`Change to ${plan.name}`} onClick={() => planChange.send({ type: 'plan.select', plan: id })}>
              {`Change to ${plan.name}`}
            </Button>
          )}
        </div>
      </Card>
    </li>
  )
}
