/**
 * The API docs panel through the real app, on a fake platform: what each role sees, the rules the docs follow (json
 * columns, cut descriptions, VOLATILE functions' arguments, the bucket snippets), the keys, the language, copying,
 * and the calls it makes (one REST schema read per opening).
 */
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Permission } from '../../src/contracts/common'
import { REF } from '../fixtures'
import { BUCKETS, EDGE_FUNCTIONS, REST_SCHEMA } from '../fixtures.apiDocs'
import { ANON_KEY, SERVICE_KEY, makeApiInfo } from '../fixtures.keys'
import { ALL_PERMISSIONS, ORGS, fakePlatform, renderApp } from '../fakePlatform'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

type Role = 'Owner' | 'Developer' | 'Read-only'
const ROLE_PERMISSIONS: Record<Role, Permission[]> = {
  Owner: ALL_PERMISSIONS,
  Developer: ALL_PERMISSIONS.filter((p) => p !== 'service_api_keys:read' && p !== 'infra:execute:project-initialize-or-resume'),
  'Read-only': [],
}

/** The JWT secret update status the fake platform answers (null: never updated), and the keys it hands out. */
interface KeyServer {
  jwtStatus: 'updating' | 'updated' | 'failed' | null
  anon: string
}

/** The fake platform of ./platform.tsx, plus the panel's reads, answered as the server answers each role. */
function docsPlatform(role: Role = 'Owner', keyServer: KeyServer = { jwtStatus: null, anon: ANON_KEY }) {
  const permissions = ROLE_PERMISSIONS[role]
  const platform = fakePlatform({ permissions: ORGS.map((org) => ({ organization_id: org.id, organization_slug: org.slug, role, permissions })) })
  const base = platform.fetch
  const requests: Array<{ path: string; signal: AbortSignal }> = []
  vi.stubGlobal('fetch', async (input: Request) => {
    const path = new URL(input.url, 'http://localhost').pathname
    const answers: Record<string, () => Response> = {
      [`/platform/projects/${REF}/api/rest`]: () => json(REST_SCHEMA),
      [`/platform/props/project/${REF}/api`]: () => json(makeApiInfo({ secrets: permissions.includes('service_api_keys:read'), anon: keyServer.anon })),
      [`/platform/props/project/${REF}/jwt-secret-update-status`]: () =>
        json({
          jwtSecretUpdateStatus:
            keyServer.jwtStatus === null ? null : { meta: { change_tracking_id: 'c1', error: null, progress: '', status: keyServer.jwtStatus } },
        }),
      [`/platform/storage/${REF}/buckets`]: () => (permissions.includes('project_storage:all') ? json(BUCKETS) : json({ message: 'Forbidden' }, 403)),
      [`/v1/projects/${REF}/functions`]: () => json(EDGE_FUNCTIONS),
    }
    if (answers[path]) {
      requests.push({ path, signal: input.signal })
      return answers[path]()
    }
    return base(input)
  })
  return {
    ...platform,
    /**
     * The panel's reads, but those abandoned: under StrictMode (as in development) React stops a new actor and starts
     * it again at once, and the request of the first start is aborted and never answered.
     */
    /** Every request of the panel, abandoned or not. */
    get requested() {
      return requests.map((request) => request.path)
    },
    get reads() {
      return requests.filter((request) => !request.signal.aborted).map((request) => request.path)
    },
  }
}

const panel = () => screen.getByRole('dialog', { name: 'API Docs' })
const docsNav = () => within(panel()).getByRole('navigation', { name: 'API docs' })

async function openDocs(search: string, role: Role = 'Owner', keyServer?: KeyServer) {
  const platform = docsPlatform(role, keyServer)
  const utils = renderApp(`/project/${REF}/editor?${search}`)
  await screen.findByRole('dialog', { name: 'API Docs' })
  return { ...platform, ...utils }
}

const sectionNames = () => within(docsNav()).getAllByRole('button').map((button) => button.textContent)
/** The query string of the last URL a memory location went to. */
const searchOf = (location: { history?: string[] }) => location.history?.at(-1)?.split('?')[1] ?? ''

beforeEach(() => localStorage.clear())
afterEach(() => vi.unstubAllGlobals())

describe('API docs panel: sections by role', () => {
  it('an Owner and a Developer see every section, with the GraphQL and documentation links', async () => {
    for (const role of ['Owner', 'Developer'] as const) {
      const { unmount } = await openDocs('docs=introduction', role)
      expect(sectionNames()).toEqual(['Connect', 'User Management', 'Tables & Views', 'Stored Procedures', 'Storage', 'Edge Functions', 'Realtime'])
      expect(within(docsNav()).getByRole('link', { name: 'GraphiQL' })).toHaveAttribute('href', `/project/${REF}/api/graphiql`)
      for (const name of [/GraphQL guide/, /Documentation/, /REST guide/]) expect(within(docsNav()).getByRole('link', { name })).toHaveAttribute('target', '_blank')
      unmount()
    }
  })

  it('a Read-only member sees no User Management, Storage, Edge Functions or Realtime, and the panel never reads buckets or functions', async () => {
    const platform = await openDocs('docs=introduction', 'Read-only')
    await within(panel()).findByRole('heading', { name: 'Connect to your project' })
    expect(sectionNames()).toEqual(['Connect', 'Tables & Views', 'Stored Procedures'])
    await waitFor(() => expect(platform.reads).toContain(`/platform/props/project/${REF}/api`))
    expect(platform.requested.filter((path) => path.includes('/buckets') || path.includes('/functions'))).toEqual([])
  })

  it("a link to a section the person may not see opens Connect and corrects the URL", async () => {
    const { location } = await openDocs('docs=storage&docsItem=avatars', 'Read-only')
    expect(await within(panel()).findByRole('heading', { name: 'Connect to your project' })).toBeInTheDocument()
    await waitFor(() => expect(searchOf(location)).toBe('docs=introduction'))
  })
})

describe('API docs panel: tables, views and functions', () => {
  it('reads the REST schema once per opening however many tables are looked at', async () => {
    const platform = await openDocs('docs=tables-and-views')
    const user = userEvent.setup()
    await user.click(await within(panel()).findByRole('button', { name: /^recipes/ }))
    await user.selectOptions(within(panel()).getByRole('combobox', { name: 'Tables & Views' }), 'published_recipes')
    await within(panel()).findByRole('table', { name: 'Columns of published_recipes' })
    expect(platform.reads.filter((path) => path.endsWith('/api/rest'))).toHaveLength(1)
  })

  it('lists tables and views (views marked), with "No description available" where there is none', async () => {
    await openDocs('docs=tables-and-views')
    const list = await within(panel()).findByRole('list', { name: 'Tables and views' })
    const [recipes, view] = within(list).getAllByRole('button')
    expect(recipes).toHaveTextContent('recipes')
    expect(recipes).toHaveTextContent('Recipes people share')
    expect(view).toHaveTextContent('published_recipes')
    expect(view).toHaveTextContent('View')
    expect(view).toHaveTextContent('No description available')
  })

  it('a table page lists its columns: a JSONB column without a type shows as json, descriptions are cut before the key notes', async () => {
    await openDocs('docs=tables-and-views&docsItem=recipes')
    const columns = await within(panel()).findByRole('table', { name: 'Columns of recipes' })
    const row = (name: string) => within(columns).getByRole('rowheader', { name }).closest('tr')!
    expect(within(columns).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Name', 'Format', 'Type', 'Description'])
    expect(within(row('details')).getAllByRole('cell').map((td) => td.textContent)).toEqual(['jsonb', 'json', 'No description available'])
    expect(within(row('id')).getAllByRole('cell').map((td) => td.textContent)).toEqual(['bigint', 'integer', 'No description available'])
    expect(within(row('author_id')).getAllByRole('cell').map((td) => td.textContent)).toEqual(['bigint', 'integer', 'Who wrote it'])
    expect(within(row('title')).getAllByRole('cell').map((td) => td.textContent)).toEqual(['text', 'string', 'The name of the dish'])
    expect(panel()).not.toHaveTextContent('Foreign Key')
    // The entity page: back, the dropdown of the section's items, the anchor list of its snippets.
    expect(within(panel()).getByRole('button', { name: 'Back to Tables & Views' })).toBeInTheDocument()
    expect(within(within(panel()).getByRole('combobox', { name: 'Tables & Views' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['recipes', 'published_recipes'])
    const anchors = within(within(panel()).getAllByRole('navigation', { name: 'On this page' })[0]).getAllByRole('link')
    expect(anchors.length).toBeGreaterThan(3)
    for (const anchor of anchors) expect(panel().querySelector(anchor.getAttribute('href')!)).not.toBeNull()
  })

  it('a read-only view gets no insert, update, delete or subscribe snippets', async () => {
    await openDocs('docs=tables-and-views&docsItem=published_recipes')
    await within(panel()).findByRole('table', { name: 'Columns of published_recipes' })
    const titles = within(panel()).getAllByRole('heading', { level: 3 }).map((h) => h.textContent ?? '')
    expect(titles.length).toBeGreaterThan(0)
    expect(titles.filter((title) => /insert|update|delete|subscribe/i.test(title))).toEqual([])
  })

  it("stored procedures are sorted by name; a VOLATILE function shows the arguments of its POST body, with the summary", async () => {
    await openDocs('docs=stored-procedures')
    const list = await within(panel()).findByRole('list', { name: 'Stored procedures' })
    expect(within(list).getAllByRole('button').map((b) => b.textContent)).toEqual(['add_ratingRate a recipe', 'search_recipesRecipes whose title matches'])
    const user = userEvent.setup()
    await user.click(within(list).getAllByRole('button')[0])
    const parameters = await within(panel()).findByRole('table', { name: 'Parameters of add_rating' })
    expect(within(parameters).getAllByRole('row').slice(1).map((tr) => [...tr.children].map((cell) => cell.textContent))).toEqual([
      ['recipe', 'bigint', 'integer', 'Required'],
      ['stars', 'integer', 'integer', 'Required'],
      ['note', 'text', 'string', 'Optional'],
    ])
    expect(within(panel()).getAllByText('Rate a recipe').length).toBeGreaterThan(0)
  })
})

describe('API docs panel: storage and edge functions', () => {
  it("a public bucket shows 'retrieve public URL' and no 'create signed URL'; a private bucket the other way round", async () => {
    await openDocs('docs=storage&docsItem=avatars')
    const heading = (name: RegExp) => within(panel()).queryByRole('heading', { level: 3, name })
    await within(panel()).findByRole('heading', { level: 3, name: /Upload a file/ })
    expect(within(panel()).getByText('Public')).toBeInTheDocument()
    expect(heading(/public URL/i)).not.toBeNull()
    expect(heading(/signed URL/i)).toBeNull()
    const user = userEvent.setup()
    await user.selectOptions(within(panel()).getByRole('combobox', { name: 'Storage' }), 'documents')
    await waitFor(() => expect(heading(/signed URL/i)).not.toBeNull())
    expect(within(panel()).getByText('Private')).toBeInTheDocument()
    expect(heading(/public URL/i)).toBeNull()
    expect(within(within(panel()).getAllByRole('navigation', { name: 'On this page' })[0]).queryByRole('link', { name: /public URL/i })).toBeNull()
  })

  it('lists the edge functions and shows how to invoke one', async () => {
    await openDocs('docs=edge-functions')
    const user = userEvent.setup()
    await user.click(await within(panel()).findByRole('button', { name: /^hello-world/ }))
    const invoke = await within(panel()).findByRole('region', { name: 'Invoke the function' })
    expect(invoke).toHaveTextContent("supabase.functions.invoke('hello-world'")
  })
})

describe('API docs panel: keys, language, copying', () => {
  it('snippets carry placeholders until Show keys; then the anon and service keys for an Owner', async () => {
    await openDocs('docs=introduction')
    const connect = await within(panel()).findByRole('heading', { name: 'Connect to your project' })
    expect(connect).toBeInTheDocument()
    const anonRow = await within(panel()).findByRole('group', { name: 'anon (public)' })
    expect(anonRow).not.toHaveTextContent(ANON_KEY)
    expect(panel()).toHaveTextContent('SUPABASE_KEY')
    expect(panel()).not.toHaveTextContent(ANON_KEY)
    const user = userEvent.setup()
    await user.click(within(panel()).getByRole('button', { name: 'Show keys' }))
    expect(anonRow).toHaveTextContent(ANON_KEY)
    expect(within(panel()).getByRole('group', { name: 'service_role (secret)' })).toHaveTextContent(SERVICE_KEY)
    expect(within(panel()).getByRole('region', { name: 'Service keys' })).toHaveTextContent(SERVICE_KEY)
    expect(within(panel()).getByRole('region', { name: 'Initializing' })).toHaveTextContent(ANON_KEY)
    await user.click(within(panel()).getByRole('button', { name: 'Hide keys' }))
    expect(panel()).not.toHaveTextContent(ANON_KEY)
    expect(panel()).not.toHaveTextContent(SERVICE_KEY)
  })

  it('shows, copies and prints no key to a Developer (no service_api_keys:read), as settings/api: each key says why', async () => {
    const platform = docsPlatform('Developer')
    renderApp(`/project/${REF}/editor?docs=introduction`)
    await screen.findByRole('dialog', { name: 'API Docs' })
    const anonRow = await within(panel()).findByRole('group', { name: 'anon (public)' })
    for (const row of [anonRow, within(panel()).getByRole('group', { name: 'service_role (secret)' })]) {
      expect(row).toHaveTextContent('You need additional permissions to view API keys')
      expect(within(row).queryByRole('button')).toBeNull()
    }
    expect(within(panel()).getByRole('button', { name: 'Show keys' })).toBeDisabled()
    expect(within(panel()).getByRole('region', { name: 'Service keys' })).toHaveTextContent('SERVICE_KEY')
    expect(within(panel()).getByRole('region', { name: 'Initializing' })).toHaveTextContent('SUPABASE_KEY')
    expect(document.body).not.toHaveTextContent(ANON_KEY)
    expect(document.body).not.toHaveTextContent(SERVICE_KEY)
    // Its JWT secret status would change nothing for this member: it is never read.
    expect(platform.requested.filter((path) => path.endsWith('/jwt-secret-update-status'))).toEqual([])
  })

  it('while the JWT secret is being updated no key shows or copies; when it ends updated the panel reads the schema and the new keys', async () => {
    const keyServer: KeyServer = { jwtStatus: 'updating', anon: ANON_KEY }
    // (Its getters read the requests so far: kept as it is, not spread.)
    const platform = docsPlatform('Owner', keyServer)
    renderApp(`/project/${REF}/editor?docs=introduction`)
    await screen.findByRole('dialog', { name: 'API Docs' })
    const anonRow = await within(panel()).findByRole('group', { name: 'anon (public)' })
    await waitFor(() => expect(anonRow).toHaveTextContent('JWT secret is being updated'))
    expect(within(panel()).getByRole('group', { name: 'service_role (secret)' })).toHaveTextContent('JWT secret is being updated')
    expect(within(panel()).queryByRole('group', { name: 'anon (public)' })!.querySelector('button')).toBeNull()
    expect(within(within(panel()).getByRole('group', { name: 'service_role (secret)' })).queryByRole('button')).toBeNull()
    expect(within(panel()).getByRole('button', { name: 'Show keys' })).toBeDisabled()
    const reads = (suffix: string) => platform.reads.filter((path) => path.endsWith(suffix)).length
    const [schemaReads, settingsReads] = [reads('/api/rest'), reads(`/props/project/${REF}/api`)]

    // The rotation ends: new keys on the server.
    keyServer.anon = 'eyJ.the-new-anon-key'
    keyServer.jwtStatus = 'updated'
    await waitFor(() => expect([reads(`/props/project/${REF}/api`), reads('/api/rest')]).toEqual([settingsReads + 1, schemaReads + 1]), { timeout: 10_000 })
    const user = userEvent.setup()
    const show = within(panel()).getByRole('button', { name: 'Show keys' })
    await waitFor(() => expect(show).toBeEnabled())
    await user.click(show)
    expect(within(panel()).getByRole('group', { name: 'anon (public)' })).toHaveTextContent('eyJ.the-new-anon-key')
    expect(within(panel()).getByRole('region', { name: 'Initializing' })).toHaveTextContent('eyJ.the-new-anon-key')
  }, 20_000)

  it('after a failed JWT secret update no key shows or copies, and the panel says so', async () => {
    await openDocs('docs=introduction', 'Owner', { jwtStatus: 'failed', anon: ANON_KEY })
    const anonRow = await within(panel()).findByRole('group', { name: 'anon (public)' })
    await waitFor(() => expect(anonRow).toHaveTextContent('JWT secret update failed, new API key may have issues'))
    expect(within(anonRow).queryByRole('button')).toBeNull()
    expect(within(panel()).getByRole('button', { name: 'Show keys' })).toBeDisabled()
    expect(document.body).not.toHaveTextContent(ANON_KEY)
  })

  it('the language selector switches every snippet to Bash and keeps it in the URL; the entity page has it in its sticky header', async () => {
    const { location } = await openDocs('docs=tables-and-views&docsItem=recipes')
    const readAll = await within(panel()).findByRole('region', { name: 'Read all rows' })
    expect(readAll).toHaveTextContent(".from('recipes')")
    const user = userEvent.setup()
    await user.selectOptions(within(panel()).getByRole('combobox', { name: 'Language' }), 'bash')
    expect(within(panel()).getByRole('region', { name: 'Read all rows' })).toHaveTextContent(`curl 'http://localhost/rest/${REF}/rest/v1/recipes?select=*'`)
    await waitFor(() => expect(searchOf(location)).toBe('docs=tables-and-views&docsItem=recipes&docsLang=bash'))
    // Back to the list: the controls move to the panel's header.
    await user.click(within(panel()).getByRole('button', { name: 'Back to Tables & Views' }))
    await waitFor(() => expect(searchOf(location)).toBe('docs=tables-and-views&docsLang=bash'))
    expect(within(panel()).getByRole('combobox', { name: 'Language' })).toHaveValue('bash')
  })

  it("copy shows 'Copied' for 2 seconds and writes the snippet to the clipboard", async () => {
    vi.useFakeTimers({ now: 0, shouldAdvanceTime: false })
    try {
      const writeText = vi.fn(async () => {})
      Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
      docsPlatform()
      renderApp(`/project/${REF}/editor?docs=introduction`)
      for (let i = 0; i < 20 && !screen.queryByRole('region', { name: 'Initializing' }); i++) await act(() => vi.advanceTimersByTimeAsync(50))
      const region = screen.getByRole('region', { name: 'Initializing' })
      await act(async () => within(region).getByRole('button', { name: 'Copy' }).click())
      await act(() => vi.advanceTimersByTimeAsync(0))
      expect(writeText).toHaveBeenCalledWith(expect.stringContaining("import { createClient } from '@supabase/supabase-js'"))
      expect(within(region).getByRole('button', { name: 'Copied' })).toBeInTheDocument()
      // Only the snippet copied says so.
      expect(within(screen.getByRole('region', { name: 'Client API keys' })).getByRole('button', { name: 'Copy' })).toBeInTheDocument()
      await act(() => vi.advanceTimersByTimeAsync(1_999))
      expect(within(region).getByRole('button', { name: 'Copied' })).toBeInTheDocument()
      await act(() => vi.advanceTimersByTimeAsync(1))
      expect(within(region).getByRole('button', { name: 'Copy' })).toBeInTheDocument()
      // The anon key's own copy button.
      await act(async () => within(screen.getByRole('group', { name: 'anon (public)' })).getByRole('button', { name: 'Copy' }).click())
      await act(() => vi.advanceTimersByTimeAsync(0))
      expect(writeText).toHaveBeenLastCalledWith(ANON_KEY)
      expect(within(screen.getByRole('group', { name: 'anon (public)' })).getByRole('button', { name: 'Copied' })).toBeInTheDocument()
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('API docs panel: a custom domain', () => {
  it("an active custom domain's URL is the project URL of the panel, told to the panel already open (the same panel, no second read)", async () => {
    const platform = docsPlatform()
    const docsFetch = globalThis.fetch
    let answerDomain: (() => void) | undefined
    const domainAnswered = new Promise<void>((resolve) => (answerDomain = resolve))
    vi.stubGlobal('fetch', async (input: Request) => {
      if (new URL(input.url, 'http://localhost').pathname !== `/v1/projects/${REF}/custom-hostname`) return docsFetch(input)
      await domainAnswered
      return json({
        status: '5_services_reconfigured',
        custom_hostname: 'api.acme.test',
        data: {
          success: true,
          errors: [],
          messages: [],
          result: { id: 'x', hostname: 'api.acme.test', ssl: { status: 'active', validation_records: [] }, ownership_verification: { type: 'txt', name: 'n', value: 'v' }, custom_origin_server: 'o', status: 'active' },
        },
      })
    })
    renderApp(`/project/${REF}/editor?docs=introduction`)
    const projectUrl = await waitFor(() => within(panel()).getByRole('group', { name: 'Project URL' }))
    await waitFor(() => expect(projectUrl).toHaveTextContent(`http://localhost/rest/${REF}`))
    const nav = docsNav()
    answerDomain!()
    await waitFor(() => expect(within(panel()).getByRole('group', { name: 'Project URL' })).toHaveTextContent('https://api.acme.test'))
    expect(within(panel()).getByRole('region', { name: 'Initializing' })).toHaveTextContent('https://api.acme.test')
    // The same panel, told: not one mounted again around it.
    expect(nav.isConnected).toBe(true)
    expect(projectUrl.isConnected).toBe(true)
    expect(platform.reads.filter((path) => path.endsWith(`/props/project/${REF}/api`))).toHaveLength(1)
    expect(platform.reads.filter((path) => path.endsWith('/api/rest'))).toHaveLength(1)
  })
})

describe('API docs panel: opening and closing', () => {
  it('opens from the command menu, reads everything again at each opening, and Escape closes it and clears the URL', async () => {
    const platform = docsPlatform()
    const rendered = renderApp(`/project/${REF}/editor`)
    await screen.findByRole('heading', { level: 1, name: 'Table Editor' })
    const user = userEvent.setup()
    for (const round of [1, 2]) {
      await user.keyboard('{Control>}k{/Control}')
      const menu = await screen.findByRole('dialog', { name: 'Command menu' })
      await user.click(within(menu).getByRole('option', { name: 'API Docs panel' }))
      await within(await screen.findByRole('dialog', { name: 'API Docs' })).findByRole('heading', { name: 'Connect to your project' })
      await waitFor(() => expect(platform.reads.filter((path) => path.endsWith('/api/rest'))).toHaveLength(round))
      expect(platform.reads.filter((path) => path.endsWith(`/props/project/${REF}/api`))).toHaveLength(round)
      expect(searchOf(rendered.location)).toBe('docs=introduction')
      await user.keyboard('{Escape}')
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'API Docs' })).not.toBeInTheDocument())
      expect(searchOf(rendered.location)).toBe('')
    }
  })

  it('the browser going back closes the panel', async () => {
    docsPlatform()
    const { location } = renderApp(`/project/${REF}/editor`)
    await screen.findByRole('heading', { level: 1, name: 'Table Editor' })
    act(() => location.navigate(`/project/${REF}/editor?docs=realtime`))
    const dialog = await screen.findByRole('dialog', { name: 'API Docs' })
    expect(await within(dialog).findByRole('heading', { name: 'Realtime' })).toBeInTheDocument()
    expect(within(dialog).getAllByText(/cleaned up 30 seconds after the client disconnects/).length).toBeGreaterThan(0)
    act(() => location.navigate(`/project/${REF}/editor`))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'API Docs' })).not.toBeInTheDocument())
  })

  it('/project/{ref}/api shows the same content as a page', async () => {
    docsPlatform()
    const { location } = renderApp(`/project/${REF}/api`)
    expect(await screen.findByRole('heading', { level: 1, name: 'API Docs' })).toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'Connect to your project' })).toBeInTheDocument()
    expect(screen.queryByRole('dialog', { name: 'API Docs' })).toBeNull()
    const user = userEvent.setup()
    await user.click(within(screen.getByRole('navigation', { name: 'API docs' })).getByRole('button', { name: 'Stored Procedures' }))
    await waitFor(() => expect(searchOf(location)).toBe('docs=stored-procedures'))
    expect(await screen.findByRole('list', { name: 'Stored procedures' })).toBeInTheDocument()
  })
})
