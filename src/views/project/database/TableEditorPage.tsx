import { useActorRef, useSelector } from '@xstate/react'
import { Suspense, useEffect, useState } from 'react'
import { Link, useSearch } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { selectTableEditorView, selectionOf, tableEditorHref, type TableSelection, type tableEditorMachine } from '../../../../machines/tableEditor.machine'
import { href as paths } from '../../../href'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic, type AppLogic } from '../../shell/logic'
import { Button, ErrorPanel, Loading, PageHeading, cx } from '../../shell/ui'
import { useProjectActor } from '../../shell/projectActor'
import { ResultGrid } from './ResultGrid'

export type TableEditorActorRef = ActorRefFrom<typeof tableEditorMachine>

/** /project/{ref}/editor?table=…&page=…: the selection lives in the URL. */
export function TableEditorPage() {
  const logic = useAppLogic()
  const project = useSelector(useProjectActor(), selectProject)
  return (
    <div className="mx-auto w-full max-w-7xl px-6 py-8">
      <PageHeading
        title="Table Editor"
        description="The tables of schema public and their rows."
        actions={project ? <Link href={paths.project(project.ref, 'editor/create')} className="text-sm text-emerald-800 underline dark:text-emerald-400">New table</Link> : null}
      />
      {project ? (
        <Suspense fallback={<Loading label="Loading tables…" />}>
          <TableEditorHost key={project.ref} machine={logic.tableEditor} projectRef={project.ref} />
        </Suspense>
      ) : null}
    </div>
  )
}

function TableEditorHost({ machine, projectRef }: { machine: AppLogic['tableEditor']; projectRef: string }) {
  // The selection at mount starts the actor; later URL changes reach it through TableEditor.
  const search = useSearch()
  const [input] = useState(() => ({ ref: projectRef, ...selectionOf(search) }))
  const actor = useActorRef(useLoaded(machine), { input })
  return <TableEditor actor={actor} projectRef={projectRef} />
}

/** The list of tables and the chosen table's rows; tells the actor when the URL's selection changes. */
export function TableEditor({ actor, projectRef }: { actor: TableEditorActorRef; projectRef: string }) {
  const search = useSearch()
  useEffect(() => {
    actor.send({ type: 'selection.changed', ...selectionOf(search) })
  }, [actor, search])
  const view = useSelector(actor, selectTableEditorView)
  const canRetryRows = useSelector(actor, (snapshot) => snapshot.can({ type: 'rows.retry' }))

  if (view.phase === 'loading') return <Loading label="Loading tables…" />
  if (view.phase === 'failed') {
    return <ErrorPanel title="Failed to load tables" message={view.error} onRetry={() => actor.send({ type: 'tables.retry' })} />
  }
  const href = (selection: TableSelection) => tableEditorHref(projectRef, selection)
  const { content } = view

  return (
    <div className="grid gap-6 md:grid-cols-[14rem_1fr]">
      <nav aria-label="Tables" className="space-y-1">
        <h2 className="px-2 text-xs font-semibold tracking-wide text-neutral-500 uppercase">schema public</h2>
        {view.tables.length === 0 ? (
          <p className="px-2 text-sm text-neutral-500">No tables yet. Create one in the SQL Editor.</p>
        ) : (
          <ul>
            {view.tables.map((table) => (
              <li key={table.name}>
                <Link
                  href={href({ table: table.name, page: 0 })}
                  aria-current={table.name === view.selected ? 'page' : undefined}
                  className={cx(
                    'block truncate rounded-md px-2 py-1.5 font-mono text-sm hover:bg-neutral-100 dark:hover:bg-neutral-800',
                    table.name === view.selected && 'bg-neutral-100 font-semibold dark:bg-neutral-800',
                  )}
                >
                  {table.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </nav>
      <section aria-label={content.kind === 'choose' || content.kind === 'missing' ? 'Rows' : `Rows of ${content.table.name}`} className="min-w-0 space-y-3">
        {content.kind === 'choose' ? <p className="text-sm text-neutral-500 dark:text-neutral-400">Choose a table to see its rows.</p> : null}
        {content.kind === 'missing' ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            Table <span className="font-mono">{content.table}</span> was not found in schema public.
          </p>
        ) : null}
        {content.kind === 'loading' || content.kind === 'failed' || content.kind === 'rows' ? (
          <div className="flex flex-wrap items-center gap-3">
            <h2 className="font-mono text-lg font-semibold">{content.table.name}</h2>
            <Link href={`${paths.project(projectRef, `editor/table/${encodeURIComponent(content.table.name)}`)}`} className="text-sm text-emerald-800 underline dark:text-emerald-400">
              Edit rows
            </Link>
          </div>
        ) : null}
        {content.kind === 'loading' ? <Loading label="Loading rows…" /> : null}
        {content.kind === 'failed' ? (
          <div role="alert" className="space-y-2 rounded-lg border border-red-300 bg-red-50 p-4 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300">
            <p className="font-semibold">Failed to load rows</p>
            <p>{content.error}</p>
            <Button disabled={!canRetryRows} onClick={() => actor.send({ type: 'rows.retry' })}>
              Try again
            </Button>
          </div>
        ) : null}
        {content.kind === 'rows' ? (
          <>
            <ResultGrid label={`Rows of ${content.table.name}`} columns={content.rows.columns} rows={content.rows.rows} />
            {content.rows.rows.length === 0 ? <p className="text-sm text-neutral-500">{content.rows.total === 0 ? 'This table has no rows.' : 'No rows on this page.'}</p> : null}
            <div className="flex flex-wrap items-center gap-3 text-sm">
              <span role="status">
                {content.first === 0 ? 'No rows' : `Rows ${content.first.toLocaleString('en-US')}–${content.last.toLocaleString('en-US')}`} of{' '}
                {content.rows.total.toLocaleString('en-US')}
              </span>
              <PageLink label="Previous page" to={content.previous ? href(content.previous) : null} />
              <PageLink label="Next page" to={content.next ? href(content.next) : null} />
            </div>
          </>
        ) : null}
      </section>
    </div>
  )
}

/** A page link, or the same name on a disabled button when there is no such page. */
function PageLink({ label, to }: { label: string; to: string | null }) {
  if (to === null) {
    return (
      <Button disabled aria-label={label}>
        {label}
      </Button>
    )
  }
  return (
    <Link
      href={to}
      className="inline-flex items-center rounded-md border border-neutral-300 bg-white px-3 py-1.5 text-sm font-medium shadow-xs hover:bg-neutral-50 dark:border-neutral-700 dark:bg-neutral-800 dark:hover:bg-neutral-700"
    >
      {label}
    </Link>
  )
}
