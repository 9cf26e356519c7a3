import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { selectDatabaseTablesView, type databaseTablesMachine } from '../../../../machines/databaseTables.machine'
import type { DatabaseTable } from '../../../contracts/database'
import { useAppLogic } from '../../shell/logic'
import { Button, Card, ErrorPanel, Loading, PageHeading } from '../../shell/ui'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'

export type DatabaseTablesActorRef = ActorRefFrom<typeof databaseTablesMachine>

/** /project/{ref}/database/tables */
export function DatabaseTablesPage() {
  const logic = useAppLogic()
  return (
    <ProjectMachinePage
      machine={logic.databaseTables}
      heading={HEADING}
      loadingLabel="Loading tables…"
      input={(ref) => ({ ref })}
      render={(actor) => <DatabaseTables actor={actor} />}
    />
  )
}

const HEADING = { title: 'Database', description: 'The tables of schema public: columns, keys and estimated rows.' }

export function DatabaseTables({ actor }: { actor: DatabaseTablesActorRef }) {
  const view = useSelector(actor, selectDatabaseTablesView)
  const canRefresh = useSelector(actor, (snapshot) => snapshot.can({ type: 'tables.refresh' }))
  return (
    <div className={PAGE_CLASS}>
      <PageHeading
        {...HEADING}
        actions={
          view.phase === 'loaded' ? (
            <Button disabled={!canRefresh} onClick={() => actor.send({ type: 'tables.refresh' })}>
              {view.refreshing ? 'Refreshing…' : 'Refresh'}
            </Button>
          ) : null
        }
      />
      {view.phase === 'loading' ? <Loading label="Loading tables…" /> : null}
      {view.phase === 'failed' ? <ErrorPanel title="Failed to load tables" message={view.error} onRetry={() => actor.send({ type: 'tables.retry' })} /> : null}
      {view.phase === 'loaded' ? (
        <div className="space-y-6">
          {view.error ? (
            <p role="alert" className="text-sm text-red-600 dark:text-red-400">
              Failed to refresh: {view.error}
            </p>
          ) : null}
          {view.tables.length === 0 ? (
            <p className="rounded-lg border border-dashed border-neutral-300 p-8 text-center text-sm text-neutral-500 dark:border-neutral-700">
              No tables in schema public yet. Create one in the SQL Editor.
            </p>
          ) : (
            view.tables.map((table) => <TableCard key={table.name} table={table} />)
          )}
        </div>
      ) : null}
    </div>
  )
}

function TableCard({ table }: { table: DatabaseTable }) {
  const headingId = `table-${table.name}`
  const foreignKeyOf = (column: string) =>
    table.relationships
      .filter((relationship) => relationship.source_columns.includes(column))
      .map((relationship) => `${relationship.target_table}.${relationship.target_columns[relationship.source_columns.indexOf(column)] ?? relationship.target_columns.join(',')}`)
  return (
    <Card>
      <section aria-labelledby={headingId}>
        <header className="flex flex-wrap items-baseline gap-3 border-b border-neutral-200 px-5 py-3 dark:border-neutral-800">
          <h2 id={headingId} className="font-mono text-base font-semibold">
            {table.name}
          </h2>
          {table.kind === 'view' ? <Badge>view</Badge> : null}
          <span className="text-sm text-neutral-500 dark:text-neutral-400">
            ~{table.estimated_rows.toLocaleString('en-US')} {table.estimated_rows === 1 ? 'row' : 'rows'}
          </span>
          <Badge>{table.rls_enabled ? 'RLS enabled' : 'RLS disabled'}</Badge>
          {table.comment ? <span className="text-sm text-neutral-500">{table.comment}</span> : null}
        </header>
        <div className="overflow-x-auto">
          <table aria-label={`Columns of ${table.name}`} className="min-w-full text-sm">
            <thead className="text-left text-xs text-neutral-500 dark:text-neutral-400">
              <tr>
                <th scope="col" className="px-5 py-2 font-medium">Column</th>
                <th scope="col" className="px-3 py-2 font-medium">Type</th>
                <th scope="col" className="px-3 py-2 font-medium">Nullable</th>
                <th scope="col" className="px-3 py-2 font-medium">Default</th>
                <th scope="col" className="px-3 py-2 font-medium">Keys</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
              {table.columns.map((column) => {
                const keys = [
                  ...(column.is_primary_key ? ['Primary key'] : []),
                  ...foreignKeyOf(column.name).map((target) => `Foreign key → ${target}`),
                ]
                return (
                  <tr key={column.name}>
                    <th scope="row" className="px-5 py-2 text-left font-mono font-medium">
                      {column.name}
                    </th>
                    <td className="px-3 py-2 font-mono text-xs">
                      {column.data_type}
                      {column.enums.length > 0 ? <span className="block text-neutral-500">{column.enums.join(' | ')}</span> : null}
                    </td>
                    <td className="px-3 py-2">{column.is_nullable ? 'Yes' : 'No'}</td>
                    <td className="px-3 py-2 font-mono text-xs">{column.is_identity ? 'identity' : (column.default_value ?? '')}</td>
                    <td className="px-3 py-2 text-xs">{keys.join(', ')}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      </section>
    </Card>
  )
}

function Badge({ children }: { children: string }) {
  return <span className="rounded-full bg-neutral-100 px-2 py-0.5 text-xs text-neutral-600 dark:bg-neutral-800 dark:text-neutral-300">{children}</span>
}
