import { useSelector } from '@xstate/react'
import { useId, type ReactNode } from 'react'
import type { ActorRefFrom } from 'xstate'
import {
  BLANK_DRAFTS, isCreateDraft, selectDatabaseObjectsView, type CreateDraft, type databaseObjectsMachine, type FunctionDraft, type ObjectData,
  type ObjectDraft, type PolicyDraft, type TriggerDraft,
} from '../../../../machines/databaseObjects.machine'
import { BLANK_POLICY, POLICY_TEMPLATES } from '../../../../machines/policyTemplates'
import { POLICY_COMMANDS, type ObjectChangeInput, type ObjectKind, type PolicyTable } from '../../../contracts/databaseObjects'
import { Modal } from '../../shell/Modal'
import { useAppLogic } from '../../shell/logic'
import { Button, Card, ErrorPanel, InlineError, Loading, PageHeading, inputClass } from '../../shell/ui'
import { PAGE_CLASS, ProjectMachinePage } from '../ProjectMachinePage'

export type DatabaseObjectsActorRef = ActorRefFrom<typeof databaseObjectsMachine>

export const HEADINGS: Record<ObjectKind, { title: string; description: string; loading: string }> = {
  functions: { title: 'Database Functions', description: 'The functions of a schema, read from the catalog.', loading: 'Loading functions…' },
  triggers: { title: 'Database Triggers', description: 'The triggers on the tables of a schema.', loading: 'Loading triggers…' },
  types: { title: 'Enumerated Types', description: 'The enumerated types of a schema and their values.', loading: 'Loading types…' },
  indexes: { title: 'Database Indexes', description: 'The indexes on the tables of a schema.', loading: 'Loading indexes…' },
  extensions: { title: 'Database Extensions', description: 'The extensions this database has, and which the project may enable.', loading: 'Loading extensions…' },
  roles: { title: 'Database Roles', description: 'The roles of this database: the API roles and the project’s own.', loading: 'Loading roles…' },
  publications: { title: 'Database Publications', description: 'The publications of this database and their tables.', loading: 'Loading publications…' },
  policies: {
    title: 'Policies',
    description: 'Row level security: each table’s policies decide which rows each role may read and write.',
    loading: 'Loading policies…',
  },
}

function page(kind: ObjectKind) {
  return function DatabaseObjectsPage() {
    const logic = useAppLogic()
    const heading = HEADINGS[kind]
    return (
      <ProjectMachinePage
        machine={logic.databaseObjects}
        heading={heading}
        loadingLabel={heading.loading}
        input={(ref) => ({ ref, kind })}
        render={(actor) => <DatabaseObjects actor={actor} />}
      />
    )
  }
}

export const FunctionsPage = page('functions')
export const TriggersPage = page('triggers')
export const TypesPage = page('types')
export const IndexesPage = page('indexes')
export const ExtensionsPage = page('extensions')
export const RolesPage = page('roles')
export const PublicationsPage = page('publications')
export const PoliciesPage = page('policies')

type Send = DatabaseObjectsActorRef['send']

export function DatabaseObjects({ actor }: { actor: DatabaseObjectsActorRef }) {
  const view = useSelector(actor, selectDatabaseObjectsView)
  const kind = useSelector(actor, (snapshot) => snapshot.context.kind)
  const heading = HEADINGS[kind]
  const send = actor.send
  return (
    <div className={PAGE_CLASS}>
      <PageHeading
        title={heading.title}
        description={heading.description}
        actions={view.phase === 'loaded' ? (
          <div className="flex items-end gap-3">
            {view.schemas.length > 0 ? (
              <label className="text-sm">
                <span className="mb-1 block text-neutral-600 dark:text-neutral-300">Schema</span>
                <select
                  className={inputClass}
                  value={view.schema}
                  disabled={!view.idle}
                  onChange={(e) => send({ type: 'schema.select', schema: e.target.value })}
                >
                  {view.schemas.map((s) => <option key={s} value={s}>{s}</option>)}
                </select>
              </label>
            ) : null}
            <Button disabled={!view.idle} onClick={() => send({ type: 'objects.refresh' })}>Refresh</Button>
          </div>
        ) : null}
      />
      {view.phase === 'loading' ? <Loading label={heading.loading} /> : null}
      {view.phase === 'failed' ? <ErrorPanel title={`Failed to load ${heading.title.toLowerCase()}`} message={view.error} onRetry={() => send({ type: 'objects.retry' })} /> : null}
      {view.phase === 'loaded' ? (
        <div className="space-y-4">
          {view.notice ? <p role="status" className="text-sm text-emerald-800 dark:text-emerald-300">Done: {view.notice}</p> : null}
          {view.changeError && !view.draft && !view.confirm ? <InlineError>{view.changeError}</InlineError> : null}
          {CREATES[kind] ? (
            <Button disabled={!view.idle} onClick={() => send({ type: 'draft.open', draft: BLANK_DRAFTS[CREATES[kind]!] })}>
              {FORM_TITLES[CREATES[kind]!]}
            </Button>
          ) : null}
          <ObjectList data={view.data} schema={view.schema} idle={view.idle} send={send} />
          <Modal
            open={view.draft !== null || view.confirm !== null}
            onClose={() => send(view.confirm ? { type: 'change.cancel' } : { type: 'draft.close' })}
            title={view.confirm ? 'Review the SQL' : formTitle(view.draft)}
            size="lg"
          >
            {view.confirm ? (
              <ConfirmSql sql={view.confirm.sql} running={view.confirm.running} error={view.changeError} send={send} />
            ) : view.draft && isCreateDraft(view.draft) ? (
              <CreateForm draft={view.draft} schema={view.schema} busy={view.previewing} error={view.changeError} send={send} />
            ) : view.draft ? (
              <PolicyForm draft={view.draft} busy={view.previewing} error={view.changeError} send={send} />
            ) : null}
          </Modal>
        </div>
      ) : null}
    </div>
  )
}

/** The pages whose objects can be made from a form, and the form each opens. */
const CREATES: Partial<Record<ObjectKind, CreateDraft['form']>> = { functions: 'function', triggers: 'trigger', types: 'type' }
const FORM_TITLES: Record<CreateDraft['form'], string> = { function: 'New function', trigger: 'New trigger', type: 'New enumerated type' }

function formTitle(draft: ObjectDraft | null) {
  if (draft === null) return ''
  if (isCreateDraft(draft)) return FORM_TITLES[draft.form]
  return draft.editing ? 'Edit policy' : 'New policy'
}

const TRIGGER_EVENTS = ['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] as const

/** A new function, trigger or enumerated type in the page's schema: each field sent to the machine as typed. */
function CreateForm({ draft, schema, busy, error, send }: { draft: CreateDraft; schema: string; busy: boolean; error: string | null; send: Send }) {
  const text: TextField = (label, value, patch, options = {}) => (
    <TextInput label={label} value={value} onChange={(v) => send({ type: 'draft.edit', patch: patch(v) })} {...options} />
  )
  return (
    <form
      aria-label={FORM_TITLES[draft.form]}
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault()
        send({ type: 'draft.submit' })
      }}
    >
      <p className="text-sm">Schema <span className="font-mono font-medium">{schema}</span></p>
      {text('Name', draft.name, (name) => ({ name }), { mono: true })}
      {draft.form === 'function' ? <FunctionFields draft={draft} text={text} send={send} /> : null}
      {draft.form === 'trigger' ? <TriggerFields draft={draft} text={text} send={send} /> : null}
      {draft.form === 'type' ? text('Values', draft.values, (values) => ({ values }), { rows: 4, hint: 'One value a line, in their order.' }) : null}
      {error ? <InlineError>{error}</InlineError> : null}
      <div className="flex justify-end gap-2">
        <Button disabled={busy} onClick={() => send({ type: 'draft.close' })}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={busy}>{busy ? 'Preparing the SQL…' : 'Review the SQL'}</Button>
      </div>
    </form>
  )
}

/** A labelled text field, its hint tied to it as its description. */
function TextInput({ label, value, onChange, mono, rows, hint }: { label: string; value: string; onChange: (v: string) => void; mono?: boolean; rows?: number; hint?: string }) {
  const hintId = useId()
  const described = hint ? { 'aria-describedby': hintId } : {}
  return (
    <div>
      <label className="block text-sm">
        <span className="mb-1 block text-sm text-neutral-600 dark:text-neutral-300">{label}</span>
        {rows ? (
          <textarea className={`${inputClass} font-mono`} rows={rows} value={value} onChange={(e) => onChange(e.target.value)} {...described} />
        ) : (
          <input className={`${inputClass}${mono ? ' font-mono' : ''}`} value={value} onChange={(e) => onChange(e.target.value)} {...described} />
        )}
      </label>
      {hint ? <p id={hintId} className="mt-1 text-xs text-neutral-600 dark:text-neutral-400">{hint}</p> : null}
    </div>
  )
}

type Patch = Extract<Parameters<Send>[0], { type: 'draft.edit' }>['patch']
/** A labelled text field whose typing becomes the form's patch. */
type TextField = (label: string, value: string, patch: (v: string) => Patch, options?: { mono?: boolean; rows?: number; hint?: string }) => ReactNode

function FunctionFields({ draft, text, send }: { draft: FunctionDraft; text: TextField; send: Send }) {
  return (
    <>
      {text('Arguments', draft.arguments, (v) => ({ arguments: v }), { mono: true, hint: 'Name and type, separated by commas: a integer, b text' })}
      {text('Return type', draft.return_type, (return_type) => ({ return_type }), { mono: true })}
      <label className="block text-sm">
        <span className="mb-1 block text-sm text-neutral-600 dark:text-neutral-300">Language</span>
        <select className={inputClass} value={draft.language} onChange={(e) => send({ type: 'draft.edit', patch: { language: e.target.value as FunctionDraft['language'] } })}>
          <option value="plpgsql">plpgsql</option>
          <option value="sql">sql</option>
        </select>
      </label>
      {text('Definition', draft.definition, (definition) => ({ definition }), { rows: 6 })}
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={draft.security_definer} onChange={(e) => send({ type: 'draft.edit', patch: { security_definer: e.target.checked } })} />
        Security definer (runs with the rights of its owner)
      </label>
    </>
  )
}

/** A labelled choice among fixed values: the value sent is one of `options`' own. */
function ChoiceField<V extends string>({ label, value, options, onChange }: { label: string; value: V; options: ReadonlyArray<readonly [V, string]>; onChange: (value: V) => void }) {
  return (
    <label className="block text-sm">
      <span className="mb-1 block text-sm text-neutral-600 dark:text-neutral-300">{label}</span>
      <select className={inputClass} value={value} onChange={(e) => onChange(options.find(([v]) => v === e.target.value)?.[0] ?? value)}>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  )
}

function TriggerFields({ draft, text, send }: { draft: TriggerDraft; text: TextField; send: Send }) {
  return (
    <>
      {text('Table', draft.table, (table) => ({ table }), { mono: true })}
      <ChoiceField
        label="Timing"
        value={draft.timing}
        options={[['BEFORE', 'Before the event'], ['AFTER', 'After the event']]}
        onChange={(timing) => send({ type: 'draft.edit', patch: { timing } })}
      />
      <fieldset className="text-sm">
        <legend className="mb-1 text-neutral-600 dark:text-neutral-300">Events</legend>
        <div className="flex flex-wrap gap-3">
          {TRIGGER_EVENTS.map((event) => (
            <label key={event} className="flex items-center gap-1">
              <input
                type="checkbox"
                checked={draft.events.includes(event)}
                onChange={(e) =>
                  send({ type: 'draft.edit', patch: { events: e.target.checked ? TRIGGER_EVENTS.filter((x) => x === event || draft.events.includes(x)) : draft.events.filter((x) => x !== event) } })
                }
              />
              {event}
            </label>
          ))}
        </div>
      </fieldset>
      <ChoiceField
        label="Orientation"
        value={draft.orientation}
        options={[['ROW', 'For each row'], ['STATEMENT', 'For each statement']]}
        onChange={(orientation) => send({ type: 'draft.edit', patch: { orientation } })}
      />
      {text('Function schema', draft.function_schema, (function_schema) => ({ function_schema }), { mono: true })}
      {text('Function name', draft.function_name, (function_name) => ({ function_name }), { mono: true, hint: 'A function returning trigger.' })}
    </>
  )
}

function ConfirmSql({ sql, running, error, send }: { sql: string; running: boolean; error: string | null; send: Send }) {
  return (
    <div className="space-y-4">
      <p className="text-sm text-neutral-600 dark:text-neutral-300">This SQL will run on the project’s database:</p>
      <pre aria-label="SQL to run" className="overflow-x-auto rounded-md bg-neutral-100 p-3 font-mono text-xs text-neutral-900 dark:bg-neutral-950 dark:text-neutral-100">{sql}</pre>
      {error ? <InlineError>{error}</InlineError> : null}
      <div className="flex justify-end gap-2">
        <Button disabled={running} onClick={() => send({ type: 'change.cancel' })}>Cancel</Button>
        <Button variant="primary" disabled={running} onClick={() => send({ type: 'change.confirm' })}>
          {running ? 'Running…' : 'Run this SQL'}
        </Button>
      </div>
    </div>
  )
}

function PolicyForm({ draft, busy, error, send }: { draft: PolicyDraft; busy: boolean; error: string | null; send: Send }) {
  const edit = (patch: Partial<PolicyDraft>) => send({ type: 'draft.edit', patch })
  const field = 'mb-1 block text-sm text-neutral-600 dark:text-neutral-300'
  return (
    <form
      className="space-y-4"
      onSubmit={(e) => {
        e.preventDefault()
        send({ type: 'draft.submit' })
      }}
    >
      <p className="text-sm">Table <span className="font-mono font-medium">{draft.table}</span></p>
      {draft.editing === null ? (
        <label className="block">
          <span className={field}>Template</span>
          <select
            className={inputClass}
            defaultValue=""
            onChange={(e) => {
              const template = POLICY_TEMPLATES.find((t) => t.id === e.target.value)
              edit(template ? template.draft : BLANK_POLICY)
            }}
          >
            <option value="">None: write my own</option>
            {POLICY_TEMPLATES.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
          </select>
        </label>
      ) : null}
      <label className="block">
        <span className={field}>Policy name</span>
        <input className={inputClass} value={draft.name} onChange={(e) => edit({ name: e.target.value })} />
      </label>
      <label className="block">
        <span className={field}>Command</span>
        <select className={inputClass} value={draft.command} disabled={draft.editing !== null} onChange={(e) => edit({ command: e.target.value as PolicyDraft['command'] })}>
          {POLICY_COMMANDS.map((c) => <option key={c} value={c}>{c}</option>)}
        </select>
      </label>
      <label className="block">
        <span className={field}>Target roles (comma-separated; empty for every role)</span>
        <input className={inputClass} value={draft.roles} onChange={(e) => edit({ roles: e.target.value })} />
      </label>
      <label className="block">
        <span className={field}>USING expression</span>
        <textarea className={`${inputClass} font-mono`} rows={2} value={draft.using} onChange={(e) => edit({ using: e.target.value })} />
      </label>
      <label className="block">
        <span className={field}>WITH CHECK expression</span>
        <textarea className={`${inputClass} font-mono`} rows={2} value={draft.check} onChange={(e) => edit({ check: e.target.value })} />
      </label>
      {error ? <InlineError>{error}</InlineError> : null}
      <div className="flex justify-end gap-2">
        <Button disabled={busy} onClick={() => send({ type: 'draft.close' })}>Cancel</Button>
        <Button variant="primary" type="submit" disabled={busy}>{busy ? 'Preparing SQL…' : 'Review SQL'}</Button>
      </div>
    </form>
  )
}

function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed border-neutral-300 p-8 text-center text-sm text-neutral-600 dark:border-neutral-700 dark:text-neutral-400">
      {children}
    </p>
  )
}

function Table({ label, head, children }: { label: string; head: string[]; children: ReactNode }) {
  return (
    <Card>
      <div className="overflow-x-auto">
        <table aria-label={label} className="min-w-full text-sm">
          <thead className="text-left text-xs text-neutral-600 dark:text-neutral-400">
            <tr>{head.map((h) => <th key={h} scope="col" className="px-4 py-2 font-medium">{h}</th>)}</tr>
          </thead>
          <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">{children}</tbody>
        </table>
      </div>
    </Card>
  )
}

const cell = 'px-4 py-2 align-top'
const mono = `${cell} font-mono text-xs`

function Action({ label, change, idle, send, children }: { label: string; change: ObjectChangeInput; idle: boolean; send: Send; children: ReactNode }) {
  return (
    <Button aria-label={label} disabled={!idle} onClick={() => send({ type: 'change.request', change })}>
      {children}
    </Button>
  )
}

function ObjectList({ data, schema, idle, send }: { data: ObjectData; schema: string; idle: boolean; send: Send }) {
  switch (data.kind) {
    case 'functions':
      return data.items.length === 0 ? <Empty>No functions in schema {schema}.</Empty> : (
        <Table label="Functions" head={['Name', 'Arguments', 'Return type', 'Language', 'Security', '']}>
          {data.items.map((f) => (
            <tr key={f.id}>
              <th scope="row" className={`${mono} text-left font-medium`}>{f.name}</th>
              <td className={mono}>{f.arguments || '–'}</td>
              <td className={mono}>{f.return_type || f.kind}</td>
              <td className={cell}>{f.language}</td>
              <td className={cell}>{f.security_definer ? 'Definer' : 'Invoker'}</td>
              <td className={cell}><Action label={`Delete function ${f.name}`} change={{ action: 'function.drop', id: f.id }} idle={idle} send={send}>Delete</Action></td>
            </tr>
          ))}
        </Table>
      )
    case 'triggers':
      return data.items.length === 0 ? <Empty>No triggers in schema {schema}.</Empty> : (
        <Table label="Triggers" head={['Name', 'Table', 'Function', 'Events', 'Orientation', 'Enabled', '']}>
          {data.items.map((t) => (
            <tr key={t.id}>
              <th scope="row" className={`${mono} text-left font-medium`}>{t.name}</th>
              <td className={mono}>{t.table}</td>
              <td className={mono}>{t.function_schema}.{t.function_name}</td>
              <td className={cell}>{t.timing} {t.events.join(' OR ')}</td>
              <td className={cell}>{t.orientation}</td>
              <td className={cell}>{t.enabled ? 'Yes' : 'No'}</td>
              <td className={`${cell} space-x-2 whitespace-nowrap`}>
                <Action label={`${t.enabled ? 'Disable' : 'Enable'} trigger ${t.name}`} change={{ action: 'trigger.enable', schema: t.schema, table: t.table, name: t.name, enabled: !t.enabled }} idle={idle} send={send}>
                  {t.enabled ? 'Disable' : 'Enable'}
                </Action>
                <Action label={`Delete trigger ${t.name}`} change={{ action: 'trigger.drop', schema: t.schema, table: t.table, name: t.name }} idle={idle} send={send}>Delete</Action>
              </td>
            </tr>
          ))}
        </Table>
      )
    case 'types':
      return data.items.length === 0 ? <Empty>No enumerated types in schema {schema}.</Empty> : (
        <Table label="Enumerated types" head={['Name', 'Values', '']}>
          {data.items.map((t) => (
            <tr key={t.id}>
              <th scope="row" className={`${mono} text-left font-medium`}>{t.name}</th>
              <td className={mono}>{t.values.join(', ')}</td>
              <td className={cell}><Action label={`Delete type ${t.name}`} change={{ action: 'type.drop', schema: t.schema, name: t.name }} idle={idle} send={send}>Delete</Action></td>
            </tr>
          ))}
        </Table>
      )
    case 'indexes':
      return data.items.length === 0 ? <Empty>No indexes in schema {schema}.</Empty> : (
        <Table label="Indexes" head={['Table', 'Name', 'Definition', '']}>
          {data.items.map((i) => (
            <tr key={i.id}>
              <td className={mono}>{i.table}</td>
              <th scope="row" className={`${mono} text-left font-medium`}>{i.name}</th>
              <td className={mono}>{i.definition}</td>
              <td className={cell}>
                {i.primary ? <span className="text-xs text-neutral-600 dark:text-neutral-400">Primary key</span> : (
                  <Action label={`Delete index ${i.name}`} change={{ action: 'index.drop', schema: i.schema, name: i.name }} idle={idle} send={send}>Delete</Action>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )
    case 'extensions':
      return (
        <Table label="Extensions" head={['Name', 'Version', 'Schema', 'Description', '']}>
          {data.items.map((e) => (
            <tr key={e.name}>
              <th scope="row" className={`${mono} text-left font-medium`}>{e.name}</th>
              <td className={mono}>{e.installed_version ?? e.default_version ?? ''}</td>
              <td className={mono}>{e.schema ?? ''}</td>
              <td className={cell}>{e.comment ?? ''}</td>
              <td className={`${cell} whitespace-nowrap`}>
                {e.can_enable ? (
                  <Action label={`Enable extension ${e.name}`} change={{ action: 'extension.enable', name: e.name }} idle={idle} send={send}>Enable</Action>
                ) : e.can_disable ? (
                  <Action label={`Disable extension ${e.name}`} change={{ action: 'extension.disable', name: e.name }} idle={idle} send={send}>Disable</Action>
                ) : (
                  <span className="text-xs text-neutral-600 dark:text-neutral-400">{e.installed_version ? 'Enabled' : 'Needs a superuser'}</span>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )
    case 'roles':
      return (
        <Table label="Roles" head={['Name', 'Attributes', 'Member of']}>
          {data.items.map((r) => {
            const attributes = [
              r.is_current ? 'Project role' : null, r.superuser ? 'Superuser' : null, r.can_login ? 'Can log in' : null,
              r.bypass_rls ? 'Bypasses RLS' : null, r.create_role ? 'Creates roles' : null, r.create_db ? 'Creates databases' : null,
            ].filter(Boolean)
            return (
              <tr key={r.id}>
                <th scope="row" className={`${mono} text-left font-medium`}>{r.name}</th>
                <td className={cell}>{attributes.join(', ') || '–'}</td>
                <td className={mono}>{r.member_of.join(', ') || '–'}</td>
              </tr>
            )
          })}
        </Table>
      )
    case 'publications':
      return data.items.length === 0 ? <Empty>No publications.</Empty> : (
        <Table label="Publications" head={['Name', 'Tables', 'Insert', 'Update', 'Delete', 'Truncate', '']}>
          {data.items.map((p) => (
            <tr key={p.id}>
              <th scope="row" className={`${mono} text-left font-medium`}>{p.name}</th>
              <td className={mono}>{p.all_tables ? 'All tables' : p.tables.join(', ') || 'No tables'}</td>
              {[p.insert, p.update, p.delete, p.truncate].map((on, i) => <td key={i} className={cell}>{on ? 'Yes' : 'No'}</td>)}
              <td className={cell}><Action label={`Delete publication ${p.name}`} change={{ action: 'publication.drop', name: p.name }} idle={idle} send={send}>Delete</Action></td>
            </tr>
          ))}
        </Table>
      )
    case 'policies':
      return data.items.length === 0 ? <Empty>No tables in schema {schema}.</Empty> : (
        <div className="space-y-4">{data.items.map((t) => <PolicyCard key={t.name} table={t} idle={idle} send={send} />)}</div>
      )
  }
}

function PolicyCard({ table, idle, send }: { table: PolicyTable; idle: boolean; send: Send }) {
  // A table's name may hold spaces, which aria-labelledby would read as a list of ids.
  const headingId = useId()
  const open = (draft: Omit<PolicyDraft, 'table'>) => send({ type: 'draft.open', draft: { ...draft, table: table.name } })
  return (
    <Card>
      <section aria-labelledby={headingId}>
        <header className="flex flex-wrap items-center gap-3 border-b border-neutral-200 px-4 py-3 dark:border-neutral-800">
          <h2 id={headingId} className="font-mono text-base font-semibold">{table.name}</h2>
          <span className="text-sm text-neutral-600 dark:text-neutral-400">{table.rls_enabled ? 'RLS enabled' : 'RLS disabled'}</span>
          <span className="ml-auto flex gap-2">
            <Action
              label={`${table.rls_enabled ? 'Disable' : 'Enable'} RLS on ${table.name}`}
              change={{ action: 'table.rls', schema: table.schema, table: table.name, enabled: !table.rls_enabled }}
              idle={idle}
              send={send}
            >
              {table.rls_enabled ? 'Disable RLS' : 'Enable RLS'}
            </Action>
            <Button aria-label={`New policy on ${table.name}`} disabled={!idle} onClick={() => open({ ...BLANK_POLICY, editing: null })}>New policy</Button>
          </span>
        </header>
        {table.policies.length === 0 ? (
          <p className="px-4 py-3 text-sm text-neutral-600 dark:text-neutral-400">
            {table.rls_enabled ? 'No policies: no rows are visible to the API roles.' : 'No policies.'}
          </p>
        ) : (
          <table aria-label={`Policies of ${table.name}`} className="min-w-full text-sm">
            <thead className="text-left text-xs text-neutral-600 dark:text-neutral-400">
              <tr>{['Name', 'Command', 'Roles', 'USING', 'WITH CHECK', ''].map((h) => <th key={h} scope="col" className="px-4 py-2 font-medium">{h}</th>)}</tr>
            </thead>
            <tbody className="divide-y divide-neutral-100 dark:divide-neutral-800">
              {table.policies.map((p) => (
                <tr key={p.name}>
                  <th scope="row" className={`${cell} text-left font-medium`}>{p.name}</th>
                  <td className={cell}>{p.command}</td>
                  <td className={mono}>{p.roles.join(', ')}</td>
                  <td className={mono}>{p.using ?? ''}</td>
                  <td className={mono}>{p.check ?? ''}</td>
                  <td className={`${cell} space-x-2 whitespace-nowrap`}>
                    <Button
                      aria-label={`Edit policy ${p.name}`}
                      disabled={!idle}
                      onClick={() => open({
                        name: p.name, command: p.command, roles: p.roles.filter((r) => r !== 'public').join(', '),
                        using: p.using ?? '', check: p.check ?? '', editing: p.name,
                      })}
                    >
                      Edit
                    </Button>
                    <Action label={`Delete policy ${p.name}`} change={{ action: 'policy.drop', schema: table.schema, table: table.name, name: p.name }} idle={idle} send={send}>Delete</Action>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Card>
  )
}
