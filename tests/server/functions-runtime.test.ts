/**
 * Edge functions that run: each deployed version in its own Deno process, invoked through the gateway at
 * /p/{ref}/functions/v1/{slug} with supabase-js's `functions.invoke` and plain fetch, over a listening server (the
 * functions call back into the platform by its URL). verify_jwt is honoured, secrets arrive as environment
 * variables, bodies and answers stream, Deno's permissions are narrowed, and a function past a limit ends with 546
 * WORKER_LIMIT while the others keep answering.
 */
import { readdirSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { OrgUsageResponse } from '../../src/contracts/usage'
import { insertFunction } from '../../src/server/features/functions/store'
import { deployFunction } from './functions-support'
import { secretBoxFor } from '../../src/server/core/sealed'
import { upsertSecrets } from '../../src/server/features/functions/runtime/store'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { startWireServer, type WireServer } from '../../src/server/features/wire/server'
import { OWNER, READONLY, projectByName, startTestServer, type TestServer, listenOnPort } from './helpers'

let s: TestServer
let origin: string
let close: () => Promise<void>
let wire: WireServer
let project: { id: number; ref: string }
let keys: { anon: string; service: string }

async function deploy(slug: string, body: string, verifyJwt = false) {
  return deployFunction(s.db, project.id, slug, body, { verifyJwt })
}

const client = (key: string) =>
  createClient(`${origin}/p/${project.ref}`, key, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  })

const url = (slug: string) => `${origin}/p/${project.ref}/functions/v1/${slug}`

beforeAll(async () => {
  s = await startTestServer({ config: { functions: { wallClockMs: 4_000, paidWallClockMs: 8_000, cpuMs: 1_500, memoryMb: 64, maxRequestBytes: 1024 * 1024, maxResponseBytes: 1024 * 1024, maxOutputBytes: 256 * 1024 } } })
  ;({ origin, close } = await listenOnPort(s))
  // The Postgres port the functions' SUPABASE_DB_URL points at.
  wire = await startWireServer({ db: s.db, projectDbs: s.projectDbs, config: { ...s.config, wire: { ...s.config.wire, port: 0 } } })
  project = await projectByName(s, 'Recipe Box')
  const row = (await findProjectKeys(s.db, project.id))!
  keys = { anon: row.anon_key, service: row.service_role_key }
}, 120_000)

afterAll(async () => {
  await close?.()
  await wire?.close()
  await s?.close()
})

describe('invoking a function', () => {
  it("runs the demo's hello-world with supabase-js functions.invoke, and reuses the warm worker", async () => {
    const supabase = client(keys.anon)
    const first = await supabase.functions.invoke('hello-world', { body: { name: 'Ada' } })
    expect(first.error).toBeNull()
    expect(first.data).toEqual({ message: 'Hello Ada!' })
    const workers = s.functionRuntime.supervisor.workerList().map((w) => w.pid)
    const second = await supabase.functions.invoke('hello-world', { body: { name: 'Grace' } })
    expect(second.data).toEqual({ message: 'Hello Grace!' })
    expect(s.functionRuntime.supervisor.workerList().map((w) => w.pid)).toEqual(workers)
  }, 60_000)

  it("counts the calls that reach a function on the usage page's FUNCTION_INVOCATIONS; an unknown function or a refused key does not count", async () => {
    const cookie = await s.signIn(OWNER)
    const day = (offset: number) => new Date(s.clock.now().getTime() + offset * 86_400_000).toISOString()
    const invocations = async () => {
      await s.functionRuntime.usage.flush()
      const res = await s.request(`/platform/organizations/demo-free/usage?start=${day(-1)}&end=${day(1)}&project_ref=${project.ref}`, {
        headers: { cookie },
      })
      expect(res.status).toBe(200)
      return OrgUsageResponse.parse(await res.json()).usages.find((u) => u.metric === 'FUNCTION_INVOCATIONS')!.usage
    }
    const before = await invocations()
    const supabase = client(keys.anon)
    for (const name of ['Ana', 'Bo']) expect((await supabase.functions.invoke('hello-world', { body: { name } })).data).toEqual({ message: `Hello ${name}!` })
    const unknown = await fetch(url('no-such-function'), { headers: { apikey: keys.anon } })
    expect(unknown.status).toBe(404)
    await unknown.arrayBuffer()
    const keyless = await fetch(url('hello-world'), { method: 'POST', body: '{}' })
    expect(keyless.status).toBe(401)
    await keyless.arrayBuffer()
    expect(await invocations()).toBe(before + 2)
  }, 60_000)

  it('refuses a call without a key when verify_jwt is on, in the platform shape; a bad key is refused too', async () => {
    const res = await fetch(url('hello-world'), { method: 'POST', body: '{}' })
    expect(res.status).toBe(401)
    expect(await res.json()).toEqual({ code: 401, message: 'Missing authorization header' })
    const bad = await fetch(url('hello-world'), { method: 'POST', headers: { authorization: 'Bearer not.a.jwt' } })
    expect(bad.status).toBe(401)
    expect(await bad.json()).toMatchObject({ code: 401 })
  })

  it('gives the function the project secrets and SUPABASE_* as env, and takes calls without a key when verify_jwt is off', async () => {
    await upsertSecrets(s.db, project.id, [{ name: 'GREETING', value: 'Bonjour' }], new Date(), await secretBoxFor(s.config))
    await deploy(
      'env-reader',
      `Deno.serve((req) => Response.json({
        greeting: Deno.env.get('GREETING'),
        url: Deno.env.get('SUPABASE_URL'),
        anon: Deno.env.get('SUPABASE_ANON_KEY')?.length > 0,
        path: new URL(req.url).pathname,
        method: req.method,
      }))`,
    )
    const res = await fetch(`${url('env-reader')}/sub/path?x=1`, { method: 'PUT' })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      greeting: 'Bonjour',
      url: `${origin}/p/${project.ref}`,
      anon: true,
      path: '/env-reader/sub/path',
      method: 'PUT',
    })
    // A changed secret reaches the next call (a new worker).
    await upsertSecrets(s.db, project.id, [{ name: 'GREETING', value: 'Hola' }], new Date(), await secretBoxFor(s.config))
    const { data } = await client(keys.anon).functions.invoke('env-reader', { method: 'GET' })
    expect(data).toMatchObject({ greeting: 'Hola' })
  }, 60_000)

  it("reaches the project's own database through SUPABASE_DB_URL with npm:postgres, with the owner's rights", async () => {
    // Row level security on and no policy: only the table's owner reads the row (anon through REST sees none).
    await s.projectDbs.transaction(project.ref, {}, (tx) =>
      tx.exec(`create table if not exists public.fn_db_probe (id int primary key, note text);
               alter table public.fn_db_probe enable row level security;
               insert into public.fn_db_probe values (1, 'owner only') on conflict do nothing;`),
    )
    await deploy(
      'db-reader',
      `import postgres from 'npm:postgres@3'
      const sql = postgres(Deno.env.get('SUPABASE_DB_URL'), { max: 1 })
      Deno.serve(async () => {
        const rows = await sql\`select id, note from public.fn_db_probe order by id\`
        return Response.json({ rows: rows.map((r) => ({ ...r })), url: Deno.env.get('SUPABASE_DB_URL').replace(/:[^:@/]+@/, ':***@') })
      })`,
    )
    const res = await fetch(url('db-reader'))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      rows: [{ id: 1, note: 'owner only' }],
      url: `postgresql://edge_functions.${project.ref}:***@127.0.0.1:${wire.port}/postgres?sslmode=disable`,
    })
    const asAnon = await fetch(`${origin}/p/${project.ref}/rest/v1/fn_db_probe?select=id`, { headers: { apikey: keys.anon } })
    expect(await asAnon.json()).toEqual([])
  }, 60_000)

  it("runs the storefront demo's send-order-email, which imports supabase-js from npm, reads a customer and calls the mail API", async () => {
    const storefront = await projectByName(s, 'Acme Storefront')
    const storefrontKeys = (await findProjectKeys(s.db, storefront.id))!
    // Its database opens before the call, so opening it is not counted in the function's short wall clock here.
    await s.projectDbs.transaction(storefront.ref, { readOnly: true }, (tx) => tx.query('select 1'))
    const mails: { authorization: string | undefined; body: unknown }[] = []
    const mailApi = http.createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        mails.push({ authorization: req.headers.authorization, body: JSON.parse(body) })
        res.writeHead(202).end()
      })
    })
    await new Promise<void>((r) => mailApi.listen(0, '127.0.0.1', r))
    try {
      const mailUrl = `http://127.0.0.1:${(mailApi.address() as AddressInfo).port}/send`
      await upsertSecrets(s.db, storefront.id, [
        { name: 'MAIL_API_URL', value: mailUrl },
        { name: 'MAIL_API_KEY', value: 'mail-key-1' },
        { name: 'MAIL_FROM', value: 'shop@example.com' },
      ], new Date(), await secretBoxFor(s.config))
      const webhook = (status: string, old: string) => ({
        type: 'UPDATE',
        record: { id: 2, customer_id: '6f1c2d4e-0b7a-4c1e-9a53-2f8e1d0c7b11', status },
        old_record: { status: old },
      })
      const invoke = (payload: unknown) =>
        fetch(`${origin}/p/${storefront.ref}/functions/v1/send-order-email`, {
          method: 'POST',
          headers: { authorization: `Bearer ${storefrontKeys.service_role_key}`, 'content-type': 'application/json' },
          body: JSON.stringify(payload),
        })
      const paid = await invoke(webhook('paid', 'pending'))
      expect(paid.status).toBe(200)
      expect(await paid.json()).toEqual({ sent: true })
      expect(mails).toEqual([
        {
          authorization: 'Bearer mail-key-1',
          body: { from: 'shop@example.com', to: 'jo@example.com', subject: 'Order #2 is confirmed', text: 'Hi Jo Rivera, thank you for your order #2.' },
        },
      ])
      const again = await invoke(webhook('paid', 'paid'))
      expect(again.status).toBe(204)
      expect(mails).toHaveLength(1)
    } finally {
      await new Promise((r) => mailApi.close(r))
    }
  }, 90_000)

  it("gives the Test panel a user's token that the function sees as that user; refuses a bad id, an unknown user and a member who may not", async () => {
    const created = await fetch(`${origin}/p/${project.ref}/auth/v1/admin/users`, {
      method: 'POST',
      headers: { apikey: keys.service, authorization: `Bearer ${keys.service}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'tester@example.com', password: 'tester-password-1', email_confirm: true }),
    })
    expect(created.status).toBe(200)
    const userId = ((await created.json()) as { id: string }).id
    const tokenFor = async (body: unknown, who = OWNER) =>
      s.request(`/platform/projects/${project.ref}/functions/test-token`, {
        method: 'POST',
        headers: { cookie: await s.signIn(who), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const res = await tokenFor({ user_id: userId })
    expect(res.status).toBe(200)
    const token = (await res.json()) as { access_token: string; token_type: string; expires_in: number; user: unknown }
    expect(token).toMatchObject({ token_type: 'bearer', expires_in: 600, user: { id: userId, email: 'tester@example.com' } })

    await deploy(
      'whoami',
      `import { createClient } from 'npm:@supabase/supabase-js@2'
      Deno.serve(async (req) => {
        const supabase = createClient(Deno.env.get('SUPABASE_URL'), Deno.env.get('SUPABASE_ANON_KEY'), {
          global: { headers: { Authorization: req.headers.get('Authorization') } },
        })
        const { data, error } = await supabase.auth.getUser()
        return Response.json({ id: data.user?.id ?? null, email: data.user?.email ?? null, error: error?.message ?? null })
      })`,
      true,
    )
    const seen = await fetch(url('whoami'), { method: 'POST', headers: { apikey: keys.anon, authorization: `Bearer ${token.access_token}` } })
    expect(seen.status).toBe(200)
    expect(await seen.json()).toEqual({ id: userId, email: 'tester@example.com', error: null })

    const bad = await tokenFor({ user_id: 'not-a-uuid' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ message: expect.stringContaining('user_id must be a UUID') })
    const unknown = await tokenFor({ user_id: '00000000-0000-4000-8000-000000000000' })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ message: 'No user with this id in the project' })
    const readOnly = await tokenFor({ user_id: userId }, READONLY)
    expect(readOnly.status).toBe(403)
  }, 90_000)

  it('narrows permissions: no files outside its bundle, no other env, no subprocess, no writes', async () => {
    await deploy(
      'prober',
      `const attempt = async (fn) => { try { await fn(); return 'allowed' } catch (e) { return e.name } }
      Deno.serve(async () => Response.json({
        readEtc: await attempt(() => Deno.readTextFile('/etc/hostname')),
        readOwn: await attempt(() => Deno.readTextFile(new URL('./index.ts', import.meta.url))),
        envPath: await attempt(() => Deno.env.get('PATH')),
        envDenoDir: await attempt(() => Deno.env.get('DENO_DIR')),
        envUnset: Deno.env.get('PGHOST') ?? 'unset',
        run: await attempt(() => new Deno.Command('/bin/true').output()),
        write: await attempt(() => Deno.writeTextFile('/tmp/kp-fn-probe', 'x')),
      }))`,
    )
    const res = await fetch(url('prober'))
    expect(await res.json()).toEqual({ readEtc: 'NotCapable', readOwn: 'allowed', envPath: 'NotCapable', envDenoDir: 'NotCapable', envUnset: 'unset', run: 'NotCapable', write: 'NotCapable' })
  }, 60_000)

  it('streams the answer as it is written (server-sent events) and streams the request body in', async () => {
    await deploy(
      'ticker',
      `Deno.serve(async (req) => {
        const received = (await req.text()).length
        let n = 0
        const body = new ReadableStream({
          async pull(controller) {
            if (n === 3) return controller.close()
            controller.enqueue(new TextEncoder().encode('data: ' + JSON.stringify({ n: n++, received }) + '\\n\\n'))
            await new Promise((r) => setTimeout(r, 150))
          },
        })
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } })
      })`,
    )
    const payload = 'x'.repeat(200_000)
    const res = await fetch(url('ticker'), { method: 'POST', body: payload, headers: { 'content-type': 'text/plain' } })
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const reader = res.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toBe(`data: {"n":0,"received":200000}\n\n`)
    let rest = ''
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value)
    expect(rest).toBe(`data: {"n":1,"received":200000}\n\ndata: {"n":2,"received":200000}\n\n`)
  }, 60_000)

  it('lets the function answer its own CORS preflight', async () => {
    await deploy(
      'cors',
      `Deno.serve((req) => req.method === 'OPTIONS'
        ? new Response('ok', { headers: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'authorization, x-client-info, apikey, content-type' } })
        : new Response('hi'))`,
      true,
    )
    const res = await fetch(url('cors'), { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, x-client-info, apikey, content-type')
  }, 60_000)
})

describe('faults and limits', () => {
  it('answers 404 NOT_FOUND for an unknown function or a slug with .. or unicode', async () => {
    for (const slug of ['nope', 'a..b', '..%2Fetc', 'h%C3%A9llo', '-lead']) {
      const res = await fetch(url(slug), { headers: { apikey: keys.anon } })
      expect(res.status, slug).toBe(404)
      expect(await res.json()).toEqual({ code: 'NOT_FOUND', message: 'Requested function was not found' })
    }
  })

  it('answers 503 BOOT_ERROR for a function that throws at start or imports a module that does not exist', async () => {
    await deploy('thrower', `throw new Error('bad start')\nDeno.serve(() => new Response('never'))`)
    const thrown = await fetch(url('thrower'))
    expect(thrown.status).toBe(503)
    expect(await thrown.json()).toMatchObject({ code: 'BOOT_ERROR', message: 'Function failed to start (please check logs)' })
    await deploy('missing-import', `import './not-there.ts'\nDeno.serve(() => new Response('never'))`)
    const missing = await fetch(url('missing-import'))
    expect(missing.status).toBe(503)
    expect(await missing.json()).toMatchObject({ code: 'BOOT_ERROR' })
  }, 60_000)

  it('ends a CPU loop, a function that never answers, endless allocation and endless output with 546 WORKER_LIMIT; others keep answering', async () => {
    await deploy('spinner', `Deno.serve(() => { while (true) {} })`)
    await deploy('sleeper', `Deno.serve(() => new Promise(() => {}))`)
    await deploy('hog', `const keep = []\nDeno.serve(() => { while (true) keep.push(new Array(1e5).fill(Math.random())) })`)
    await deploy('chatty', `Deno.serve(() => { while (true) console.log('x'.repeat(1000)) })`)
    await deploy('fine', `Deno.serve(() => new Response('fine'))`)
    for (const slug of ['spinner', 'sleeper', 'hog', 'chatty']) {
      const started = performance.now()
      const [runaway, fine] = await Promise.all([
        fetch(url(slug)),
        new Promise((r) => setTimeout(r, 300)).then(() => fetch(url('fine'))),
      ])
      expect(runaway.status, slug).toBe(546)
      expect(await runaway.json()).toMatchObject({ code: 'WORKER_LIMIT' })
      expect(fine.status).toBe(200)
      expect(await fine.text()).toBe('fine')
      expect(performance.now() - started).toBeLessThan(20_000)
    }
    // The runaway's worker was replaced: the next call boots a fresh one (and hits the limit again).
    const again = await fetch(url('spinner'))
    expect(again.status).toBe(546)
    const spinner = await s.db.query<{ id: string }>('select id::text as id from edge_functions where project_id = $1 and slug = $2', [project.id, 'spinner'])
    const kinds = (await s.functionRuntime.logs.list(spinner.rows[0].id)).map((e) => e.kind)
    expect(kinds.filter((k) => k === 'boot')).toHaveLength(2)
    expect(kinds.filter((k) => k === 'shutdown')).toHaveLength(2)
  }, 120_000)

  it("gives a paid plan's functions the longer wall clock: a call past the free limit ends with 546 on a free project and answers on a pro one", async () => {
    const shop = await projectByName(s, 'Acme Storefront')
    const slow = `Deno.serve(async () => { await new Promise((r) => setTimeout(r, 5_000)); return new Response('late') })`
    const free = await deploy('slow', slow)
    const paid = await insertFunction(s.db, {
      projectId: shop.id,
      slug: 'slow',
      name: 'slow',
      body: slow,
      verifyJwt: false,
      importMap: false,
      entrypointPath: 'index.ts',
      importMapPath: null,
      now: new Date(),
    })
    const [onFree, onPaid] = await Promise.all([fetch(url('slow')), fetch(`${origin}/p/${shop.ref}/functions/v1/slow`)])
    expect(onFree.status).toBe(546)
    expect(await onFree.json()).toMatchObject({ code: 'WORKER_LIMIT' })
    expect(onPaid.status).toBe(200)
    expect(await onPaid.text()).toBe('late')
    const ended = (await s.functionRuntime.logs.list(free.id)).filter((e) => e.kind === 'shutdown').map((e) => e.event_message)
    expect(ended).toEqual(['Worker ended: it ran past the wall clock limit of 4000 ms'])
    expect((await s.functionRuntime.logs.list(paid!.id)).filter((e) => e.kind === 'shutdown')).toEqual([])
  }, 60_000)

  it('refuses a request body past the limit with 413 and a response past it with 546', async () => {
    await deploy('echo', `Deno.serve(async (req) => new Response(req.body))`)
    await deploy('big', `Deno.serve(() => new Response(new Uint8Array(2 * 1024 * 1024)))`)
    const declared = await fetch(url('echo'), { method: 'POST', body: new Uint8Array(2 * 1024 * 1024) })
    expect(declared.status).toBe(413)
    expect(await declared.json()).toMatchObject({ code: 'REQUEST_TOO_LARGE' })
    const big = await fetch(url('big'))
    expect(big.status).toBe(546)
    expect(await big.json()).toMatchObject({ code: 'WORKER_LIMIT' })
  }, 60_000)

  it('keeps each invocation in the function log with its status and console output', async () => {
    await deploy('logger', `Deno.serve(() => { console.log('hello from the function'); console.error('and an error'); return new Response('ok', { status: 201 }) })`)
    const res = await fetch(url('logger'))
    expect(res.status).toBe(201)
    await res.text()
    const row = await s.db.query<{ id: string }>('select id::text as id from edge_functions where project_id = $1 and slug = $2', [project.id, 'logger'])
    const entries = await s.functionRuntime.logs.list(row.rows[0].id)
    expect(entries.filter((e) => e.kind === 'console').map((e) => [e.level, e.event_message])).toEqual([
      ['log', 'hello from the function'],
      ['error', 'and an error'],
    ])
    expect(entries.find((e) => e.kind === 'invocation')).toMatchObject({ method: 'GET', status: 201 })
  }, 60_000)
})

describe('removal', () => {
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0)
      return true
    } catch {
      return false
    }
  }
  /** The bundle folders on disk of a function's versions (named after its id). */
  const bundleFolders = (functionId: string) =>
    readdirSync(path.join(s.config.dataDir, 'functions', `bundles-${process.pid}`)).filter((name) => name.startsWith(`${functionId}_`))
  const workersOf = (functionId: string) => s.functionRuntime.supervisor.workerList().filter((w) => w.functionId === functionId)

  it("deleting a project ends its functions' workers and deletes their bundles, its functions and its secrets; other projects' run on", async () => {
    // Last in the file: the storefront is not used after this.
    const shop = await projectByName(s, 'Acme Storefront')
    await upsertSecrets(s.db, shop.id, [{ name: 'SHOP_SECRET', value: 'shop-secret-1' }], new Date(), await secretBoxFor(s.config))
    const fn = await insertFunction(s.db, {
      projectId: shop.id,
      slug: 'shop-reader',
      name: 'shop-reader',
      body: `Deno.serve(() => new Response(Deno.env.get('SHOP_SECRET')))`,
      verifyJwt: false,
      importMap: false,
      entrypointPath: 'index.ts',
      importMapPath: null,
      now: new Date(),
    })
    await s.db.query(`insert into edge_function_files (function_id, name, content) values ($1, 'index.ts', $2)`, [
      fn!.id,
      `Deno.serve(() => new Response(Deno.env.get('SHOP_SECRET')))`,
    ])
    const shopUrl = `${origin}/p/${shop.ref}/functions/v1/shop-reader`
    const before = await fetch(shopUrl)
    expect(await before.text()).toBe('shop-secret-1')
    const [worker] = workersOf(fn!.id)
    expect(worker.pid).toBeGreaterThan(0)
    expect(bundleFolders(fn!.id)).toHaveLength(1)
    expect((await s.functionRuntime.logs.list(fn!.id)).length).toBeGreaterThan(0)
    // A warm worker of another project.
    expect((await client(keys.anon).functions.invoke('hello-world', { body: { name: 'Kay' } })).data).toEqual({ message: 'Hello Kay!' })
    const [otherWorker] = s.functionRuntime.supervisor.workerList().filter((w) => w.functionId !== fn!.id)

    const deleted = await s.request(`/v1/projects/${shop.ref}`, { method: 'DELETE', headers: { cookie: await s.signIn(OWNER) } })
    expect(deleted.status).toBe(200)
    // Done by the time the answer comes: the process is gone, and so is its folder.
    expect(workersOf(fn!.id)).toEqual([])
    expect(alive(worker.pid!)).toBe(false)
    expect(bundleFolders(fn!.id)).toEqual([])
    expect(await s.functionRuntime.logs.list(fn!.id)).toEqual([])
    const left = await s.db.query<{ functions: number; files: number; secrets: number }>(
      `select (select count(*)::int from edge_functions where project_id = $1) as functions,
              (select count(*)::int from edge_function_files where function_id = $2) as files,
              (select count(*)::int from project_secrets where project_id = $1) as secrets`,
      [shop.id, fn!.id],
    )
    expect(left.rows[0]).toEqual({ functions: 0, files: 0, secrets: 0 })
    const after = await fetch(shopUrl)
    expect(after.status).toBe(404)
    await after.arrayBuffer()

    expect(alive(otherWorker.pid!)).toBe(true)
    expect((await client(keys.anon).functions.invoke('hello-world', { body: { name: 'Lin' } })).data).toEqual({ message: 'Hello Lin!' })
  }, 60_000)

  it('deleting a function through the Management API ends its worker and forgets its log', async () => {
    const row = await deploy('short-lived', `Deno.serve(() => new Response('here'))`)
    expect(await (await fetch(url('short-lived'))).text()).toBe('here')
    const [worker] = workersOf(row.id)
    expect(alive(worker.pid!)).toBe(true)
    const deleted = await s.request(`/v1/projects/${project.ref}/functions/short-lived`, {
      method: 'DELETE',
      headers: { cookie: await s.signIn(OWNER) },
    })
    expect(deleted.status).toBe(200)
    expect(workersOf(row.id)).toEqual([])
    expect(alive(worker.pid!)).toBe(false)
    expect(bundleFolders(row.id)).toEqual([])
    expect(await s.functionRuntime.logs.list(row.id)).toEqual([])
    const gone = await fetch(url('short-lived'))
    expect(gone.status).toBe(404)
    await gone.arrayBuffer()
  }, 60_000)
})
