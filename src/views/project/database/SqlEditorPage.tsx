import { useActorRef, useSelector } from '@xstate/react'
import { Suspense, type KeyboardEvent } from 'react'
import { useLocation } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { selectOrgPermissions } from '../../../../machines/session.machine'
import { selectCanRun, selectSqlEditorView, type sqlEditorMachine, type SqlOutcome } from '../../../../machines/sqlEditor.machine'
import type { QueryResult } from '../../../contracts/database'
import { useShell } from '../../shell/contexts'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic, type AppLogic } from '../../shell/logic'
import { Button, Loading, PageHeading, TextLink } from '../../shell/ui'
import { href } from '../../../href'
import { useProjectActor } from '../../shell/projectActor'
import { ResultGrid } from './ResultGrid'

export type SqlEditorActorRef = ActorRefFrom<typeof sqlEditorMachine>

/** Rows drawn at most; the count says how many the query returned. */
const MAX_ROWS_SHOWN = 1_000

/** /project/{ref}/sql/new (/sql/1 in the non-production build): one editor per project. */
export function SqlEditorPage() {
  const logic = useAppLogic()
  const { session } = useShell()
  const project = useSelector(useProjectActor(), selectProject)
  const permissions = useSelector(session, selectOrgPermissions(project?.organization_slug ?? null))
  const [path] = useLocation()
  return (
    <div className="mx-auto w-full max-w-6xl px-6 py-8">
      <PageHeading
        title="SQL Editor"
        description="Run SQL on the project's database."
        actions={<TextLink href={href.aiSettings(path)}>AI settings</TextLink>}
      />
      {project ? (
        <Suspense fallback={<Loading label="Loading query…" />}>
          <SqlEditorHost key={project.ref} machine={logic.sqlEditor} projectRef={project.ref} canWrite={permissions.includes('projects:write')} />
        </Suspense>
      ) : null}
    </div>
  )
}

function SqlEditorHost({ machine, projectRef, canWrite }: { machine: AppLogic['sqlEditor']; projectRef: string; canWrite: boolean }) {
  const actor = useActorRef(useLoaded(machine), { input: { ref: projectRef } })
  return <SqlEditor actor={actor} canWrite={canWrite} />
}

/** The editor, Run, and the outcome of the last run. `canWrite`: the role may change data (a notice says otherwise). */
export function SqlEditor({ actor, canWrite }: { actor: SqlEditorActorRef; canWrite: boolean }) {
  const view = useSelector(actor, selectSqlEditorView)
  const canRun = useSelector(actor, selectCanRun)
  if (view.phase === 'loading') return <Loading label="Loading query…" />

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault()
      actor.send({ type: 'query.run' })
    }
  }

  return (
    <div className="space-y-4">
      {canWrite ? null : (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200">
          Your role in this organization is read-only: your queries run in a read-only transaction.
        </p>
      )}
      <div className="space-y-1.5">
        <label htmlFor="sql-query" className="text-sm font-medium">
          SQL query
        </label>
        <textarea
          id="sql-query"
          value={view.query}
          onChange={(event) => actor.send({ type: 'query.change', query: event.target.value })}
          onKeyDown={onKeyDown}
          spellCheck={false}
          rows={12}
          placeholder="select * from your_table limit 10;"
          className="block w-full resize-y rounded-md border border-neutral-300 bg-white px-3 py-2 font-mono text-sm text-neutral-900 shadow-xs focus:border-emerald-500 focus:ring-2 focus:ring-emerald-500/30 focus:outline-none dark:border-neutral-700 dark:bg-neutral-950 dark:text-neutral-100"
        />
      </div>
      <div className="flex items-center gap-3">
        <Button variant="primary" disabled={!canRun} onClick={() => actor.send({ type: 'query.run' })} aria-keyshortcuts="Control+Enter Meta+Enter">
          {view.outcome.kind === 'running' ? 'Running…' : 'Run'}
        </Button>
        <span className="text-xs text-neutral-500 dark:text-neutral-400">Ctrl+Enter (⌘+Enter) runs the query</span>
      </div>
      <section aria-label="Results" className="space-y-3">
        <Outcome outcome={view.outcome} />
      </section>
    </div>
  )
}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`
const formatDuration = (ms: number) => `${ms < 10 ? ms.toFixed(1) : Math.round(ms).toLocaleString('en-US')} ms`

function Outcome({ outcome }: { outcome: SqlOutcome }) {
  if (outcome.kind === 'none') return <p className="text-sm text-neutral-500 dark:text-neutral-400">Run a query to see its results here.</p>
  if (outcome.kind === 'running') return <Loading label="Running query…" />
  if (outcome.kind === 'result') return <ResultView result={outcome.result} />
  const { failure, at } = outcome
  return (
    <div role="alert" className="space-y-2 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300">
      <p className="font-semibold">
        ERROR: {failure.code && failure.code !== 'client_timeout' ? `${failure.code}: ` : ''}
        {failure.message}
      </p>
      {at ? (
        <>
          <p>
            Line {at.line}, column {at.column}
          </p>
          <pre aria-label="Where the error is" className="overflow-x-auto rounded bg-white/70 p-2 font-mono text-xs text-neutral-900 dark:bg-neutral-950 dark:text-neutral-100">
            {at.text}
            {'\n'}
            {caretAt(at.text, at.column)}
          </pre>
        </>
      ) : null}
      {failure.detail ? <p>Detail: {failure.detail}</p> : null}
      {failure.hint ? <p>Hint: {failure.hint}</p> : null}
    </div>
  )
}

/** A caret under the column (tabs kept, so it lines up under tabbed text). */
function caretAt(line: string, column: number) {
  return `${Array.from(line)
    .slice(0, column - 1)
    .map((char) => (char === '\t' ? '\t' : ' '))
    .join('')}^`
}

function ResultView({ result }: { result: QueryResult }) {
  const shown = result.rows.slice(0, MAX_ROWS_SHOWN)
  return (
    <>
      <p role="status" className="flex flex-wrap items-center gap-3 text-sm text-neutral-600 dark:text-neutral-300">
        <span>
          {result.columns.length === 0 && result.command !== 'SELECT'
            ? `${result.command}: ${plural(result.rowCount, 'row')} affected`
            : plural(result.rowCount, 'row')}
        </span>
        <span>{formatDuration(result.durationMs)}</span>
        {result.readOnly ? (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">Ran read-only</span>
        ) : null}
      </p>
      {result.columns.length === 0 ? (
        <p className="text-sm text-neutral-500 dark:text-neutral-400">Success. No rows returned.</p>
      ) : (
        <>
          <ResultGrid label="Query results" columns={result.columns} rows={shown} />
          {result.rows.length > shown.length ? (
            <p className="text-xs text-neutral-500">
              Showing the first {shown.length.toLocaleString('en-US')} of {plural(result.rows.length, 'row')}.
            </p>
          ) : null}
        </>
      )}
    </>
  )
}
