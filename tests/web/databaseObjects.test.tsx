/**
 * The Database section's object pages and Policies through the real app on a fake platform: each route's list as a
 * person sees it (roles and names), and a change from a list's button asked as SQL first, run on confirm, the list
 * read again.
 */
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type {
  ExtensionItem, FunctionItem, IndexItem, PolicyTable, PublicationItem, RoleItem, TriggerItem, TypeItem,
} from '../../src/contracts/databaseObjects'
import { REF } from '../fixtures'
import { fakePlatform, renderApp } from '../fakePlatform'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const FUNCTIONS: FunctionItem[] = [
  { id: 1, schema: 'public', name: 'add "two"', arguments: '"order" integer', return_type: 'integer', language: 'sql', kind: 'function', security_definer: true, definition: 'select 1' },
]
const TRIGGERS: TriggerItem[] = [
  { id: 2, schema: 'public', table: 'notes', name: 'stamp', enabled: true, timing: 'BEFORE', events: ['INSERT', 'UPDATE'], orientation: 'ROW', function_schema: 'public', function_name: 'touch', definition: '' },
]
const TYPES: TypeItem[] = [{ id: 3, schema: 'public', name: 'mood ☺', values: ["it's ok", 'happy'], comment: null }]
const INDEXES: IndexItem[] = [
  { id: 4, schema: 'public', table: 'notes', name: 'notes_pkey', method: 'btree', unique: true, primary: true, definition: 'CREATE UNIQUE INDEX notes_pkey ON public.notes USING btree (id)' },
  { id: 5, schema: 'public', table: 'notes', name: 'by title', method: 'btree', unique: false, primary: false, definition: 'CREATE INDEX "by title" ON public.notes USING btree (title)' },
]
const EXTENSIONS: ExtensionItem[] = [
  { name: 'citext', default_version: '1.6', installed_version: null, schema: null, comment: 'case-insensitive strings', trusted: true, can_enable: true, can_disable: false },
  { name: 'plpgsql', default_version: '1.0', installed_version: '1.0', schema: 'pg_catalog', comment: 'PL/pgSQL', trusted: true, can_enable: false, can_disable: false },
  { name: 'adminpack', default_version: '2.1', installed_version: null, schema: null, comment: null, trusted: false, can_enable: false, can_disable: false },
]
const ROLES: RoleItem[] = [
  { id: 10, name: 'postgres', superuser: false, create_role: false, create_db: false, can_login: true, bypass_rls: false, connection_limit: -1, member_of: ['anon', 'authenticated'], is_current: true },
  { id: 11, name: 'service_role', superuser: false, create_role: false, create_db: false, can_login: false, bypass_rls: true, connection_limit: -1, member_of: [], is_current: false },
]
const PUBLICATIONS: PublicationItem[] = [
  { id: 12, name: 'supabase_realtime', owner: 'postgres', all_tables: false, insert: true, update: true, delete: true, truncate: false, tables: ['public.notes'] },
]
const POLICIES: PolicyTable[] = [
  { schema: 'public', name: 'notes', rls_enabled: true, rls_forced: false, policies: [{ name: 'read all', command: 'SELECT', permissive: true, roles: ['anon'], using: 'true', check: null }] },
]

function objectsPlatform() {
  const platform = fakePlatform()
  const base = platform.fetch
  const calls: Array<{ method: string; path: string; search: string; body?: unknown }> = []
  const extensions = structuredClone(EXTENSIONS)
  const lists: Record<string, unknown> = {
    functions: FUNCTIONS, triggers: TRIGGERS, types: TYPES, indexes: INDEXES, extensions, roles: ROLES, publications: PUBLICATIONS,
    policies: POLICIES, schemas: ['public', 'auth'],
  }
  vi.stubGlobal('fetch', async (input: Request) => {
    const url = new URL(input.url, 'http://localhost')
    const match = url.pathname.match(/^\/platform\/projects\/[a-z]{20}\/database\/objects\/([a-z]+)$/)
    if (!match) return base(input)
    const body = input.method === 'POST' ? await input.clone().json() : undefined
    calls.push({ method: input.method, path: url.pathname, search: url.search, body })
    if (match[1] === 'preview') return json({ sql: 'create extension "citext";' })
    if (match[1] === 'apply') {
      extensions[0] = { ...extensions[0], installed_version: '1.6', schema: 'public', can_enable: false, can_disable: true }
      return json({ sql: 'create extension "citext";', command: 'CREATE EXTENSION' })
    }
    return json(lists[match[1]])
  })
  return { ...platform, calls }
}

beforeEach(() => localStorage.clear())
afterEach(() => vi.unstubAllGlobals())

describe('the Database section object pages', () => {
  it.each([
    ['functions', 'Database Functions', 'Functions', ['add "two"', '"order" integer', 'Definer']],
    ['triggers', 'Database Triggers', 'Triggers', ['stamp', 'public.touch', 'BEFORE INSERT OR UPDATE']],
    ['types', 'Enumerated Types', 'Enumerated types', ['mood ☺', "it's ok, happy"]],
    ['indexes', 'Database Indexes', 'Indexes', ['by title', 'Primary key']],
    ['roles', 'Database Roles', 'Roles', ['postgres', 'Project role, Can log in', 'Bypasses RLS']],
    ['publications', 'Database Publications', 'Publications', ['supabase_realtime', 'public.notes']],
  ])('/database/%s lists the catalog', async (kind, heading, table, texts) => {
    const platform = objectsPlatform()
    renderApp(`/project/${REF}/database/${kind}`)
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument()
    const list = await screen.findByRole('table', { name: table })
    for (const text of texts) expect(within(list).getByText(text)).toBeInTheDocument()
    const perSchema = ['functions', 'triggers', 'types', 'indexes'].includes(kind)
    if (perSchema) expect(screen.getByRole('combobox', { name: 'Schema' })).toHaveValue('public')
    else expect(screen.queryByRole('combobox', { name: 'Schema' })).toBeNull()
    // StrictMode mounts the page twice (its first actor's request aborted): every read is this one.
    const reads = platform.calls.filter((c) => c.path.endsWith(`/objects/${kind}`))
    expect(reads.length).toBeGreaterThan(0)
    expect(new Set(reads.map((c) => JSON.stringify(c)))).toEqual(
      new Set([JSON.stringify({ method: 'GET', path: `/platform/projects/${REF}/database/objects/${kind}`, search: perSchema ? '?schema=public' : '' })]),
    )
  })

  it('the primary key index offers no delete; another does', async () => {
    objectsPlatform()
    renderApp(`/project/${REF}/database/indexes`)
    await screen.findByRole('table', { name: 'Indexes' })
    expect(screen.queryByRole('button', { name: 'Delete index notes_pkey' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Delete index by title' })).toBeEnabled()
  })

  it('enables an extension: its SQL shown first, run on confirm, the list read again', async () => {
    const platform = objectsPlatform()
    renderApp(`/project/${REF}/database/extensions`)
    const list = await screen.findByRole('table', { name: 'Extensions' })
    expect(within(list).queryByRole('button', { name: 'Enable extension adminpack' })).toBeNull()
    expect(within(list).getByText('Needs a superuser')).toBeInTheDocument()
    const user = userEvent.setup()
    await user.click(within(list).getByRole('button', { name: 'Enable extension citext' }))
    const review = await screen.findByRole('dialog', { name: 'Review the SQL' })
    expect(within(review).getByLabelText('SQL to run')).toHaveTextContent('create extension "citext";')
    expect(platform.calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: `/platform/projects/${REF}/database/objects/preview`, search: '', body: { action: 'extension.enable', name: 'citext' } },
    ])
    const readsBefore = platform.calls.filter((c) => c.path.endsWith('/extensions')).length
    await user.click(within(review).getByRole('button', { name: 'Run this SQL' }))
    expect(await screen.findByText('Done: CREATE EXTENSION')).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Disable extension citext' })).toBeInTheDocument()
    expect(platform.calls.filter((c) => c.path.endsWith('/apply'))).toHaveLength(1)
    await waitFor(() => expect(platform.calls.filter((c) => c.path.endsWith('/extensions')).length).toBe(readsBefore + 1))
  })

  it.each([
    [
      'functions',
      'New function',
      async (form: HTMLElement, user: ReturnType<typeof userEvent.setup>) => {
        await user.type(within(form).getByLabelText('Name'), 'add "two"')
        await user.type(within(form).getByLabelText('Arguments'), 'a integer,  "select" text[[]')
        await user.clear(within(form).getByLabelText('Return type'))
        await user.type(within(form).getByLabelText('Return type'), 'integer')
        await user.selectOptions(within(form).getByLabelText('Language'), 'sql')
        await user.clear(within(form).getByLabelText('Definition'))
        await user.type(within(form).getByLabelText('Definition'), 'select a + 2')
        await user.click(within(form).getByLabelText(/Security definer/))
      },
      {
        action: 'function.create', schema: 'public', name: 'add "two"', arguments: [{ name: 'a', type: 'integer' }, { name: '"select"', type: 'text[]' }],
        return_type: 'integer', language: 'sql', definition: 'select a + 2', security_definer: true,
      },
    ],
    [
      'triggers',
      'New trigger',
      async (form: HTMLElement, user: ReturnType<typeof userEvent.setup>) => {
        await user.type(within(form).getByLabelText('Name'), 'stamp ü')
        await user.type(within(form).getByLabelText('Table'), 'notes')
        await user.selectOptions(within(form).getByLabelText('Timing'), 'AFTER')
        await user.click(within(form).getByRole('checkbox', { name: 'UPDATE' }))
        await user.click(within(form).getByRole('checkbox', { name: 'INSERT' }))
        await user.click(within(form).getByRole('checkbox', { name: 'DELETE' }))
        await user.selectOptions(within(form).getByLabelText('Orientation'), 'STATEMENT')
        await user.type(within(form).getByLabelText('Function name'), 'touch')
      },
      {
        action: 'trigger.create', schema: 'public', table: 'notes', name: 'stamp ü', timing: 'AFTER', events: ['UPDATE', 'DELETE'],
        orientation: 'STATEMENT', function_schema: 'public', function_name: 'touch',
      },
    ],
    [
      'types',
      'New enumerated type',
      async (form: HTMLElement, user: ReturnType<typeof userEvent.setup>) => {
        await user.type(within(form).getByLabelText('Name'), 'mood ☺')
        await user.type(within(form).getByLabelText('Values'), "it's ok{enter}{enter}  happy ")
      },
      { action: 'type.create', schema: 'public', name: 'mood ☺', values: ["it's ok", 'happy'] },
    ],
  ] as const)('/database/%s makes a new one from its form, the SQL shown before it runs', async (kind, title, fill, change) => {
    const platform = objectsPlatform()
    renderApp(`/project/${REF}/database/${kind}`)
    await screen.findByRole('combobox', { name: 'Schema' })
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: title }))
    const dialog = await screen.findByRole('dialog', { name: title })
    const form = within(dialog).getByRole('form', { name: title })
    await fill(form, user)
    // Nothing is asked of the platform while the form is filled in.
    expect(platform.calls.filter((c) => c.method === 'POST')).toEqual([])
    await user.click(within(form).getByRole('button', { name: 'Review the SQL' }))
    expect(await screen.findByRole('dialog', { name: 'Review the SQL' })).toBeInTheDocument()
    expect(platform.calls.filter((c) => c.method === 'POST')).toEqual([
      { method: 'POST', path: `/platform/projects/${REF}/database/objects/preview`, search: '', body: change },
    ])
    await user.click(screen.getByRole('button', { name: 'Run this SQL' }))
    await waitFor(() => expect(platform.calls.filter((c) => c.path.endsWith('/apply')).map((c) => c.body)).toEqual([change]))
  }, 30_000)

  it('/auth/policies shows each table with its RLS state and policies', async () => {
    objectsPlatform()
    renderApp(`/project/${REF}/auth/policies`)
    const card = await screen.findByRole('region', { name: 'notes' })
    expect(within(card).getByText('RLS enabled')).toBeInTheDocument()
    expect(within(card).getByRole('button', { name: 'Disable RLS on notes' })).toBeEnabled()
    const policies = within(card).getByRole('table', { name: 'Policies of notes' })
    expect(within(policies).getByRole('rowheader', { name: 'read all' })).toBeInTheDocument()
    expect(within(policies).getByRole('button', { name: 'Edit policy read all' })).toBeEnabled()
  })
})
