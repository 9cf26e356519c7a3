import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { REPORT_RANGES, selectProjectReportsView, type ReportRange, type projectReportsMachine } from '../../../../machines/projectReports.machine'
import { useAppLogic } from '../../shell/logic'
import { Button, Card, ErrorPanel, Loading, PageHeading, cx } from '../../shell/ui'
import { DailyChart } from '../../usage/DailyChart'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'
import { useProjectActor } from '../../shell/projectActor'

export type ProjectReportsActorRef = ActorRefFrom<typeof projectReportsMachine>

const HEADING = { title: 'Reports', description: "The project's API: requests and response times per day, as its REST endpoint measured them." }

/** /project/{ref}/reports */
export function ReportsPage() {
  const logic = useAppLogic()
  const project = useSelector(useProjectActor(), selectProject)
  const organizationSlug = project?.organization_slug ?? ''
  return (
    <ProjectMachinePage
      machine={logic.projectReports}
      heading={HEADING}
      loadingLabel="Loading reports…"
      input={(ref) => ({ ref, organizationSlug })}
      render={(actor) => <Reports actor={actor} />}
    />
  )
}

export function Reports({ actor }: { actor: ProjectReportsActorRef }) {
  const view = useSelector(actor, selectProjectReportsView)
  const canRefresh = useSelector(actor, (snapshot) => snapshot.can({ type: 'reports.refresh' }))
  return (
    <div className={PAGE_CLASS}>
      <PageHeading
        {...HEADING}
        actions={
          <div className="flex items-center gap-2">
            <div role="group" aria-label="Range" className="inline-flex rounded-md border border-neutral-300 dark:border-neutral-700">
              {REPORT_RANGES.map((days: ReportRange) => (
                <button
                  key={days}
                  type="button"
                  aria-pressed={view.days === days}
                  onClick={() => actor.send({ type: 'range.select', days })}
                  className={cx(
                    'px-3 py-1.5 text-sm first:rounded-l-md last:rounded-r-md',
                    view.days === days ? 'bg-neutral-900 text-white dark:bg-neutral-100 dark:text-neutral-900' : 'text-neutral-700 dark:text-neutral-200',
                  )}
                >
                  Last {days} days
                </button>
              ))}
            </div>
            <Button disabled={!canRefresh} onClick={() => actor.send({ type: 'reports.refresh' })}>
              Refresh
            </Button>
          </div>
        }
      />
      {view.phase === 'loading' ? <Loading label="Loading reports…" /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to load reports" message={view.error} onRetry={() => actor.send({ type: 'reports.refresh' })} /> : null}
      {view.phase === 'loaded' ? (
        <div className="space-y-4">
          <p className="text-sm text-neutral-600 dark:text-neutral-300">
            {view.totalRequests === 0
              ? `No requests reached the project's REST endpoint in the last ${view.days} days.`
              : `${view.totalRequests.toLocaleString('en-US')} requests in the last ${view.days} days.`}
          </p>
          <Card className="p-5">
            <DailyChart series={view.requests} />
          </Card>
          <Card className="p-5">
            <DailyChart series={view.responseTime} />
          </Card>
        </div>
      ) : null}
    </div>
  )
}
