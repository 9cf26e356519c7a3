/**
 * The database tools and 'Create a project' through the real app, on a fake platform: what a person sees (roles and
 * names) and the calls the pages make.
 */
import { EditorView } from '@codemirror/view'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { CREATED_PROJECT, ORDERS, TABLES, ordersPage } from '../fixtures.database'
import { REF, makeProject } from '../fixtures'
import { ALL_PERMISSIONS, ORGS, OWNER, fakePlatform, renderApp, type PlatformOptions } from '../fakePlatform'
import type { SqlRunResult } from '../../src/contracts/sqlEditor'
import { CATALOG, RUN_RESULT, snippet } from '../fixtures.sqlEditor'
import type { Snippet } from '../../src/contracts/snippets'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

interface DatabaseAnswers {
  query?: (body: { query: string }) => Response
  snippets?: Snippet[]
  create?: (body: Record<string, unknown>) => Response
}

/** The fake platform of tests/web/platform.tsx, plus the project database's endpoints and POST /v1/projects. */
function databasePlatform(options: PlatformOptions & DatabaseAnswers = {}) {
  const platform = fakePlatform(options)
  const base = platform.fetch
  const calls: Array<{ method: string; path: string; search: string; body?: unknown }> = []
  vi.stubGlobal('fetch', async (input: Request) => {
    const url = new URL(input.url, 'http://localhost')
    const path = url.pathname
    const db = path.match(/^\/platform\/projects\/([a-z]{20})\/database\/(query|tables)(?:\/([^/]+)\/rows)?$/)
    const editor = path.match(/^\/platform\/projects\/([a-z]{20})\/(sql\/run|sql\/history|sql\/completions|sql\/users|snippets)$/)
    const body = input.method === 'POST' ? await input.clone().json() : undefined
    if (db || path === '/v1/projects' || editor?.[2] === 'sql/run') calls.push({ method: input.method, path, search: url.search, body })
    if (editor?.[2] === 'sql/run') return (options.query ?? (() => json(SELECT_RUN)))(body as { query: string })
    if (editor?.[2] === 'sql/history') return json({ runs: [] })
    if (editor?.[2] === 'sql/completions') return json(CATALOG.completions)
    if (editor?.[2] === 'sql/users') return json({ users: CATALOG.users })
    if (editor?.[2] === 'snippets') return json({ data: options.snippets ?? [] })
    if (db?.[2] === 'tables' && db[3] === undefined) return json(TABLES)
    if (db?.[2] === 'tables') {
      const offset = Number(url.searchParams.get('offset'))
      return decodeURIComponent(db[3]) === 'orders' ? json(ordersPage(offset, Number(url.searchParams.get('limit')))) : json({ message: 'Table not found' }, 404)
    }
    if (path === '/v1/projects' && input.method === 'POST') {
      const answer = (options.create ?? (() => json(CREATED_PROJECT, 201)))(body as Record<string, unknown>)
      if (answer.status === 201) platform.state.projects.push(makeProject({ id: 9, ref: CREATED_PROJECT.ref, name: 'Recipes', status: 'COMING_UP' }))
      return answer
    }
    return base(input)
  })
  return { ...platform, calls }
}

beforeEach(() => localStorage.clear())
afterEach(() => vi.unstubAllGlobals())

/** One SELECT's answer (no schema change). */
const SELECT_RUN: SqlRunResult = { ...RUN_RESULT, results: [RUN_RESULT.results[0]] }

describe('SQL Editor', () => {
  /** The CodeMirror editor of the page, once it is there. */
  async function editorView() {
    const content = await screen.findByRole('textbox', { name: 'SQL query' })
    return EditorView.findFromDOM(content)!
  }
  const type = (view: EditorView, text: string) => act(async () => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }))

  it('runs the query with Run and shows the rows as a grid with row count and time', async () => {
    const platform = databasePlatform()
    renderApp(`/project/${REF}/sql/1`)
    expect(await screen.findByRole('heading', { level: 1, name: 'SQL Editor' })).toBeInTheDocument()
    expect(document.title).toBe('SQL Editor | Analytics | Demo Pro | Supabase')
    const view = await editorView()
    expect(screen.getByRole('button', { name: 'Run' })).toBeDisabled()
    await type(view, 'select 1 as n')
    const user = userEvent.setup()
    await user.click(screen.getByRole('button', { name: 'Run' }))
    const grid = await screen.findByRole('table', { name: 'Query results' })
    expect(within(grid).getByRole('columnheader', { name: 'id bigint' })).toBeInTheDocument()
    expect(within(grid).getAllByRole('row')).toHaveLength(3)
    expect(within(grid).getByRole('button', { name: 'ada@example.com' })).toBeInTheDocument()
    expect(within(grid).getByRole('button', { name: 'NULL' })).toBeInTheDocument()
    const results = screen.getByRole('region', { name: 'Results' })
    expect(within(results).getByRole('status')).toHaveTextContent('2 rows')
    expect(within(results).getByRole('status')).toHaveTextContent('3.5 ms')
    expect(within(results).queryByText('Ran read-only')).toBeNull()
    expect(platform.calls).toEqual([{ method: 'POST', path: `/platform/projects/${REF}/sql/run`, search: '', body: { query: 'select 1 as n', role: 'postgres', row_limit: 1000 } }])
  })

  it('keeps the query across a reload of the page (the browser remembers it per project)', async () => {
    databasePlatform()
    const first = renderApp(`/project/${REF}/sql/new`)
    await type(await editorView(), 'select now();')
    first.unmount()
    renderApp(`/project/${REF}/sql/new`)
    await waitFor(async () => expect((await editorView()).state.doc.toString()).toBe('select now();'))
  })

  it('shows the Postgres error with its line and column and keeps the query', async () => {
    databasePlatform({ query: () => json({ message: 'syntax error at or near "selec"', code: '42601', position: 11 }, 400) })
    renderApp(`/project/${REF}/sql/1`)
    const view = await editorView()
    await type(view, 'select 1;\nselec 2;')
    await userEvent.setup().click(screen.getByRole('button', { name: 'Run' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('ERROR: 42601: syntax error at or near "selec"')
    expect(alert).toHaveTextContent('Line 2, column 1')
    expect(within(alert).getByLabelText('Where the error is')).toHaveTextContent('selec 2;')
    expect(view.state.doc.toString()).toBe('select 1;\nselec 2;')
  })

  it("a Read-only member is told queries run read-only, and the answer says it ran read-only", async () => {
    databasePlatform({
      permissions: ORGS.map((org) => ({ organization_id: org.id, organization_slug: org.slug, role: 'Read-only' as const, permissions: [] })),
      query: () => json({ ...SELECT_RUN, readOnly: true } satisfies SqlRunResult),
    })
    renderApp(`/project/${REF}/sql/1`)
    expect(await screen.findByText(/your queries run in a read-only transaction/)).toBeInTheDocument()
    await type(await editorView(), 'select 1')
    await userEvent.setup().click(screen.getByRole('button', { name: 'Run' }))
    expect(await within(screen.getByRole('region', { name: 'Results' })).findByText('Ran read-only')).toBeInTheDocument()
  })

  it("offers Share, Rename and Delete on the person's own saved queries only, and names the author of another's", async () => {
    const mine = snippet({ name: 'Mine', owner: { id: OWNER.id, username: OWNER.username } })
    const theirs = snippet({ id: '66666666-6666-4666-8666-666666666666', name: 'Theirs', visibility: 'project', owner: { id: OWNER.id + 1, username: 'ada' } })
    databasePlatform({ snippets: [mine, theirs] })
    renderApp(`/project/${REF}/sql/1`)
    const list = within(await screen.findByRole('list', { name: 'Saved queries' }))
    expect(list.getByRole('button', { name: 'Share Mine with the project' })).toBeInTheDocument()
    expect(list.getByRole('button', { name: 'Rename Mine' })).toBeInTheDocument()
    expect(list.getByRole('button', { name: 'Delete Mine' })).toBeInTheDocument()
    expect(list.queryByRole('button', { name: /^(Share|Make|Rename|Delete) Theirs/ })).toBeNull()
    expect(list.getByRole('button', { name: 'Theirs by ada' })).toBeInTheDocument()
    // A favourite is each person's own, so another's query keeps its star.
    expect(list.getByRole('button', { name: 'Favourite Theirs' })).toBeEnabled()
  })

  it('an owner sees no read-only notice', async () => {
    databasePlatform({ permissions: ORGS.map((org) => ({ organization_id: org.id, organization_slug: org.slug, role: 'Owner' as const, permissions: ALL_PERMISSIONS })) })
    renderApp(`/project/${REF}/sql/1`)
    await editorView()
    expect(screen.queryByText(/read-only transaction/)).toBeNull()
  })
})

describe('Table Editor', () => {
  it('lists the tables of public; choosing one shows its rows with column types, 100 a page, the selection in the URL', async () => {
    const platform = databasePlatform()
    const { location } = renderApp(`/project/${REF}/editor`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Table Editor' })).toBeInTheDocument()
    const tables = await screen.findByRole('navigation', { name: 'Tables' })
    expect(within(tables).getAllByRole('link').map((link) => link.textContent)).toEqual(['customers', 'orders'])
    expect(screen.getByText('Choose a table to see its rows.')).toBeInTheDocument()

    const user = userEvent.setup()
    await user.click(within(tables).getByRole('link', { name: 'orders' }))
    expect(location.history?.at(-1)).toBe(`/project/${REF}/editor?table=orders`)
    const grid = await screen.findByRole('table', { name: 'Rows of orders' })
    expect(within(grid).getByRole('columnheader', { name: 'status public.order_status' })).toBeInTheDocument()
    expect(within(grid).getAllByRole('row')).toHaveLength(101)
    expect(within(tables).getByRole('link', { name: 'orders' })).toHaveAttribute('aria-current', 'page')
    const rows = screen.getByRole('region', { name: 'Rows of orders' })
    expect(within(rows).getByRole('status')).toHaveTextContent('Rows 1–100 of 250')
    expect(within(rows).getByRole('button', { name: 'Previous page' })).toBeDisabled()

    await user.click(within(rows).getByRole('link', { name: 'Next page' }))
    expect(location.history?.at(-1)).toBe(`/project/${REF}/editor?table=orders&page=2`)
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Rows of orders' })).getByRole('status')).toHaveTextContent('Rows 101–200 of 250'))
    await user.click(screen.getByRole('link', { name: 'Next page' }))
    await waitFor(() => expect(screen.getByRole('region', { name: 'Rows of orders' })).toHaveTextContent('Rows 201–250 of 250'))
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled()
    await user.click(screen.getByRole('link', { name: 'Previous page' }))
    expect(location.history?.at(-1)).toBe(`/project/${REF}/editor?table=orders&page=2`)
    await waitFor(() => expect(screen.getByRole('region', { name: 'Rows of orders' })).toHaveTextContent('Rows 101–200 of 250'))

    const rowCalls = platform.calls.filter((call) => call.path.endsWith('/rows'))
    expect(rowCalls.map((call) => call.search)).toEqual(['?offset=0&limit=100', '?offset=100&limit=100', '?offset=200&limit=100', '?offset=100&limit=100'])
  })

  it('opens on the table and page the URL names', async () => {
    databasePlatform()
    renderApp(`/project/${REF}/editor?table=orders&page=3`)
    expect(await screen.findByRole('table', { name: 'Rows of orders' })).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Rows of orders' })).toHaveTextContent('Rows 201–250 of 250')
  })

  it('a table that does not exist is said so, without asking for its rows', async () => {
    const platform = databasePlatform()
    renderApp(`/project/${REF}/editor?table=ghosts`)
    expect(await screen.findByRole('alert')).toHaveTextContent('Table ghosts was not found in schema public.')
    expect(platform.calls.filter((call) => call.path.endsWith('/rows'))).toEqual([])
  })
})

describe('Database › Tables', () => {
  it('shows each table with its columns, types, nullability, defaults, keys and estimated rows', async () => {
    databasePlatform()
    renderApp(`/project/${REF}/database/tables`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Database' })).toBeInTheDocument()
    const orders = await screen.findByRole('region', { name: 'orders' })
    expect(orders).toHaveTextContent('~250 rows')
    expect(orders).toHaveTextContent('RLS disabled')
    const columns = within(orders).getByRole('table', { name: 'Columns of orders' })
    const row = (name: string) => within(columns).getByRole('row', { name: new RegExp(`^${name} `) })
    expect(row('id')).toHaveTextContent('bigint')
    expect(row('id')).toHaveTextContent('identity')
    expect(row('id')).toHaveTextContent('Primary key')
    expect(row('customer_id')).toHaveTextContent('Yes')
    expect(row('customer_id')).toHaveTextContent('Foreign key → customers.id')
    expect(row('status')).toHaveTextContent("public.order_status")
    expect(row('status')).toHaveTextContent("'new'::order_status")
    expect(row('placed_at')).toHaveTextContent('now()')
    expect(row('placed_at')).toHaveTextContent('No')
    const customers = screen.getByRole('region', { name: 'customers' })
    expect(customers).toHaveTextContent('RLS enabled')
    expect(customers).toHaveTextContent('~2 rows')
    expect(customers).toHaveTextContent('People who order')
    expect(ORDERS.columns).toHaveLength(within(columns).getAllByRole('row').length - 1)
  })
})

describe('Create a project', () => {
  // The form's page is declared by the lazily loaded OtherRoutes module, so the setup's preload of lazy screens does
  // not reach it: load its code here, as the setup does for the others, so the first test waits for the form and not
  // for a cold module transform.
  beforeAll(() => import('../../src/views/projects/NewProjectPage'))

  it('creates the project with a name and a region, then opens it on its building screen', async () => {
    const platform = databasePlatform()
    const { location } = renderApp('/new/demo-pro')
    expect(await screen.findByRole('heading', { level: 1, name: 'Create a new project' })).toBeInTheDocument()
    expect(await screen.findByText('Demo Pro')).toBeInTheDocument()
    const user = userEvent.setup()
    const create = screen.getByRole('button', { name: 'Create new project' })
    expect(create).toBeDisabled()
    await user.type(screen.getByRole('textbox', { name: 'Project name' }), 'Recipes')
    await user.type(screen.getByLabelText('Database password'), 'Kitchen-Drawer-42')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Region' }), 'eu-west-1')
    await user.click(create)
    await waitFor(() => expect(location.history?.at(-1)).toBe(`/project/${CREATED_PROJECT.ref}`))
    expect(platform.calls).toEqual([
      { method: 'POST', path: '/v1/projects', search: '', body: { name: 'Recipes', organization_slug: 'demo-pro', region: 'eu-west-1', db_pass: 'Kitchen-Drawer-42' } },
    ])
    expect(await screen.findByRole('heading', { level: 1, name: 'Setting up project' })).toBeInTheDocument()
  })

  it('a Read-only member is told they cannot create projects; the name stays', async () => {
    databasePlatform({ create: () => json({ message: 'Forbidden' }, 403) })
    renderApp('/new/demo-pro')
    const user = userEvent.setup()
    await user.type(await screen.findByRole('textbox', { name: 'Project name' }), 'Recipes')
    await user.type(screen.getByLabelText('Database password'), 'Kitchen-Drawer-42')
    await user.click(screen.getByRole('button', { name: 'Create new project' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('You do not have permission to create projects in this organization')
    expect(screen.getByRole('textbox', { name: 'Project name' })).toHaveValue('Recipes')
    expect(screen.getByRole('button', { name: 'Create new project' })).toBeEnabled()
  })

  it("a refusal shows the server's message", async () => {
    databasePlatform({ create: () => json({ message: 'The free plan allows 2 active projects' }, 402) })
    renderApp('/new/demo-pro')
    const user = userEvent.setup()
    await user.type(await screen.findByRole('textbox', { name: 'Project name' }), 'Recipes')
    await user.type(screen.getByLabelText('Database password'), 'Kitchen-Drawer-42')
    await user.click(screen.getByRole('button', { name: 'Create new project' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to create project: The free plan allows 2 active projects')
  })

  it("the project list's 'New project' leads to the form of that organization", async () => {
    databasePlatform()
    const { location } = renderApp('/projects')
    const user = userEvent.setup()
    await user.click(within(await screen.findByRole('region', { name: 'Demo Free' })).getByRole('link', { name: 'New project' }))
    expect(location.history?.at(-1)).toBe('/new/demo-free')
    expect(await screen.findByRole('heading', { level: 1, name: 'Create a new project' })).toBeInTheDocument()
    expect(await screen.findByRole('textbox', { name: 'Project name' })).toBeInTheDocument()
  })
})

describe('project URL', () => {
  it('project home shows the project URL the server gives (its REST URL without /rest/v1/)', async () => {
    databasePlatform({ projects: [makeProject({ restUrl: `http://127.0.0.1:8787/p/${REF}/rest/v1/` })] })
    renderApp(`/project/${REF}`)
    expect(await screen.findByText(`http://127.0.0.1:8787/p/${REF}`)).toBeInTheDocument()
  })
})
