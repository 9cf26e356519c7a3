/**
 * A function's page as its machine shows it: the heading with the tabs (Overview, Code, Logs), and each tab's panel.
 * The panels take the page's actor; the page (./FunctionPage) picks the one the address names.
 */
import { useSelector } from '@xstate/react'
import { useId, type ReactNode } from 'react'
import type { ActorRefFrom } from 'xstate'
import {
  selectFunctionCodeView,
  selectFunctionDetailView,
  selectFunctionLogsView,
  type functionDetailMachine,
  type LogEntry,
  type LogLevelFilter,
} from '../../../../machines/functionDetail.machine'
import { href } from '../../../href'
import { SettingSwitch } from '../../shell/SettingSwitch'
import { Button, Card, DataList, ErrorPanel, InlineError, Loading, PageHeading, cx, inputClass } from '../../shell/ui'
import { Link, Redirect } from 'wouter'

export type FunctionDetailActorRef = ActorRefFrom<typeof functionDetailMachine>
export type FunctionTab = 'overview' | 'code' | 'logs'

export const FUNCTION_TABS: Array<{ tab: FunctionTab; label: string; section: string }> = [
  { tab: 'overview', label: 'Overview', section: '' },
  { tab: 'code', label: 'Code', section: '/code' },
  { tab: 'logs', label: 'Logs', section: '/logs' },
]

const pad = (n: number) => String(n).padStart(2, '0')
/** HH:mm:ss UTC of a day, with the date: the logs' and the overview's times. */
export function formatTime(ms: number): string {
  const d = new Date(ms)
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`
}

/** The heading, the tabs and the panel of `tab` (or the loading line, or why it failed). */
/** `aside`: what the overview puts beside the function's facts (the Test panel); `stats`: its figures for a period. */
export function FunctionDetail({ actor, tab, aside, stats }: { actor: FunctionDetailActorRef; tab: FunctionTab; aside?: ReactNode; stats?: ReactNode }) {
  const view = useSelector(actor, selectFunctionDetailView)
  const { ref, slug } = useSelector(actor, (snapshot) => snapshot.context)
  if (view.phase === 'deleted') return <Redirect to={href.project(ref, 'functions')} />
  return (
    <div className="mx-auto w-full max-w-6xl px-6 py-8">
      <PageHeading title={view.phase === 'ready' ? view.fn.name : slug} description={<span className="font-mono">{slug}</span>} />
      <nav aria-label="Function" className="mb-6 flex gap-1 border-b border-neutral-200 dark:border-neutral-800">
        {FUNCTION_TABS.map((item) => (
          <Link
            key={item.tab}
            href={href.project(ref, `functions/${slug}${item.section}`)}
            aria-current={item.tab === tab ? 'page' : undefined}
            className={cx(
              '-mb-px border-b-2 px-3 py-2 text-sm font-medium',
              item.tab === tab ? 'border-emerald-700 text-neutral-900 dark:text-neutral-50' : 'border-transparent text-neutral-600 hover:text-neutral-900 dark:text-neutral-300',
            )}
          >
            {item.label}
          </Link>
        ))}
      </nav>
      {view.phase === 'loading' ? <Loading label="Loading function…" /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to load the function" message={view.error} onRetry={() => actor.send({ type: 'function.retry' })} /> : null}
      {view.phase === 'ready' ? (
        <>
          {tab === 'overview' ? <FunctionOverview actor={actor} aside={aside} stats={stats} /> : null}
          {tab === 'code' ? <FunctionCode actor={actor} /> : null}
          {tab === 'logs' ? <FunctionLogs actor={actor} /> : null}
        </>
      ) : null}
    </div>
  )
}

/** The function's facts, its verify_jwt switch, its invocations, and what the page puts beside them (the Test panel). */
export function FunctionOverview({ actor, aside, stats }: { actor: FunctionDetailActorRef; aside?: ReactNode; stats?: ReactNode }) {
  const view = useSelector(actor, selectFunctionDetailView)
  const logs = useSelector(actor, selectFunctionLogsView)
  if (view.phase !== 'ready') return null
  const { fn } = view
  const verifyJwt = fn.verify_jwt !== false
  const last = logs.invocations.last
  return (
    <div className="space-y-6">
      <Card>
        <h2 className="border-b border-neutral-200 px-5 py-3 font-semibold dark:border-neutral-800">Details</h2>
        <DataList
          rows={[
            ['Endpoint URL', <span key="url" className="font-mono">{view.url}</span>],
            ['Status', fn.status],
            ['Version', String(fn.version)],
            ['Entrypoint', <span key="entry" className="font-mono">{view.entrypoint}</span>],
            ['Updated at', formatTime(fn.updated_at)],
          ]}
        />
        <div className="border-t border-neutral-200 px-5 py-4 dark:border-neutral-800">
          <SettingSwitch
            label="Enforce JWT verification"
            description="Callers need a valid JWT of this project (the anon key will do) in their Authorization header."
            checked={verifyJwt}
            disabled={view.savingSettings || view.remove !== null}
            onToggle={() => actor.send({ type: 'verifyJwt.set', value: !verifyJwt })}
          />
          {view.savingSettings ? <p role="status" className="mt-2 text-sm text-neutral-600 dark:text-neutral-300">Saving…</p> : null}
          {view.settingsError ? <div className="mt-2"><InlineError>{view.settingsError}</InlineError></div> : null}
        </div>
      </Card>
      <Card>
        <h2 className="border-b border-neutral-200 px-5 py-3 font-semibold dark:border-neutral-800">Invocations</h2>
        <DataList
          rows={[
            ['Invocations', `${logs.invocations.count} (of the last ${logs.total} log entries)`],
            ['Failed', String(logs.invocations.failed)],
            ['Last invocation', last ? `${formatTime(last.timestamp)} · ${last.status ?? '—'} · ${last.duration_ms ?? '—'} ms` : 'None yet'],
          ]}
        />
        <div className="border-t border-neutral-200 px-5 py-4 dark:border-neutral-800">
          {stats}
        </div>
      </Card>
      {aside}
      <Card>
        <h2 className="border-b border-neutral-200 px-5 py-3 font-semibold dark:border-neutral-800">Delete function</h2>
        <div className="space-y-3 px-5 py-4">
          <p className="text-sm text-neutral-600 dark:text-neutral-300">Its URL stops answering at once; its code and logs are gone.</p>
          {view.remove ? (
            <div role="alertdialog" aria-labelledby="delete-function-title" className="space-y-3 rounded-lg border border-red-300 bg-red-50 p-4 dark:border-red-900 dark:bg-red-950/40">
              <h3 id="delete-function-title" className="font-semibold text-red-800 dark:text-red-300">{`Delete the function ${fn.slug}?`}</h3>
              {view.remove.error ? <InlineError>{view.remove.error}</InlineError> : null}
              <div className="flex gap-2">
                <Button onClick={() => actor.send({ type: 'delete.cancel' })} disabled={view.remove.deleting}>Cancel</Button>
                <Button variant="danger" onClick={() => actor.send({ type: 'delete.confirm' })} disabled={view.remove.deleting}>
                  {view.remove.deleting ? 'Deleting…' : 'Delete function'}
                </Button>
              </div>
            </div>
          ) : (
            <Button variant="danger" disabled={view.savingSettings} onClick={() => actor.send({ type: 'function.delete' })}>
              {`Delete ${fn.slug}`}
            </Button>
          )}
        </div>
      </Card>
    </div>
  )
}

/** The deployed files (one shown at a time); Edit turns them into a draft, Deploy sends it as a new version. */
export function FunctionCode({ actor }: { actor: FunctionDetailActorRef }) {
  const view = useSelector(actor, selectFunctionCodeView)
  const editorId = useId()
  if (view === null) return null
  const editing = view.mode !== 'viewing'
  return (
    <Card>
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-neutral-200 px-5 py-3 dark:border-neutral-800">
        <h2 className="font-semibold">{`Files of version ${view.version}`}</h2>
        <div className="flex gap-2">
          {view.mode === 'viewing' ? (
            <Button onClick={() => actor.send({ type: 'code.edit' })}>Edit</Button>
          ) : (
            <>
              <Button onClick={() => actor.send({ type: 'code.cancel' })} disabled={view.mode === 'deploying'}>
                Cancel
              </Button>
              <Button variant="primary" onClick={() => actor.send({ type: 'code.deploy' })} disabled={view.mode === 'deploying'}>
                {view.mode === 'deploying' ? 'Deploying…' : 'Deploy new version'}
              </Button>
            </>
          )}
        </div>
      </div>
      <div className="grid gap-0 md:grid-cols-[14rem_1fr]">
        <ul aria-label="Files" className="border-b border-neutral-200 p-2 text-sm md:border-r md:border-b-0 dark:border-neutral-800">
          {view.files.map((file) => (
            <li key={file.name}>
              <button
                type="button"
                aria-pressed={view.selected?.name === file.name}
                onClick={() => actor.send({ type: 'code.select', name: file.name })}
                className={cx('w-full truncate rounded px-2 py-1 text-left font-mono text-xs', view.selected?.name === file.name ? 'bg-neutral-100 font-semibold dark:bg-neutral-800' : 'hover:bg-neutral-50 dark:hover:bg-neutral-800')}
              >
                {file.name}
                {file.name === view.entrypoint ? ' (entrypoint)' : ''}
              </button>
            </li>
          ))}
        </ul>
        <div className="space-y-3 p-4">
          {view.error ? <InlineError>{view.error}</InlineError> : null}
          {view.selected ? (
            <>
              <label htmlFor={editorId} className="text-sm font-medium">
                {`Code of ${view.selected.name}`}
              </label>
              <textarea
                id={editorId}
                value={view.selected.content}
                readOnly={!editing}
                disabled={view.mode === 'deploying'}
                spellCheck={false}
                rows={Math.min(30, Math.max(10, view.selected.content.split('\n').length + 1))}
                onChange={(e) => actor.send({ type: 'code.change', name: view.selected!.name, content: e.target.value })}
                className={cx(inputClass, 'font-mono text-xs leading-5', !editing && 'bg-neutral-50 dark:bg-neutral-900')}
              />
            </>
          ) : (
            <p className="text-sm text-neutral-600 dark:text-neutral-300">This version has no files.</p>
          )}
        </div>
      </div>
    </Card>
  )
}

const LEVELS: Array<{ value: LogLevelFilter; label: string }> = [
  { value: 'all', label: 'All levels' },
  { value: 'log', label: 'Log' },
  { value: 'info', label: 'Info' },
  { value: 'error', label: 'Error' },
]

/** The function's log, newest first, refreshed on the machine's beat, filtered by level and text. */
export function FunctionLogs({ actor }: { actor: FunctionDetailActorRef }) {
  const view = useSelector(actor, selectFunctionLogsView)
  const levelId = useId()
  const textId = useId()
  return (
    <Card>
      <div className="flex flex-wrap items-end gap-3 border-b border-neutral-200 px-5 py-3 dark:border-neutral-800">
        <h2 className="mr-auto font-semibold">Logs</h2>
        <div className="space-y-1">
          <label htmlFor={levelId} className="block text-xs font-medium">Level</label>
          <select id={levelId} value={view.filter.level} onChange={(e) => actor.send({ type: 'logs.filter', level: e.target.value as LogLevelFilter })} className={inputClass}>
            {LEVELS.map((level) => (
              <option key={level.value} value={level.value}>{level.label}</option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <label htmlFor={textId} className="block text-xs font-medium">Search messages</label>
          <input id={textId} type="search" value={view.filter.text} onChange={(e) => actor.send({ type: 'logs.filter', text: e.target.value })} className={inputClass} />
        </div>
        <Button disabled={view.paused} onClick={() => actor.send({ type: 'logs.refresh' })}>Refresh</Button>
        {view.paused ? (
          <Button onClick={() => actor.send({ type: 'logs.resume' })}>Resume</Button>
        ) : (
          <Button onClick={() => actor.send({ type: 'logs.pause' })}>Pause</Button>
        )}
      </div>
      <p role="status" className="px-5 pt-3 text-xs text-neutral-600 dark:text-neutral-300">
        {view.refreshing
          ? 'Refreshing…'
          : `${view.entries.length} of ${view.total} entries · ${view.paused ? 'paused: resume to refresh' : 'refreshed every 3 seconds'}`}
      </p>
      {view.error ? <div className="px-5 pt-3"><InlineError>{`The logs could not be refreshed: ${view.error}`}</InlineError></div> : null}
      {view.entries.length === 0 ? (
        <p className="px-5 py-6 text-sm text-neutral-600 dark:text-neutral-300">{view.total === 0 ? 'No log entries yet: invoke the function to see its calls here.' : 'No entries match the filter.'}</p>
      ) : (
        <div className="overflow-x-auto">
          <table aria-label="Log entries" className="min-w-full text-sm">
            <thead className="text-left text-xs text-neutral-600 dark:text-neutral-300">
              <tr>
                <th scope="col" className="px-5 py-2 font-medium">Time</th>
                <th scope="col" className="px-3 py-2 font-medium">Level</th>
                <th scope="col" className="px-3 py-2 font-medium">Status</th>
                <th scope="col" className="px-3 py-2 font-medium">Duration</th>
                <th scope="col" className="px-5 py-2 font-medium">Message</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
              {view.entries.map((entry) => (
                <LogRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  )
}

function LogRow({ entry }: { entry: LogEntry }) {
  return (
    <tr>
      <td className="px-5 py-2 font-mono text-xs whitespace-nowrap">{formatTime(entry.timestamp)}</td>
      <td className={cx('px-3 py-2 text-xs', entry.level === 'error' ? 'font-semibold text-red-700 dark:text-red-300' : '')}>{entry.level}</td>
      <td className="px-3 py-2 text-xs">{entry.status ?? ''}</td>
      <td className="px-3 py-2 text-xs whitespace-nowrap">{entry.duration_ms === undefined ? '' : `${entry.duration_ms} ms`}</td>
      <td className="px-5 py-2 font-mono text-xs break-all whitespace-pre-wrap">{entry.event_message}</td>
    </tr>
  )
}
