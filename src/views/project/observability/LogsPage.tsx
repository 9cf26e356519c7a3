import { useSelector } from '@xstate/react'
import { useId } from 'react'
import type { ActorRefFrom } from 'xstate'
import { formatBytes } from '../../../../machines/orgUsage.machine'
import { LOG_FILTERS, logTime, selectProjectLogsView, type LogFilter, type projectLogsMachine } from '../../../../machines/projectLogs.machine'
import type { RequestLogEntry } from '../../../contracts/measured'
import { useAppLogic } from '../../shell/logic'
import { Button, Card, ErrorPanel, Loading, PageHeading, cx, inputClass } from '../../shell/ui'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'

export type ProjectLogsActorRef = ActorRefFrom<typeof projectLogsMachine>

const HEADING = { title: 'Logs', description: "The latest requests to the project's REST endpoint, newest first. Keys and tokens are never kept." }
const FILTER_LABELS: Record<LogFilter, string> = { all: 'All statuses', '2xx': '2xx success', '3xx': '3xx redirect', '4xx': '4xx client error', '5xx': '5xx server error' }

/** /project/{ref}/logs/explorer */
export function LogsPage() {
  const logic = useAppLogic()
  return (
    <ProjectMachinePage
      machine={logic.projectLogs}
      heading={HEADING}
      loadingLabel="Loading logs…"
      input={(ref) => ({ ref })}
      render={(actor) => <Logs actor={actor} />}
    />
  )
}

export function Logs({ actor }: { actor: ProjectLogsActorRef }) {
  const id = useId()
  const view = useSelector(actor, selectProjectLogsView)
  const canRefresh = useSelector(actor, (snapshot) => snapshot.can({ type: 'logs.refresh' }))
  return (
    <div className={PAGE_CLASS}>
      <PageHeading
        {...HEADING}
        actions={
          <div className="flex items-center gap-2">
            <label htmlFor={id} className="text-sm text-neutral-600 dark:text-neutral-300">
              Status
            </label>
            <select id={id} className={cx(inputClass, 'w-44')} value={view.filter} onChange={(event) => actor.send({ type: 'filter.select', filter: event.target.value as LogFilter })}>
              {LOG_FILTERS.map((filter) => (
                <option key={filter} value={filter}>
                  {FILTER_LABELS[filter]}
                </option>
              ))}
            </select>
            <Button disabled={!canRefresh} onClick={() => actor.send({ type: 'logs.refresh' })}>
              {view.phase === 'loading' ? 'Refreshing…' : 'Refresh'}
            </Button>
          </div>
        }
      />
      {view.phase === 'failed' ? <ErrorPanel title="Failed to load logs" message={view.error} onRetry={() => actor.send({ type: 'logs.refresh' })} /> : null}
      {view.phase === 'loading' && view.entries.length === 0 ? <Loading label="Loading logs…" /> : null}
      {view.phase === 'loading' && view.entries.length > 0 ? <p role="status" className="mb-2 text-sm text-neutral-500">Refreshing…</p> : null}
      {view.phase !== 'failed' && view.entries.length > 0 ? <LogTable entries={view.entries} /> : null}
      {view.phase === 'loaded' && view.entries.length === 0 ? (
        <p className="rounded-lg border border-dashed border-neutral-300 p-8 text-center text-sm text-neutral-500 dark:border-neutral-700">
          {view.filter === 'all'
            ? "No requests yet. Requests to the project's REST API (Project Settings › API) show here."
            : `No ${view.filter} requests among the latest ones.`}
        </p>
      ) : null}
    </div>
  )
}

function statusClass(status: number) {
  if (status >= 500) return 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200'
  if (status >= 400) return 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200'
  return 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200'
}

function LogTable({ entries }: { entries: RequestLogEntry[] }) {
  return (
    <Card>
      <div className="overflow-x-auto">
        <table aria-label="Requests" className="min-w-full text-sm">
          <thead className="border-b border-neutral-200 text-left text-xs text-neutral-500 dark:border-neutral-800 dark:text-neutral-400">
            <tr>
              <th scope="col" className="px-5 py-2 font-medium">Time (UTC)</th>
              <th scope="col" className="px-3 py-2 font-medium">Status</th>
              <th scope="col" className="px-3 py-2 font-medium">Method</th>
              <th scope="col" className="px-3 py-2 font-medium">Path</th>
              <th scope="col" className="px-3 py-2 text-right font-medium">Duration</th>
              <th scope="col" className="px-5 py-2 text-right font-medium">Size</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-neutral-100 font-mono text-xs dark:divide-neutral-800">
            {entries.map((entry) => (
              <tr key={entry.id}>
                <td className="whitespace-nowrap px-5 py-2">{logTime(entry.at)}</td>
                <td className="px-3 py-2">
                  <span className={cx('rounded px-1.5 py-0.5', statusClass(entry.status))}>{entry.status}</span>
                </td>
                <td className="px-3 py-2">{entry.method}</td>
                <td className="max-w-md break-all px-3 py-2">{entry.path}</td>
                <td className="whitespace-nowrap px-3 py-2 text-right">{entry.duration_ms.toFixed(1)} ms</td>
                <td className="whitespace-nowrap px-5 py-2 text-right">{formatBytes(entry.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  )
}
