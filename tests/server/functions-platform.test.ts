/**
 * Edge functions as parts of the platform around them: a project whose API server is OFFLINE still serves its
 * functions; the Management API's analytics endpoints (functions.combined-stats, logs.all in the platform's query
 * form) answer from the invocations the runtime records; and the demo's functions that need an npm package's own
 * files (ImageMagick's WebAssembly) or a payment provider's signed webhook run as deployed.
 */
import { createHmac } from 'node:crypto'
import { createClient } from '@supabase/supabase-js'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import WebSocket from 'ws'
import { CombinedStats } from '../../src/contracts/functions'
import { OrgUsageResponse } from '../../src/contracts/usage'
import { insertFunction } from '../../src/server/features/functions/store'
import { secretBoxFor } from '../../src/server/core/sealed'
import { upsertSecrets } from '../../src/server/features/functions/runtime/store'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { OWNER, projectByName, startTestServer, type TestServer, listenOnPort } from './helpers'

let s: TestServer
let origin: string
let close: () => Promise<void>
let cookie: string
let recipes: { id: number; ref: string }
let keys: { anon: string; service: string }

async function deploy(projectId: number, slug: string, body: string, verifyJwt = false) {
  await s.db.query('delete from edge_functions where project_id = $1 and slug = $2', [projectId, slug])
  const row = await insertFunction(s.db, { projectId, slug, name: slug, body, verifyJwt, importMap: false, entrypointPath: 'index.ts', importMapPath: null, now: s.clock.now() })
  if (!row) throw new Error(`could not insert ${slug}`)
  return row
}

const v1 = (path: string) => s.request(`/v1/projects/${recipes.ref}${path}`, { headers: { cookie } })

beforeAll(async () => {
  // A generous wall clock: a demo's first call downloads its npm packages.
  s = await startTestServer({ config: { functions: { wallClockMs: 60_000, bootMs: 60_000, idleMs: 30_000 } } })
  ;({ origin, close } = await listenOnPort(s))
  cookie = await s.signIn(OWNER)
  recipes = await projectByName(s, 'Recipe Box')
  const row = (await findProjectKeys(s.db, recipes.id))!
  keys = { anon: row.anon_key, service: row.service_role_key }
}, 120_000)

afterAll(async () => {
  await close?.()
  await s?.close()
})

describe('a project whose API server is OFFLINE', () => {
  it('still serves its functions (they run on their own runtime), keys still verified; its REST API is refused', async () => {
    const legacy = await projectByName(s, 'Legacy Blog')
    const legacyKeys = (await findProjectKeys(s.db, legacy.id))!
    await deploy(legacy.id, 'ping', `Deno.serve(() => Response.json({ pong: true }))`, true)
    const base = `${origin}/p/${legacy.ref}`
    const served = await fetch(`${base}/functions/v1/ping`, { headers: { authorization: `Bearer ${legacyKeys.anon_key}` } })
    expect(served.status).toBe(200)
    expect(await served.json()).toEqual({ pong: true })
    const keyless = await fetch(`${base}/functions/v1/ping`)
    expect(keyless.status).toBe(401)
    expect(await keyless.json()).toEqual({ code: 401, message: 'Missing authorization header' })
    const rest = await fetch(`${base}/rest/v1/`, { headers: { apikey: legacyKeys.anon_key } })
    expect(rest.status).toBe(503)
    await rest.arrayBuffer()
  }, 60_000)
})

describe('the usage page', () => {
  it('shows a call as soon as it is counted: the read writes the pending counts first', async () => {
    const day = (offset: number) => new Date(s.clock.now().getTime() + offset * 86_400_000).toISOString()
    const invocations = async () => {
      const res = await s.request(`/platform/organizations/demo-free/usage?start=${day(-1)}&end=${day(1)}&project_ref=${recipes.ref}`, { headers: { cookie } })
      expect(res.status).toBe(200)
      return OrgUsageResponse.parse(await res.json()).usages.find((u) => u.metric === 'FUNCTION_INVOCATIONS')!.usage
    }
    await deploy(recipes.id, 'counted', `Deno.serve(() => new Response('ok'))`)
    const before = await invocations()
    const res = await fetch(`${origin}/p/${recipes.ref}/functions/v1/counted`)
    expect(await res.text()).toBe('ok')
    expect(await invocations()).toBe(before + 1)
  }, 60_000)
})

describe('the analytics endpoints', () => {
  let fn: { id: string }
  const statuses = [200, 404, 500]

  beforeAll(async () => {
    fn = await deploy(
      recipes.id,
      'stats-probe',
      `Deno.serve((req) => {
        const status = Number(new URL(req.url).searchParams.get('status'))
        console.log('handled ' + status)
        console.error('oops ' + status)
        return new Response('done', { status })
      })`,
    )
    const logged = async (kind: string) => (await s.functionRuntime.logs.list(fn.id)).filter((e) => e.kind === kind).length
    for (const [i, status] of statuses.entries()) {
      const res = await fetch(`${origin}/p/${recipes.ref}/functions/v1/stats-probe?status=${status}`)
      expect(res.status).toBe(status)
      await res.arrayBuffer()
      // The console lines come through the worker's output, apart from the answer: wait until this call's are in.
      await vi.waitFor(async () => expect([await logged('invocation'), await logged('console')]).toEqual([i + 1, 2 * (i + 1)]), { timeout: 20_000, interval: 20 })
      // One second apart by the platform's clock, so the log has an order to read.
      s.clock.advance(1_000)
    }
  }, 60_000)

  it("functions.combined-stats counts the function's invocations by status class and its log lines, in the contract's shape", async () => {
    const res = await v1(`/analytics/endpoints/functions.combined-stats?interval=15min&function_id=${fn.id}`)
    expect(res.status).toBe(200)
    const { result } = CombinedStats.parse(await res.json())
    const sum = (key: keyof (typeof result)[number]) => result.reduce((n, r) => n + (r[key] as number), 0)
    expect(sum('requests_count')).toBe(3)
    expect([sum('success_count'), sum('redirect_count'), sum('client_err_count'), sum('server_err_count')]).toEqual([1, 0, 1, 1])
    // Three console.error lines; three console.log lines and the worker's boot line.
    expect([sum('log_error_count'), sum('log_info_count'), sum('log_count')]).toEqual([3, 4, 7])
    const durations = (await s.functionRuntime.logs.list(fn.id)).flatMap((e) => (e.kind === 'invocation' ? [e.duration_ms!] : []))
    expect(Math.max(...result.map((r) => r.max_execution_time))).toBe(Math.max(...durations))
    // Buckets are minutes, oldest first.
    const times = result.map((r) => Date.parse(r.timestamp))
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(times.every((t) => t % 60_000 === 0)).toBe(true)
  })

  it('functions.combined-stats refuses a bad interval or a missing id (400), and reads nothing of a function of another project (404)', async () => {
    expect((await v1(`/analytics/endpoints/functions.combined-stats?interval=2hr&function_id=${fn.id}`)).status).toBe(400)
    const missing = await v1('/analytics/endpoints/functions.combined-stats?interval=1hr')
    expect(missing.status).toBe(400)
    expect(await missing.json()).toMatchObject({ message: expect.stringContaining('function_id') })
    const storefront = await projectByName(s, 'Acme Storefront')
    const { rows } = await s.db.query<{ id: string }>('select id::text as id from edge_functions where project_id = $1 limit 1', [storefront.id])
    const other = await v1(`/analytics/endpoints/functions.combined-stats?interval=1hr&function_id=${rows[0].id}`)
    expect(other.status).toBe(404)
    expect(await other.json()).toEqual({ error: expect.stringContaining('No edge function') })
  })

  it("logs.all answers the dashboard's function_edge_logs query: one row per invocation, newest first, timestamps in microseconds", async () => {
    const sql = `select id, function_edge_logs.timestamp, event_message, response.status_code, request.method, m.function_id, m.execution_time_ms, m.deployment_id, m.version
      from function_edge_logs
      cross join unnest(metadata) as m
      cross join unnest(m.response) as response
      cross join unnest(m.request) as request
      where m.function_id = '${fn.id}'
      order by timestamp desc
      limit 100`
    const res = await v1(`/analytics/endpoints/logs.all?sql=${encodeURIComponent(sql)}`)
    expect(res.status).toBe(200)
    const { result } = (await res.json()) as { result: Record<string, unknown>[] }
    expect(result.map((r) => r.status_code)).toEqual([...statuses].reverse())
    expect(result[0]).toEqual({
      id: expect.any(String),
      timestamp: expect.any(Number),
      event_message: 'GET | 500 | /stats-probe',
      status_code: 500,
      method: 'GET',
      function_id: fn.id,
      execution_time_ms: expect.any(Number),
      deployment_id: `${recipes.ref}_${fn.id}_1`,
      version: '1',
    })
    const newest = (await s.functionRuntime.logs.list(fn.id)).filter((e) => e.kind === 'invocation').at(-1)!
    expect(result[0].timestamp).toBe(newest.timestamp * 1_000)
  })

  it('logs.all answers function_logs with a filter on the message and the level, and a limit', async () => {
    const sql = `select id, function_logs.timestamp, event_message, metadata.event_type, metadata.function_id, metadata.level from function_logs
      cross join unnest(metadata) as metadata
      where metadata.function_id = '${fn.id}' and (regexp_contains(event_message, 'oops') or event_message like 'handled 2%')
      order by timestamp asc
      limit 3`
    const res = await v1(`/analytics/endpoints/logs.all?sql=${encodeURIComponent(sql)}`)
    expect(res.status).toBe(200)
    const { result } = (await res.json()) as { result: Record<string, unknown>[] }
    expect(result.map((r) => [r.event_message, r.event_type, r.level])).toEqual([
      ['handled 200', 'Log', 'log'],
      ['oops 200', 'Log', 'error'],
      ['oops 404', 'Log', 'error'],
    ])
    // The range is by the platform's clock: the hour before the last one holds none of them.
    const hoursAgo = (h: number) => new Date(s.clock.now().getTime() - h * 3_600_000).toISOString()
    const empty = await v1(`/analytics/endpoints/logs.all?iso_timestamp_start=${hoursAgo(2)}&iso_timestamp_end=${hoursAgo(1)}&sql=${encodeURIComponent(sql)}`)
    expect(await empty.json()).toEqual({ result: [] })
  })

  it('logs.all refuses with 400 and a clear error: bad SQL, an unknown name, a source not kept here, no SQL, a range over 24 hours', async () => {
    const ask = async (query: string) => {
      const res = await v1(`/analytics/endpoints/logs.all?${query}`)
      return { status: res.status, body: (await res.json()) as { error?: string; message?: string } }
    }
    const sql = (text: string) => `sql=${encodeURIComponent(text)}`
    expect(await ask(sql('selec * frm function_logs'))).toMatchObject({ status: 400, body: { error: expect.stringContaining('Syntax error') } })
    expect(await ask(sql('select nope from function_logs'))).toMatchObject({ status: 400, body: { error: 'Unrecognized name: nope' } })
    expect(await ask(sql('select count(*) from function_logs'))).toMatchObject({ status: 400, body: { error: expect.stringContaining('not supported') } })
    const runaway = `select id from function_logs where regexp_contains(event_message, '(a+)+$')`
    expect(await ask(sql(runaway))).toMatchObject({ status: 400, body: { error: expect.stringContaining('regexp_contains') } })
    expect(await ask(sql(`select id from function_logs where ${'true and '.repeat(3_000)}true`))).toMatchObject({ status: 400, body: { message: expect.stringContaining('20,000') } })
    expect(await ask(sql('select id from edge_logs'))).toMatchObject({ status: 400, body: { error: expect.stringContaining('Unknown source edge_logs') } })
    expect(await ask('')).toMatchObject({ status: 400, body: { error: expect.stringContaining('function_edge_logs') } })
    const start = new Date(s.clock.now().getTime() - 25 * 3_600_000).toISOString()
    expect(await ask(`iso_timestamp_start=${start}&${sql('select id from function_logs')}`)).toMatchObject({ status: 400, body: { error: expect.stringContaining('24 hours') } })
    expect(await ask(`iso_timestamp_start=yesterday&${sql('select id from function_logs')}`)).toMatchObject({ status: 400, body: { message: expect.stringContaining('iso_timestamp_start') } })
  })
})

describe("the demo's functions that were never run", () => {
  it("runs the recipe demo's resize-image: ImageMagick's WebAssembly from its npm package makes a 400 px WebP thumbnail in storage", async () => {
    const supabase = createClient(`${origin}/p/${recipes.ref}`, keys.service, {
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false, autoRefreshToken: false },
    })
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#c0392b' } }).png().toBuffer()
    const uploaded = await supabase.storage.from('recipe-photos').upload('tests/tomato.png', png, { contentType: 'image/png', upsert: true })
    expect(uploaded.error).toBeNull()
    const { data, error } = await supabase.functions.invoke('resize-image', { body: { path: 'tests/tomato.png' } })
    expect(error).toBeNull()
    expect(data).toEqual({ thumbnail: 'tests/tomato.thumb.webp' })
    const thumb = await supabase.storage.from('recipe-photos').download('tests/tomato.thumb.webp')
    expect(thumb.error).toBeNull()
    const meta = await sharp(Buffer.from(await thumb.data!.arrayBuffer())).metadata()
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 400, 300])
  }, 120_000)

  it("reads its npm packages' files but nothing else of the module cache", async () => {
    await deploy(
      recipes.id,
      'cache-prober',
      `Deno.serve(async (req) => {
        const attempt = async (fn) => { try { await fn(); return 'allowed' } catch (e) { return e.name } }
        const { dir } = await req.json()
        return Response.json({ root: await attempt(() => Deno.stat(dir)), npm: await attempt(() => Deno.stat(dir + '/npm')) })
      })`,
    )
    const res = await fetch(`${origin}/p/${recipes.ref}/functions/v1/cache-prober`, { method: 'POST', body: JSON.stringify({ dir: inject('denoDir') }) })
    expect(await res.json()).toEqual({ root: 'NotCapable', npm: 'allowed' })
  }, 60_000)

  it("runs the storefront demo's stripe-webhook: a signed checkout.session.completed marks the order paid; a bad signature changes nothing", async () => {
    const storefront = await projectByName(s, 'Acme Storefront')
    const signingSecret = 'whsec_test_platform'
    await upsertSecrets(s.db, storefront.id, [
      { name: 'STRIPE_SECRET_KEY', value: 'sk_test_platform' },
      { name: 'STRIPE_WEBHOOK_SIGNING_SECRET', value: signingSecret },
    ], s.clock.now(), await secretBoxFor(s.config))
    const orderId = await s.projectDbs.transaction(storefront.ref, {}, async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `insert into orders (customer_id) values ('0d9e8f7a-6b5c-4d3e-8f2a-1b0c9d8e7f66') returning id::text as id`,
      )
      return Number(rows[0].id)
    })
    const statusOf = () =>
      s.projectDbs.transaction(storefront.ref, { readOnly: true }, async (tx) => (await tx.query<{ status: string }>('select status::text as status from orders where id = $1', [orderId])).rows[0].status)
    const payload = JSON.stringify({
      id: 'evt_test_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { id: 'cs_test_1', object: 'checkout.session', metadata: { order_id: String(orderId) } } },
    })
    // Stripe's signature: HMAC-SHA256 of "{t}.{payload}" with the signing secret, checked within 5 minutes of now.
    const t = Math.floor(Date.now() / 1000)
    const sign = (secret: string) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${payload}`).digest('hex')}`
    const send = (signature: string) =>
      fetch(`${origin}/p/${storefront.ref}/functions/v1/stripe-webhook`, { method: 'POST', headers: { 'stripe-signature': signature, 'content-type': 'application/json' }, body: payload })

    const forged = await send(sign('whsec_not_the_secret'))
    expect(forged.status).toBe(400)
    expect(await forged.text()).toContain('signature')
    expect(await statusOf()).toBe('pending')

    const res = await send(sign(signingSecret))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ received: true })
    expect(await statusOf()).toBe('paid')
  }, 120_000)
})
