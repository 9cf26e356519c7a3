/**
 * A function's pages through the real app, on a fake platform: from the list to a function's page (its URL, version,
 * verify_jwt), its code edited and deployed as a multipart deploy, its logs filtered, the Test panel's request sent
 * through the project's gateway with the anon key, 'Deploy a new function' from a template, and Edge Function Secrets
 * (digests only; several added in one request; one deleted).
 */
import { language, syntaxTree } from '@codemirror/language'
import { EditorView } from '@codemirror/view'
import { act, fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { REF } from '../fixtures'
import { HELLO_DETAIL, LOGS, SECRETS, STATS, TEST_USER } from '../fixtures.functionRuntime'
import { FUNCTIONS, HELLO_WORLD } from '../fixtures.storage'
import { fakePlatform, renderApp } from '../fakePlatform'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

interface Seen {
  method: string
  path: string
  search: string
  headers: Headers
  body: string | FormData | null
}

const API_INFO = { autoApiService: { protocol: 'http', endpoint: `localhost/p/${REF}`, defaultApiKey: 'anon.jwt.key', serviceApiKey: null } }

/** The fake platform plus the function pages' endpoints; every request to them is kept in `seen`. */
function functionPlatform(opts: { owner?: boolean } = {}) {
  const base = fakePlatform().fetch
  const seen: Seen[] = []
  let secrets = [...SECRETS]
  vi.stubGlobal('fetch', async (input: Request | string, init?: RequestInit) => {
    const request = typeof input === 'string' ? new Request(new URL(input, 'http://localhost'), init) : input
    const url = new URL(request.url, 'http://localhost')
    const path = url.pathname
    const type = request.headers.get('content-type') ?? ''
    const body = request.method === 'GET' ? null : type.startsWith('multipart/') ? await request.formData() : await request.text()
    const fn = `/v1/projects/${REF}/functions`
    const answer = (): Response | null => {
      if (path === fn && request.method === 'GET') return json(FUNCTIONS)
      if (path === fn && request.method === 'POST') return json({ ...HELLO_WORLD, slug: 'greet', name: 'greet', version: 1 }, 201)
      if (path === `${fn}/hello-world` && request.method === 'GET') return json(HELLO_WORLD)
      if (path === `${fn}/greet` && request.method === 'GET') return json({ ...HELLO_WORLD, slug: 'greet', name: 'greet', version: 1 })
      if (path === `${fn}/hello-world` && request.method === 'PATCH') return json({ ...HELLO_WORLD, verify_jwt: false })
      if (path === `${fn}/hello-world` && request.method === 'DELETE') return new Response(null, { status: 200 })
      if (path === `${fn}/deploy`) return json({ ...HELLO_WORLD, version: 4 }, 201)
      if (/^\/platform\/projects\/[^/]+\/functions\/[^/]+\/files$/.test(path)) return json(HELLO_DETAIL.files)
      if (/^\/platform\/projects\/[^/]+\/functions\/[^/]+\/logs$/.test(path)) return json({ result: LOGS })
      if (path === `/v1/projects/${REF}/analytics/endpoints/functions.combined-stats`) {
        return json({ result: url.searchParams.get('interval') === '1day' ? [{ ...STATS[0], timestamp: '2026-11-26T08:00:00.000Z', requests_count: 4, success_count: 3 }] : STATS })
      }
      if (path === `/platform/props/project/${REF}/api`) {
        return json(opts.owner ? { autoApiService: { ...API_INFO.autoApiService, serviceApiKey: 'service.jwt.key' } } : API_INFO)
      }
      if (path === `/platform/auth/${REF}/users`) {
        return json({ users: [{ id: TEST_USER.id, email: TEST_USER.label, app_metadata: {}, user_metadata: {} }], total: 1 })
      }
      if (path === `/platform/projects/${REF}/functions/test-token`) {
        return json({ access_token: 'user.jwt.token', token_type: 'bearer', expires_in: 600, user: { id: TEST_USER.id, email: TEST_USER.label } })
      }
      if (path === `/v1/projects/${REF}/secrets` && request.method === 'GET') return json(secrets)
      if (path === `/v1/projects/${REF}/secrets` && request.method === 'POST') {
        const added = JSON.parse(String(body)) as Array<{ name: string }>
        secrets = [...secrets, ...added.map((s) => ({ name: s.name, value: 'c'.repeat(64), updated_at: '2026-11-26T08:00:00.000Z' }))]
        return new Response(null, { status: 201 })
      }
      if (path === `/v1/projects/${REF}/secrets` && request.method === 'DELETE') {
        const names = JSON.parse(String(body)) as string[]
        secrets = secrets.filter((s) => !names.includes(s.name))
        return new Response(null, { status: 200 })
      }
      if (path === `/p/${REF}/functions/v1/hello-world`) return json({ message: 'Hello Functions!' })
      return null
    }
    const own = answer()
    if (own === null) return base(request)
    seen.push({ method: request.method, path, search: url.search, headers: request.headers, body })
    return own
  })
  return { seen }
}

afterEach(() => vi.unstubAllGlobals())

describe("a function's page", () => {
  it('opens from the list and shows its URL, status, version and invocations; the switch turns verify_jwt off', async () => {
    const { seen } = functionPlatform()
    const user = userEvent.setup()
    renderApp(`/project/${REF}/functions`)
    await user.click(await screen.findByRole('link', { name: 'hello-world' }))
    expect(await screen.findByText(`http://localhost/p/${REF}/functions/v1/hello-world`)).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 1, name: 'hello-world' })).toBeInTheDocument()
    expect(await screen.findByText('2 (of the last 5 log entries)')).toBeInTheDocument()
    // The chart and figures: functions.combined-stats of the last hour, its minutes up to the newest with calls.
    const chart = await screen.findByRole('figure', { name: 'Invocations per minute' })
    expect(within(chart).getByRole('img')).toHaveAccessibleName('Invocations per minute from 07:03 to 08:02 UTC: 4 calls, 1 failed, at most 3 in a minute')
    const rows = within(within(chart).getByRole('table', { name: 'Invocations per minute (table)', hidden: true })).getAllByRole('row', { hidden: true })
    expect(rows.map((row) => row.textContent)).toEqual(['Minute (UTC)AnsweredFailed', '08:0021', '08:0210'])
    expect(screen.getByText('20 ms on average, 50 ms at most')).toBeInTheDocument()
    expect(screen.getByText('45.0 MB on average (heap 9.0 MB, external 3.0 MB)')).toBeInTheDocument()
    const stats = seen.filter((r) => r.path.endsWith('/functions.combined-stats'))
    expect(new Set(stats.map((r) => r.search))).toEqual(new Set([`?interval=1hr&function_id=${HELLO_WORLD.id}`]))
    await user.click(screen.getByRole('button', { name: 'Last 1 day' }))
    const hourly = await screen.findByRole('figure', { name: 'Invocations per hour' })
    expect(within(hourly).getByRole('img')).toHaveAccessibleName('Invocations per hour from 09:00 to 08:00 UTC: 4 calls, 1 failed, at most 4 in an hour')
    expect(seen.filter((r) => r.path.endsWith('/functions.combined-stats')).at(-1)!.search).toBe(`?interval=1day&function_id=${HELLO_WORLD.id}`)
    const toggle = screen.getByRole('switch', { name: 'Enforce JWT verification' })
    expect(toggle).toHaveAttribute('aria-checked', 'true')
    await user.click(toggle)
    expect(await screen.findByRole('switch', { name: 'Enforce JWT verification', checked: false })).toBeInTheDocument()
    const patch = seen.find((r) => r.method === 'PATCH')!
    expect(JSON.parse(String(patch.body))).toEqual({ verify_jwt: false })
  })

  it('deletes the function after a confirmation and goes back to the list', async () => {
    const { seen } = functionPlatform()
    const user = userEvent.setup()
    renderApp(`/project/${REF}/functions/hello-world`)
    await user.click(await screen.findByRole('button', { name: 'Delete hello-world' }))
    const dialog = screen.getByRole('alertdialog', { name: 'Delete the function hello-world?' })
    await user.click(within(dialog).getByRole('button', { name: 'Delete function' }))
    expect(await screen.findByRole('table', { name: 'Functions' })).toBeInTheDocument()
    expect(seen.some((r) => r.method === 'DELETE' && r.path === `/v1/projects/${REF}/functions/hello-world`)).toBe(true)
  })

  it('shows the deployed files; an edit is deployed as a new version with every file', async () => {
    const { seen } = functionPlatform()
    const user = userEvent.setup()
    renderApp(`/project/${REF}/functions/hello-world/code`)
    expect(await screen.findByRole('heading', { name: 'Files of version 3' })).toBeInTheDocument()
    const editor = screen.getByLabelText('Code of index.ts')
    expect(editor).toHaveValue(HELLO_DETAIL.files.files[0].content)
    await user.click(screen.getByRole('button', { name: 'word.ts' }))
    expect(screen.getByLabelText('Code of word.ts')).toHaveValue("export const word = 'hello'\n")
    await user.click(screen.getByRole('button', { name: 'Edit' }))
    await user.clear(screen.getByLabelText('Code of word.ts'))
    await user.type(screen.getByLabelText('Code of word.ts'), "export const word = 'bonjour'")
    await user.click(screen.getByRole('button', { name: 'Deploy new version' }))
    expect(await screen.findByRole('heading', { name: 'Files of version 4' })).toBeInTheDocument()
    const deploy = seen.find((r) => r.path.endsWith('/functions/deploy'))!
    expect(deploy.search).toBe('?slug=hello-world')
    const form = deploy.body as FormData
    expect(JSON.parse(String(form.get('metadata')))).toEqual({ entrypoint_path: 'index.ts' })
    const files = form.getAll('file') as File[]
    expect(files.map((f) => f.name)).toEqual(['index.ts', 'word.ts'])
    expect(await files[1].text()).toBe("export const word = 'bonjour'")
  })

  it('lists the log newest first, filtered by level and text', async () => {
    functionPlatform()
    const user = userEvent.setup()
    renderApp(`/project/${REF}/functions/hello-world/logs`)
    const table = await screen.findByRole('table', { name: 'Log entries' })
    const messages = () => within(screen.getByRole('table', { name: 'Log entries' })).getAllByRole('row').slice(1).map((row) => row.lastElementChild?.textContent)
    expect(messages()).toEqual(['POST /hello-world 500', 'TypeError: boom', 'POST /hello-world 200', 'greeting Ada', 'booted (version 3)'])
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('500')
    await user.selectOptions(screen.getByLabelText('Level'), 'error')
    expect(messages()).toEqual(['POST /hello-world 500', 'TypeError: boom'])
    await user.type(screen.getByLabelText('Search messages'), 'boom')
    expect(messages()).toEqual(['TypeError: boom'])
  })

  it('pauses the live tail: no request on the beat while paused, one at once on resume', async () => {
    // Fake timers from before the render: the machine's 3-second beat starts at mount.
    vi.useFakeTimers()
    try {
      const { seen } = functionPlatform()
      const logReads = () => seen.filter((r) => r.path.endsWith('/functions/hello-world/logs')).length
      const settle = () => act(() => vi.advanceTimersByTimeAsync(0))
      renderApp(`/project/${REF}/functions/hello-world/logs`)
      for (let i = 0; i < 20 && !screen.queryByRole('button', { name: 'Pause' }); i++) await settle()
      for (let i = 0; i < 20 && logReads() === 0; i++) await settle()
      await act(() => vi.advanceTimersByTimeAsync(3_000))
      expect(logReads()).toBe(2)
      fireEvent.click(screen.getByRole('button', { name: 'Pause' }))
      expect(screen.getByText(/ entries · paused: resume to refresh$/)).toBeInTheDocument()
      expect(screen.getByRole('button', { name: 'Refresh' })).toBeDisabled()
      await act(() => vi.advanceTimersByTimeAsync(10_000))
      expect(logReads()).toBe(2)
      fireEvent.click(screen.getByRole('button', { name: 'Resume' }))
      await settle()
      expect(logReads()).toBe(3)
      expect(screen.getByRole('button', { name: 'Pause' })).toBeEnabled()
    } finally {
      vi.useRealTimers()
    }
  })

  it("the Test panel sends the request through the project's gateway with the anon key and shows the answer", async () => {
    const { seen } = functionPlatform()
    const user = userEvent.setup()
    renderApp(`/project/${REF}/functions/hello-world`)
    const panel = within(await screen.findByRole('region', { name: 'Test' }))
    const send = await panel.findByRole('button', { name: 'Send request' })
    expect(panel.getByRole('option', { name: 'service_role (not allowed to you)' })).toBeDisabled()
    await user.click(send)
    const response = within(await panel.findByRole('region', { name: 'Response' }))
    expect(response.getByRole('status')).toHaveTextContent(/^200 · \d+ ms$/)
    expect(response.getByLabelText('Response body')).toHaveTextContent('{"message":"Hello Functions!"}')
    const call = seen.find((r) => r.path === `/p/${REF}/functions/v1/hello-world`)!
    expect(call.method).toBe('POST')
    expect(call.headers.get('apikey')).toBe('anon.jwt.key')
    expect(call.headers.get('authorization')).toBe('Bearer anon.jwt.key')
    expect(call.body).toBe('{"name":"Functions"}')
  })
})

describe('the Test panel as a user', () => {
  it("sends the anon key as apikey and the chosen user's access token as the bearer", async () => {
    const { seen } = functionPlatform({ owner: true })
    const user = userEvent.setup()
    renderApp(`/project/${REF}/functions/hello-world`)
    const panel = within(await screen.findByRole('region', { name: 'Test' }))
    await user.selectOptions(await panel.findByLabelText('Role'), 'user')
    expect(panel.getByRole('button', { name: 'Send request' })).toBeDisabled()
    await user.selectOptions(panel.getByLabelText('User'), TEST_USER.label)
    await user.click(panel.getByRole('button', { name: 'Send request' }))
    expect(within(await panel.findByRole('region', { name: 'Response' })).getByLabelText('Response body')).toHaveTextContent('{"message":"Hello Functions!"}')
    const token = seen.find((r) => r.path === `/platform/projects/${REF}/functions/test-token`)!
    expect(JSON.parse(String(token.body))).toEqual({ user_id: TEST_USER.id })
    const call = seen.find((r) => r.path === `/p/${REF}/functions/v1/hello-world`)!
    expect(call.headers.get('apikey')).toBe('anon.jwt.key')
    expect(call.headers.get('authorization')).toBe('Bearer user.jwt.token')
  })
})

describe('Deploy a new function', () => {
  it('creates the function from a template and opens its page', async () => {
    const { seen } = functionPlatform()
    const user = userEvent.setup()
    renderApp(`/project/${REF}/functions`)
    await user.click(await screen.findByRole('link', { name: 'Deploy a new function' }))
    await user.type(await screen.findByLabelText('Function name'), 'greet')
    await user.selectOptions(screen.getByLabelText('Template'), 'secret-reader')
    // The code editor (the SQL Editor's) reads the code as TypeScript: a type annotation is parsed as one.
    const editor = EditorView.findFromDOM(screen.getByRole('textbox', { name: 'Code of index.ts' }))!
    expect(editor.state.facet(language)?.name).toBe('typescript')
    expect(editor.state.doc.toString()).toContain("Deno.env.get('GREETING')")
    await act(async () => editor.dispatch({ changes: { from: 0, insert: 'const greeting: string = "hi"\n' } }))
    const annotations: string[] = []
    syntaxTree(editor.state).iterate({ enter: (node) => void (node.name === 'TypeAnnotation' && annotations.push(editor.state.sliceDoc(node.from, node.to))) })
    expect(annotations).toContain(': string')
    await user.click(screen.getByRole('button', { name: 'Deploy function' }))
    expect(await screen.findByText(`http://localhost/p/${REF}/functions/v1/greet`)).toBeInTheDocument()
    const create = seen.find((r) => r.path === `/v1/projects/${REF}/functions` && r.method === 'POST')!
    const sent = JSON.parse(String(create.body)) as { slug: string; body: string; verify_jwt: boolean }
    expect(sent.slug).toBe('greet')
    expect(sent.verify_jwt).toBe(true)
    expect(sent.body).toContain("Deno.env.get('GREETING')")
    expect(sent.body.startsWith('const greeting: string = "hi"\n')).toBe(true)
  })
})

describe('Edge Function Secrets', () => {
  it('lists names with digests, adds several in one request and deletes one after confirming', async () => {
    const { seen } = functionPlatform()
    const user = userEvent.setup()
    renderApp(`/project/${REF}/functions/secrets`)
    const table = await screen.findByRole('table', { name: 'Secrets' })
    expect(within(table).getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual(['GREETING', 'STRIPE_KEY'])
    expect(within(table).getByText('a'.repeat(64))).toBeInTheDocument()
    await user.type(screen.getByLabelText('Name of secret 1'), 'FIRST')
    await user.type(screen.getByLabelText('Value of secret 1'), 'one')
    await user.click(screen.getByRole('button', { name: 'Add another' }))
    await user.type(screen.getByLabelText('Name of secret 2'), 'SECOND')
    await user.type(screen.getByLabelText('Value of secret 2'), 'two')
    await user.click(screen.getByRole('button', { name: 'Save secrets' }))
    expect(await screen.findByRole('rowheader', { name: 'SECOND' })).toBeInTheDocument()
    expect(JSON.parse(String(seen.find((r) => r.method === 'POST')!.body))).toEqual([
      { name: 'FIRST', value: 'one' },
      { name: 'SECOND', value: 'two' },
    ])
    // The values typed are gone from the page: only digests are shown back.
    expect(screen.queryByDisplayValue('one')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Delete GREETING' }))
    await user.click(within(screen.getByRole('alertdialog', { name: 'Delete the secret GREETING?' })).getByRole('button', { name: 'Delete secret' }))
    expect(await screen.findByRole('rowheader', { name: 'FIRST' })).toBeInTheDocument()
    expect(screen.queryByRole('rowheader', { name: 'GREETING' })).toBeNull()
    expect(JSON.parse(String(seen.find((r) => r.method === 'DELETE')!.body))).toEqual(['GREETING'])
  })
})
