import { useActorRef, useSelector } from '@xstate/react'
import { useId } from 'react'
import { Link } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { selectOrgUsageView, type OrgUsageView, type UsageRow, type orgUsageMachine } from '../../../../machines/orgUsage.machine'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic } from '../../shell/logic'
import { Card, ErrorPanel, PageHeading, cx, inputClass } from '../../shell/ui'
import { useDocumentTitle } from '../../shell/useDocumentTitle'
import { DailyChart } from '../../shell/DailyChart'
import { UsageSkeleton } from './UsageSkeleton'

export type OrgUsageActorRef = ActorRefFrom<typeof orgUsageMachine>

/** /org/{slug}/usage: one actor per organization. */
export function OrgUsagePage({ slug }: { slug: string }) {
  const actor = useActorRef(useLoaded(useAppLogic().orgUsage), { input: { slug } })
  return <OrgUsage actor={actor} />
}

const day = (iso: string) => iso.slice(0, 10)

export function OrgUsage({ actor }: { actor: OrgUsageActorRef }) {
  useDocumentTitle('Usage')
  const view = useSelector(actor, selectOrgUsageView)
  const period = view.phase === 'loaded' ? `Billing period ${day(view.period.start)} to ${day(view.period.end)} (UTC)` : 'This billing period'
  return (
    <div className="mx-auto w-full max-w-5xl px-6 py-8">
      <PageHeading title="Usage" description={period} actions={<ProjectFilter actor={actor} view={view} />} />
      {view.phase === 'loaded' ? (
        view.banners.map((banner) => (
          <div key={banner.project} role="alert" data-variant={banner.variant} className="mb-4 flex flex-wrap items-center gap-x-4 gap-y-1 rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100">
            <div className="min-w-0 flex-1">
              <p className="font-semibold">
                {banner.project}: {banner.title}
              </p>
              <p className="opacity-90">{banner.message}</p>
            </div>
            <Link href={banner.href} className="shrink-0 font-medium underline underline-offset-4">
              {banner.linkLabel}
            </Link>
          </div>
        ))
      ) : null}
      {view.phase === 'loading' ? <UsageSkeleton /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to load usage" message={view.error} onRetry={() => actor.send({ type: 'usage.retry' })} /> : null}
      {view.phase === 'loaded' ? (
        <div className="space-y-4">
          <UsageTable rows={view.rows} />
          <Card className="p-5">
            <DailyChart series={view.requests} />
          </Card>
          {view.rows.map((row) => (
            <MetricCard key={row.metric} row={row} />
          ))}
        </div>
      ) : null}
    </div>
  )
}

function ProjectFilter({ actor, view }: { actor: OrgUsageActorRef; view: OrgUsageView }) {
  const id = useId()
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-neutral-600 dark:text-neutral-300">
        Project
      </label>
      <select
        id={id}
        className={cx(inputClass, 'w-56')}
        value={view.projectRef}
        onChange={(event) => actor.send({ type: 'project.select', ref: event.target.value })}
      >
        <option value="">All projects</option>
        {view.projects.map((project) => (
          <option key={project.ref} value={project.ref}>
            {project.name}
          </option>
        ))}
      </select>
    </div>
  )
}

function UsageTable({ rows }: { rows: UsageRow[] }) {
  return (
    <Card>
      <div className="overflow-x-auto">
        <table aria-label="Usage per metric" className="min-w-full text-sm">
          <thead className="border-b border-neutral-200 text-left text-xs text-neutral-500 dark:border-neutral-800 dark:text-neutral-400">
            <tr>
              <th scope="col" className="px-5 py-2 font-medium">Metric</th>
              <th scope="col" className="px-3 py-2 font-medium">Usage</th>
              <th scope="col" className="px-3 py-2 font-medium">Included in plan</th>
              <th scope="col" className="px-5 py-2 font-medium">Status</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
            {rows.map((row) => (
              <tr key={row.metric}>
                <th scope="row" className="px-5 py-3 text-left font-medium">
                  <a href={`#${row.metric.toLowerCase()}`} className="hover:underline">{row.label}</a>
                </th>
                <td className="px-3 py-3 tabular-nums">{row.usage}</td>
                <td className="px-3 py-3 tabular-nums">{row.included}</td>
                <td className="px-5 py-3">
                  <span
                    className={cx(
                      'rounded-full px-2 py-0.5 text-xs font-medium',
                      row.exceeded ? 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200' : 'bg-neutral-100 text-neutral-700 dark:bg-neutral-800 dark:text-neutral-300',
                    )}
                  >
                    {row.exceeded ? 'Exceeded' : 'Within limit'}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  )
}

function MetricCard({ row }: { row: UsageRow }) {
  return (
    <Card className="p-5">
      <section id={row.metric.toLowerCase()} aria-label={row.label} className="space-y-3">
        <h2 className="font-semibold">{row.label}</h2>
        <p className="text-sm text-neutral-600 dark:text-neutral-300">
          {row.usage} used of {row.included} included{row.exceeded ? ' — over what the plan includes' : ''}
        </p>
        {row.series ? (
          <DailyChart series={row.series} />
        ) : (
          <p className="text-sm text-neutral-500 dark:text-neutral-400">The local platform does not measure this metric per day.</p>
        )}
      </section>
    </Card>
  )
}
