/**
 * /project/{ref}/editor/create: a new table from a form — name, description, row level security (on by default),
 * columns with type, default, nullability, unique, primary key and identity, foreign keys with their actions (the
 * referenced schema, table and column picked from what the database has). /project/{ref}/editor/table/{table}/edit:
 * the same form on the table as it is (add, rename or drop columns, change a type, default or nullability). The
 * SQL it will run is shown first; only 'Run' runs it, and then the table's grid opens.
 */
import { useSelector } from '@xstate/react'
import { Redirect, useRoute } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import { NEW_TABLE, referenceChoices, selectTableFormView, type tableFormMachine } from '../../../../machines/tableForm.machine'
import { FOREIGN_KEY_ACTIONS, type ColumnDefinition, type ForeignKeyDefinition, type TableDefinition } from '../../../contracts/tableEditor'
import { useAppLogic } from '../../shell/logic'
import { useDocumentTitle } from '../../shell/useDocumentTitle'
import { Button, ErrorPanel, InlineError, Loading, PageHeading, inputClass } from '../../shell/ui'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'
import { tableGridHref } from './TableGridPage'

type FormActorRef = ActorRefFrom<typeof tableFormMachine>

const TYPES = ['bigint', 'integer', 'smallint', 'numeric', 'real', 'double precision', 'text', 'character varying', 'boolean', 'date', 'time', 'timestamp with time zone', 'timestamp', 'uuid', 'json', 'jsonb', 'bytea', 'text[]']
const DESCRIPTION = 'Create a table: the SQL is shown before it runs.'

export function TableFormPage() {
  const logic = useAppLogic()
  return (
    <ProjectMachinePage
      machine={logic.tableForm}
      heading={{ title: 'Create a new table', description: DESCRIPTION }}
      loadingLabel="Loading the form…"
      input={(ref) => ({ ref, table: null, definition: NEW_TABLE })}
      render={(actor) => <TableForm actor={actor} />}
    />
  )
}

const ALTER_DESCRIPTION = 'Change the table: the SQL is shown before it runs.'

export function TableAlterPage() {
  const logic = useAppLogic()
  const [, params] = useRoute<{ ref: string; table: string }>('/project/:ref/editor/table/:table/edit')
  const table = params?.table ? decodeURIComponent(params.table) : ''
  useDocumentTitle(table === '' ? null : `${table} | Table Editor`)
  return (
    <ProjectMachinePage
      key={table}
      machine={logic.tableForm}
      heading={{ title: `Edit table ${table}`, description: ALTER_DESCRIPTION }}
      loadingLabel="Loading the form…"
      input={(ref) => ({ ref, table, definition: { ...NEW_TABLE, name: table, columns: [] } })}
      render={(actor) => <TableForm actor={actor} />}
    />
  )
}

export function TableForm({ actor }: { actor: FormActorRef }) {
  const view = useSelector(actor, selectTableFormView)
  const ref = useSelector(actor, (s) => s.context.ref)
  const title = view.table === null ? 'Create a new table' : `Edit table ${view.table}`
  const heading = <PageHeading title={title} description={view.table === null ? DESCRIPTION : ALTER_DESCRIPTION} />
  if (view.step === 'loading') {
    return (
      <div className={PAGE_CLASS}>
        {heading}
        <Loading label="Loading the form…" />
      </div>
    )
  }
  if (view.step === 'loadFailed') {
    return (
      <div className={PAGE_CLASS}>
        {heading}
        <ErrorPanel title="Failed to load the form" message={view.error ?? ''} onRetry={() => actor.send({ type: 'form.retry' })} />
      </div>
    )
  }
  const def = view.definition
  const change = (next: Partial<TableDefinition>) => actor.send({ type: 'definition.changed', definition: { ...def, ...next } })
  const columns = def.columns
  const setColumn = (i: number, next: Partial<ColumnDefinition>) => change({ columns: columns.map((c, j) => (j === i ? { ...c, ...next } : c)) })
  const fks = def.foreign_keys ?? []
  const setFk = (i: number, next: Partial<ForeignKeyDefinition>) => change({ foreign_keys: fks.map((f, j) => (j === i ? { ...f, ...next } : f)) })
  if (view.step === 'done') return <Redirect to={tableGridHref(ref, def.name)} />
  const editing = view.step === 'editing'
  return (
    <div className={PAGE_CLASS}>
      {heading}
      <form
        aria-label={view.table === null ? 'New table' : `Table ${view.table}`}
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault()
          actor.send({ type: 'preview.request' })
        }}
      >
        <fieldset disabled={!editing} className="space-y-3">
          <label className="block text-sm">
            Name
            <input className={inputClass} value={def.name} onChange={(e) => change({ name: e.target.value })} required />
          </label>
          <label className="block text-sm">
            Description
            <input className={inputClass} value={def.comment ?? ''} onChange={(e) => change({ comment: e.target.value })} />
          </label>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={def.rls_enabled !== false} onChange={(e) => change({ rls_enabled: e.target.checked })} />
            Enable Row Level Security (recommended)
          </label>
          <table className="w-full text-left text-sm" aria-label="Columns">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Default value</th>
                <th scope="col">Nullable</th>
                <th scope="col">Unique</th>
                <th scope="col">Primary key</th>
                <th scope="col">Identity</th>
                <th scope="col">
                  <span className="sr-only">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {columns.map((column, i) => (
                <tr key={i}>
                  <td>
                    <input aria-label={`Column ${i + 1} name`} className={inputClass} value={column.name} onChange={(e) => setColumn(i, { name: e.target.value })} />
                  </td>
                  <td>
                    <input aria-label={`Column ${i + 1} type`} className={inputClass} list="column-types" value={column.type} onChange={(e) => setColumn(i, { type: e.target.value })} />
                  </td>
                  <td>
                    <input aria-label={`Column ${i + 1} default value`} className={inputClass} value={column.default ?? ''} placeholder="NULL" onChange={(e) => setColumn(i, { default: e.target.value })} />
                  </td>
                  <td>
                    <input type="checkbox" aria-label={`Column ${i + 1} nullable`} checked={column.nullable !== false} onChange={(e) => setColumn(i, { nullable: e.target.checked })} />
                  </td>
                  <td>
                    <input type="checkbox" aria-label={`Column ${i + 1} unique`} checked={column.unique === true} onChange={(e) => setColumn(i, { unique: e.target.checked })} />
                  </td>
                  <td>
                    <input type="checkbox" aria-label={`Column ${i + 1} primary key`} checked={column.primary_key === true} onChange={(e) => setColumn(i, { primary_key: e.target.checked })} />
                  </td>
                  <td>
                    <input type="checkbox" aria-label={`Column ${i + 1} identity`} checked={column.identity === true} onChange={(e) => setColumn(i, { identity: e.target.checked })} />
                  </td>
                  <td>
                    <Button aria-label={`Remove column ${i + 1}`} onClick={() => change({ columns: columns.filter((_, j) => j !== i) })}>
                      Remove
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <datalist id="column-types">
            {TYPES.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
          <Button onClick={() => change({ columns: [...columns, { name: '', type: 'text', nullable: true }] })}>Add column</Button>
          <h2 className="text-sm font-semibold">Foreign keys</h2>
          {fks.map((fk, i) => (
            <div key={i} className="flex flex-wrap items-end gap-2 text-sm">
              <label>
                Column
                <select className={inputClass} value={fk.columns[0] ?? ''} onChange={(e) => setFk(i, { columns: [e.target.value] })}>
                  {columns.map((c) => (
                    <option key={c.name}>{c.name}</option>
                  ))}
                </select>
              </label>
              <ReferencePicker
                index={i}
                references={view.references}
                fk={fk}
                onChange={(next) => setFk(i, next)}
              />
              <label>
                On delete
                <select className={inputClass} value={fk.on_delete ?? 'no action'} onChange={(e) => setFk(i, { on_delete: e.target.value as ForeignKeyDefinition['on_delete'] })}>
                  {FOREIGN_KEY_ACTIONS.map((a) => (
                    <option key={a}>{a}</option>
                  ))}
                </select>
              </label>
              <label>
                On update
                <select className={inputClass} value={fk.on_update ?? 'no action'} onChange={(e) => setFk(i, { on_update: e.target.value as ForeignKeyDefinition['on_update'] })}>
                  {FOREIGN_KEY_ACTIONS.map((a) => (
                    <option key={a}>{a}</option>
                  ))}
                </select>
              </label>
              <Button onClick={() => change({ foreign_keys: fks.filter((_, j) => j !== i) })}>Remove foreign key</Button>
            </div>
          ))}
          <Button onClick={() => change({ foreign_keys: [...fks, { columns: [columns[0]?.name ?? ''], referenced_schema: 'public', referenced_table: '', referenced_columns: [] }] })}>
            Add foreign key
          </Button>
        </fieldset>
        {view.error ? <InlineError>{view.error}</InlineError> : null}
        {editing || view.step === 'previewing' ? (
          <Button type="submit" variant="primary" disabled={!view.canPreview}>
            {view.step === 'previewing' ? 'Preparing the SQL…' : 'Review SQL'}
          </Button>
        ) : null}
      </form>
      {view.sql !== null && (view.step === 'reviewing' || view.step === 'running') ? (
        <section aria-label="SQL to run" className="mt-6 space-y-3">
          <h2 className="text-sm font-semibold">This SQL will run</h2>
          <pre className="overflow-x-auto rounded-md bg-neutral-100 p-3 font-mono text-xs dark:bg-neutral-900">{view.sql}</pre>
          <div className="flex gap-2">
            <Button onClick={() => actor.send({ type: 'review.back' })} disabled={view.step === 'running'}>
              Back to the form
            </Button>
            <Button variant="primary" onClick={() => actor.send({ type: 'review.confirm' })} disabled={view.step === 'running'}>
              {view.step === 'running' ? 'Running…' : 'Run'}
            </Button>
          </div>
        </section>
      ) : null}
    </div>
  )
}

/**
 * The referenced schema, table and column of a foreign key, each a choice among what the database has: a table of
 * the chosen schema, a primary-key or unique column of the chosen table (what Postgres accepts as a key's target).
 */
function ReferencePicker({
  index,
  references,
  fk,
  onChange,
}: {
  index: number
  references: Parameters<typeof referenceChoices>[0]
  fk: ForeignKeyDefinition
  onChange: (next: Partial<ForeignKeyDefinition>) => void
}) {
  const schema = fk.referenced_schema ?? 'public'
  const choices = referenceChoices(references, schema, fk.referenced_table)
  const name = (part: string) => `Foreign key ${index + 1} referenced ${part}`
  return (
    <>
      <ReferenceField
        label="References schema"
        name={name('schema')}
        value={schema}
        options={choices.schemas.includes(schema) ? choices.schemas : [schema, ...choices.schemas]}
        onChange={(value) => onChange({ referenced_schema: value, referenced_table: '', referenced_columns: [] })}
      />
      <ReferenceField
        label="References table"
        name={name('table')}
        value={fk.referenced_table}
        placeholder="Choose a table"
        options={choices.tables}
        onChange={(value) => onChange({ referenced_table: value, referenced_columns: [] })}
      />
      <ReferenceField
        label="References column"
        name={name('column')}
        value={fk.referenced_columns[0] ?? ''}
        placeholder="Choose a column"
        options={choices.columns}
        disabled={fk.referenced_table === ''}
        onChange={(value) => onChange({ referenced_columns: [value] })}
      />
    </>
  )
}

/**
 * One step of the picker: a labelled choice among `options`, with an empty first choice (`placeholder`) where nothing
 * need be chosen yet. What a change resets of the later steps is the caller's `onChange`.
 */
function ReferenceField({
  label,
  name,
  value,
  options,
  placeholder,
  disabled = false,
  onChange,
}: {
  label: string
  /** The accessible name, which tells the foreign key apart from the others in the form. */
  name: string
  value: string
  options: string[]
  placeholder?: string
  disabled?: boolean
  onChange: (value: string) => void
}) {
  return (
    <label>
      {label}
      <select aria-label={name} className={inputClass} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value)}>
        {placeholder === undefined ? null : <option value="">{placeholder}</option>}
        {options.map((option) => (
          <option key={option}>{option}</option>
        ))}
      </select>
    </label>
  )
}
