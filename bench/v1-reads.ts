/**
 * Which of the Management API contract's GET operations the platform answers in the contract's shape.
 * `npx tsx bench/v1-reads.ts [--list]`: starts a server on a fresh data folder (the demo data), signs in as the demo
 * owner, makes an access token, fills each path's parameters from the platform's own lists (the first ACTIVE_HEALTHY
 * project with functions, its organization, its first snippet, key, branch, …), calls every GET of
 * shared/reference/management-api.openapi.json and validates each 200 against the operation's response schema.
 * Prints the count that answer (200, valid) and, with --list, every operation with what it answered.
 */
import { removeDir, startServer } from './support'
import { openApi, responseValidator } from '../tests/server/openapiDocument'

const REF = /^[a-z]{20}$/
const listAll = process.argv.includes('--list')

const server = await startServer()
try {
  const signIn = await fetch(`${server.url}/platform/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'owner@example.com', password: 'demo1234' }),
  })
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]
  const made = await fetch(`${server.url}/platform/profile/access-tokens`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'v1 reads' }),
  })
  const { token } = (await made.json()) as { token: string }
  const get = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}` } })
    const text = await res.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {
      // not JSON: kept as text
    }
    return { status: res.status, body }
  }
  const first = async <T>(path: string, pick: (body: any) => T | undefined): Promise<T | undefined> => {
    const { status, body } = await get(path)
    return status === 200 ? pick(body) : undefined
  }

  // The project: ACTIVE_HEALTHY, the one with the most functions (so the per-function reads have one to read).
  const projects = ((await get('/v1/projects')).body as { ref: string; status: string; organization_slug?: string; organization_id: string }[])
    .filter((p) => p.status === 'ACTIVE_HEALTHY' && REF.test(p.ref))
  let ref = projects[0].ref
  let most = -1
  for (const p of projects) {
    const n = (await first(`/v1/projects/${p.ref}/functions`, (b) => (Array.isArray(b) ? b.length : 0))) ?? 0
    if (n > most) [ref, most] = [p.ref, n]
  }
  const project = projects.find((p) => p.ref === ref)!
  const values: Record<string, string | undefined> = {}
  const slug = project.organization_slug ?? project.organization_id
  const p = `/v1/projects/${ref}`
  // What the per-item reads need and the demo has not: a migration of the CLI's history, a saved SQL snippet.
  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  await post(`${p}/database/migrations`, { query: 'create table v1_reads_probe (id int)', name: 'probe' }, { authorization: `Bearer ${token}` })
  await post(`/platform/projects/${ref}/snippets`, { name: 'probe', sql: 'select 1' }, { cookie })
  // A preview branch for the branch reads, the demo having none: made on the first project whose plan and connected
  // repository allow one (the others refuse).
  for (const other of projects) {
    const made = await post(`/v1/projects/${other.ref}/branches`, { branch_name: 'v1-reads', git_branch: 'main' }, { authorization: `Bearer ${token}` })
    if (made.status === 201) break
  }
  // The first project that has a branch, for the branch reads.
  let branches: { id: string; name: string }[] = []
  for (const other of projects) {
    branches = (await first(`/v1/projects/${other.ref}/branches`, (b) => b as { id: string; name: string }[])) ?? []
    if (branches.length) {
      values.branchRef = other.ref
      break
    }
  }
  // The branch's database built (the diff compares it with its parent's), within two minutes.
  for (let waited = 0; branches[0] && waited < 120_000; waited += 1_000) {
    const status = await first(`/v1/branches/${branches[0].id}`, (b) => b.status as string)
    if (status === 'ACTIVE_HEALTHY') break
    await new Promise((r) => setTimeout(r, 1_000))
  }
  Object.assign(values, {
    ref,
    slug,
    branch_id_or_ref: branches[0]?.id,
    name: branches[0]?.name,
    function_slug: await first(`${p}/functions`, (b) => b[0]?.slug),
    version: await first(`${p}/database/migrations`, (b) => b[0]?.version),
    run_id: await first(`${p}/actions`, (b) => b[0]?.id),
    tpa_id: await first(`${p}/config/auth/third-party-auth`, (b) => b[0]?.id),
    provider_id: await first(`${p}/config/auth/sso/providers`, (b) => b.items?.[0]?.id),
  })
  const ids: Record<string, string | undefined> = {
    '/v1/snippets/{id}': await first('/v1/snippets', (b) => b.data?.[0]?.id),
    '/v1/projects/{ref}/api-keys/{id}': await first(`${p}/api-keys`, (b) => b[0]?.id),
    '/v1/projects/{ref}/config/auth/signing-keys/{id}': await first(`${p}/config/auth/signing-keys`, (b) => b.keys?.[0]?.id),
  }
  const query: Record<string, string> = {
    '/v1/projects/available-regions': `?organization_slug=${slug}`,
    '/v1/projects/{ref}/health': '?services=db,rest,auth',
    '/v1/projects/{ref}/analytics/endpoints/functions.combined-stats': `?interval=1hr&function_id=${(await first(`${p}/functions`, (b) => b[0]?.id)) ?? ''}`,
    '/v1/projects/{ref}/analytics/endpoints/logs.all': `?sql=${encodeURIComponent('select id, timestamp from function_logs limit 1')}`,
  }

  const { doc } = openApi()
  const rows: { path: string; status: number | string; verdict: string }[] = []
  for (const [path, ops] of Object.entries(doc.paths)) {
    if (!ops.get) continue
    let missing: string | undefined
    const concrete = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const v = name === 'id' ? ids[path] : name === 'ref' && path.endsWith('/branches/{name}') ? (values.branchRef ?? ref) : values[name]
      if (v === undefined) missing ??= name
      return encodeURIComponent(v ?? `no-${name}`)
    })
    const { status, body } = await get(concrete + (query[path] ?? ''))
    let verdict: string
    if (status === 404 && typeof body === 'object' && body && String((body as { message?: string }).message).startsWith('No route')) verdict = 'no route'
    else if (status === 200 || status === 204) {
      const hasSchema = !!ops.get.responses[String(status)]?.content?.['application/json']
      if (!hasSchema) verdict = 'answers'
      else {
        const validate = responseValidator(path, 'get', String(status))
        verdict = validate(body) ? 'answers' : `wrong shape: ${validate.errors!.slice(0, 2).map((e) => `${e.instancePath} ${e.message}`).join('; ')}`
      }
    } else verdict = `${status}${missing ? ` (no ${missing} to ask for)` : ''}: ${JSON.stringify(body).slice(0, 100)}`
    rows.push({ path, status, verdict })
  }
  if (listAll) for (const r of rows) console.log(`${r.verdict === 'answers' ? '✓' : '✗'} GET ${r.path}  ${r.verdict === 'answers' ? '' : r.verdict}`)
  const answering = rows.filter((r) => r.verdict === 'answers').length
  console.log(`${answering} of ${rows.length} GET operations answer in the contract's shape (project ${ref}, organization ${slug})`)
  console.log(`no route: ${rows.filter((r) => r.verdict === 'no route').length}; other: ${rows.filter((r) => r.verdict !== 'answers' && r.verdict !== 'no route').length}`)
} finally {
  await server.stop()
  removeDir(server.dataDir)
}
