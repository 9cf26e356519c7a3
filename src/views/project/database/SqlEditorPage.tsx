import { useActorRef, useSelector } from '@xstate/react'
import type { EditorView } from '@codemirror/view'
import { Suspense, useEffect, useRef } from 'react'
import { useLocation } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { selectOrgPermissions, selectProfile } from '../../../../machines/session.machine'
import { selectCanRun, selectSqlEditorView, type sqlEditorMachine, type SqlOutcome } from '../../../../machines/sqlEditor.machine'
import { ROW_LIMIT_CHOICES, SqlRunRole } from '../../../contracts/sqlEditor'
import { useShell } from '../../shell/contexts'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic, type AppLogic } from '../../shell/logic'
import { Modal } from '../../shell/Modal'
import { Button, Loading, PageHeading, TextLink, inputClass } from '../../shell/ui'
import { href } from '../../../href'
import { useProjectActor } from '../../shell/projectActor'
import { SqlCodeEditor, selectionOr, textToRun } from './SqlCodeEditor'
import { PlanTree, SqlResults } from './SqlResults'
import { SqlSnippetsPanel } from './SqlSnippetsPanel'

export type SqlEditorActorRef = ActorRefFrom<typeof sqlEditorMachine>

/** /project/{ref}/sql/new (/sql/1 in the non-production build): one editor per project. */
export function SqlEditorPage() {
  const logic = useAppLogic()
  const { session } = useShell()
  const project = useSelector(useProjectActor(), selectProject)
  const permissions = useSelector(session, selectOrgPermissions(project?.organization_slug ?? null))
  const accountId = useSelector(session, selectProfile)?.id ?? null
  const [path] = useLocation()
  return (
    <div className="mx-auto w-full max-w-7xl px-6 py-8">
      <PageHeading
        title="SQL Editor"
        description="Run SQL on the project's database."
        actions={<TextLink href={href.aiSettings(path)}>AI settings</TextLink>}
      />
      {project ? (
        <Suspense fallback={<Loading label="Loading query…" />}>
          <SqlEditorHost
            key={project.ref}
            machine={logic.sqlEditor}
            snippetsMachine={logic.sqlSnippets}
            projectRef={project.ref}
            accountId={accountId}
            canWrite={permissions.includes('projects:write')}
          />
        </Suspense>
      ) : null}
    </div>
  )
}

function SqlEditorHost({
  machine,
  snippetsMachine,
  projectRef,
  accountId,
  canWrite,
}: {
  machine: AppLogic['sqlEditor']
  snippetsMachine: AppLogic['sqlSnippets']
  projectRef: string
  accountId: number | null
  canWrite: boolean
}) {
  const actor = useActorRef(useLoaded(machine), { input: { ref: projectRef } })
  const snippets = useActorRef(useLoaded(snippetsMachine), { input: { ref: projectRef, accountId } })
  const query = useSelector(actor, (s) => s.context.query)
  // Each run adds to the history: the panel reads it again.
  useEffect(() => actor.on('ran', () => snippets.send({ type: 'history.refresh' })).unsubscribe, [actor, snippets])
  return (
    <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
      <aside aria-label="Saved queries and history">
        <SqlSnippetsPanel actor={snippets} query={query} onOpen={(sql) => actor.send({ type: 'query.change', query: sql })} />
      </aside>
      <SqlEditor actor={actor} canWrite={canWrite} />
    </div>
  )
}

const ROLE_LABELS: Record<SqlRunRole, string> = { postgres: 'postgres (owner)', anon: 'anon', authenticated: 'authenticated (a user)' }

/** The editor, its toolbar (run, explain, format, role, row limit) and the outcome of the last run. */
export function SqlEditor({ actor, canWrite }: { actor: SqlEditorActorRef; canWrite: boolean }) {
  const view = useSelector(actor, selectSqlEditorView)
  const canRun = useSelector(actor, selectCanRun)
  const editorRef = useRef<EditorView | null>(null)
  if (view.phase === 'loading') return <Loading label="Loading query…" />
  const running = view.outcome.kind === 'running'
  const users = view.catalog?.users ?? []

  return (
    <div className="min-w-0 space-y-4">
      {canWrite ? null : (
        <p className="rounded-md border border-amber-300 bg-amber-50 px-4 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-200">
          Your role in this organization is read-only: your queries run in a read-only transaction.
        </p>
      )}
      <div className="flex flex-wrap items-end gap-3">
        <label className="space-y-1 text-xs font-medium">
          <span className="block">Run as role</span>
          <select value={view.role} onChange={(e) => actor.send({ type: 'role.change', role: SqlRunRole.parse(e.target.value) })} className={`${inputClass} py-1`}>
            {SqlRunRole.options.map((role) => (
              <option key={role} value={role}>
                {ROLE_LABELS[role]}
              </option>
            ))}
          </select>
        </label>
        {view.role === 'authenticated' ? (
          <label className="space-y-1 text-xs font-medium">
            <span className="block">User to run as</span>
            <select value={view.userId ?? ''} onChange={(e) => actor.send({ type: 'user.change', userId: e.target.value === '' ? null : e.target.value })} className={`${inputClass} py-1`}>
              <option value="">{users.length === 0 ? 'No users in this project' : 'Choose a user'}</option>
              {users.map((user) => (
                <option key={user.id} value={user.id}>
                  {user.email ?? user.id}
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <label className="space-y-1 text-xs font-medium">
          <span className="block">Row limit</span>
          <select value={view.rowLimit} onChange={(e) => actor.send({ type: 'rowLimit.change', rowLimit: Number(e.target.value) })} className={`${inputClass} py-1`}>
            {ROW_LIMIT_CHOICES.map((n) => (
              <option key={n} value={n}>
                {n.toLocaleString('en-US')} rows
              </option>
            ))}
          </select>
        </label>
        <span className="text-xs text-neutral-600 dark:text-neutral-400" role="status" aria-live="polite">
          {view.catalogState === 'loading' ? 'Reading the schema for completion…' : view.catalogState === 'unavailable' ? 'Completion offers keywords only: the schema could not be read.' : ''}
        </span>
      </div>
      <SqlCodeEditor
        editorRef={editorRef}
        value={view.query}
        catalog={view.catalog}
        onChange={(query) => actor.send({ type: 'query.change', query })}
        onRun={(text) => actor.send({ type: 'query.run', text })}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="primary" disabled={!canRun} onClick={() => actor.send({ type: 'query.run', text: selectionOr(editorRef.current, view.query) })} aria-keyshortcuts="Control+Enter Meta+Enter">
          {running ? 'Running…' : 'Run'}
        </Button>
        <Button disabled={!canRun} onClick={() => actor.send({ type: 'query.explain', text: editorRef.current ? textToRun(editorRef.current) : view.query })}>
          Explain
        </Button>
        <Button disabled={view.query.trim() === '' || view.formatting} onClick={() => actor.send({ type: 'query.format' })}>
          {view.formatting ? 'Formatting…' : 'Format'}
        </Button>
        <span className="text-xs text-neutral-600 dark:text-neutral-400">Ctrl+Enter (⌘+Enter) runs the selection or the statement at the cursor</span>
      </div>
      {view.formatFailure ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-300">
          {view.formatFailure}
        </p>
      ) : null}
      <section aria-label="Results" className="space-y-3">
        <Outcome outcome={view.outcome} actor={actor} />
      </section>
      <Modal open={view.outcome.kind === 'confirming'} onClose={() => actor.send({ type: 'run.cancel' })} title="Run a destructive query?">
        <p className="text-sm">This query can remove data or objects, and nothing undoes it:</p>
        <pre className="mt-2 max-h-40 overflow-auto rounded bg-neutral-100 p-2 font-mono text-xs text-neutral-900 dark:bg-neutral-900 dark:text-neutral-100">{view.outcome.kind === 'confirming' ? view.outcome.statement : ''}</pre>
        <div className="mt-4 flex justify-end gap-2">
          <Button onClick={() => actor.send({ type: 'run.cancel' })}>Cancel</Button>
          <Button variant="danger" onClick={() => actor.send({ type: 'run.confirm' })}>
            Run this query
          </Button>
        </div>
      </Modal>
    </div>
  )
}

function Outcome({ outcome, actor }: { outcome: SqlOutcome; actor: SqlEditorActorRef }) {
  if (outcome.kind === 'none' || outcome.kind === 'confirming') return <p className="text-sm text-neutral-600 dark:text-neutral-300">Run a query to see its results here.</p>
  if (outcome.kind === 'running') return <Loading label={outcome.explain ? 'Explaining query…' : 'Running query…'} />
  if (outcome.kind === 'plan') return outcome.run.plan ? <PlanTree plan={outcome.run.plan} /> : null
  if (outcome.kind === 'result') {
    return (
      <SqlResults
        run={outcome.run}
        selected={outcome.selected}
        onSelect={(index) => actor.send({ type: 'result.select', index })}
        onCopy={(text) => actor.send({ type: 'result.copy', text })}
        onExport={(format) => actor.send({ type: 'result.export', format })}
      />
    )
  }
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
