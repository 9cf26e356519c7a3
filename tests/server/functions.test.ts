/**
 * Edge functions through the Management API (/v1/projects/{ref}/functions): the demo's functions, create with the
 * JSON body and the query parameters, read, delete, every 4xx, permissions per role, a non-member, a paused project;
 * answers checked against the Management API's OpenAPI document. Then the demo data of migration 010 reaching a data
 * folder made before it, and a third-party client on a real port with a personal access token.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FunctionList, FunctionResponse } from '../../src/contracts/functions'
import { V1OrganizationList, V1ProjectList } from '../../src/contracts/v1'
import { createApp } from '../../src/server/app'
import { FakeClock, DEVELOPER, OWNER, READONLY, createTestStore, insertForeignOrganization, json, projectByName, startTestServer, testConfig, type TestServer } from './helpers'
import { expectValid, responseValidator } from './openapi'

let s: TestServer
let tokens: { owner: string; developer: string; readonly: string }
let ownerCookie: string
let recipes: string
let storefront: string
let paused: string
let foreign: string

const fns = (ref: string) => `/v1/projects/${ref}/functions`
const fn = (ref: string, slug: string) => `${fns(ref)}/${slug}`
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

async function newToken(email: string): Promise<string> {
  const cookie = await s.signIn(email)
  const res = await s.request('/platform/profile/access-tokens', json({ name: 'functions test' }, { cookie }))
  expect(res.status).toBe(201)
  return ((await res.json()) as { token: string }).token
}

async function listOf(ref: string, token = tokens.owner): Promise<FunctionList> {
  const res = await s.request(fns(ref), { headers: bearer(token) })
  const body = await res.json()
  if (res.status !== 200) throw new Error(`${res.status}: ${JSON.stringify(body)}`)
  return FunctionList.parse(body)
}

const create = (ref: string, body: unknown, token = tokens.developer, query = '') =>
  s.request(`${fns(ref)}${query}`, json(body, bearer(token)))
const remove = (ref: string, slug: string, token = tokens.developer) => s.request(fn(ref, slug), { method: 'DELETE', headers: bearer(token) })

async function expectError(res: Response, status: number, message: string | RegExp) {
  const body = (await res.json()) as { message: string }
  expect(res.status, JSON.stringify(body)).toBe(status)
  if (typeof message === 'string') expect(body.message).toBe(message)
  else expect(body.message).toMatch(message)
  return body
}

const hello = { slug: 'greet', name: 'Greet', body: "Deno.serve(() => new Response('hi'))" }

beforeAll(async () => {
  s = await startTestServer()
  const [owner, developer, readonly] = await Promise.all([newToken(OWNER), newToken(DEVELOPER), newToken(READONLY)])
  tokens = { owner, developer, readonly }
  ownerCookie = await s.signIn(OWNER)
  recipes = (await projectByName(s, 'Recipe Box')).ref
  storefront = (await projectByName(s, 'Acme Storefront')).ref
  paused = (await projectByName(s, 'Weekend Hackathon')).ref
  foreign = (await insertForeignOrganization(s.db)).ref
}, 120_000)
afterAll(() => s?.close())

describe('GET /v1/projects/{ref}/functions', () => {
  it("lists the demo's functions in the contract's shape, without their source", async () => {
    const validate = responseValidator('/v1/projects/{ref}/functions')
    const res = await s.request(fns(storefront), { headers: bearer(tokens.owner) })
    expect(res.status).toBe(200)
    const body = (await res.json()) as Record<string, unknown>[]
    expectValid(validate, body)
    expect(body.map((f) => f.slug)).toEqual(['hello-world', 'send-order-email', 'stripe-webhook'])
    for (const f of body) {
      expect(f).toMatchObject({ status: 'ACTIVE', version: 1, entrypoint_path: 'index.ts', import_map: false })
      expect(f).not.toHaveProperty('body')
      expect(Number.isInteger(f.created_at)).toBe(true)
    }
    expect(body.find((f) => f.slug === 'send-order-email')?.verify_jwt).toBe(false)
    expect((await listOf(recipes)).map((f) => f.slug)).toEqual(['hello-world', 'resize-image'])
  })

  it('any member reads, by token or by session cookie; the Read-only member too', async () => {
    expect((await listOf(recipes, tokens.readonly)).length).toBe(2)
    const res = await s.request(fns(recipes), { headers: { cookie: ownerCookie } })
    expect(res.status).toBe(200)
    expect(FunctionList.parse(await res.json()).length).toBe(2)
    expect(res.headers.get('cache-control')).toBe('no-store')
  })

  it('needs a token or a session; a bad token is 401', async () => {
    expect((await s.request(fns(recipes))).status).toBe(401)
    expect((await s.request(fns(recipes), { headers: bearer('sbp_not_a_real_token') })).status).toBe(401)
  })

  it('GET one answers FunctionSlugResponse; an unknown slug 404; a slug the contract refuses 400', async () => {
    const validate = responseValidator('/v1/projects/{ref}/functions/{function_slug}')
    const res = await s.request(fn(recipes, 'resize-image'), { headers: bearer(tokens.readonly) })
    expect(res.status).toBe(200)
    const body = await res.json()
    expectValid(validate, body)
    expect(body).toMatchObject({ slug: 'resize-image', name: 'resize-image', verify_jwt: true })
    await expectError(await s.request(fn(recipes, 'send-order-email'), { headers: bearer(tokens.owner) }), 404, "No edge function 'send-order-email' in this project")
    await expectError(await s.request(fn(recipes, 'bad.slug'), { headers: bearer(tokens.owner) }), 400, 'function_slug: letters, digits, - and _ only')
  })
})

describe('POST /v1/projects/{ref}/functions', () => {
  it('creates version 1 with the defaults (verify_jwt, entrypoint index.ts), lists it and reads it', async () => {
    const validate = responseValidator('/v1/projects/{ref}/functions', 'post', '201')
    const res = await create(recipes, hello)
    expect(res.status).toBe(201)
    const body = await res.json()
    expectValid(validate, body)
    const made = FunctionResponse.parse(body)
    expect(made).toMatchObject({ slug: 'greet', name: 'Greet', status: 'ACTIVE', version: 1, verify_jwt: true, import_map: false, entrypoint_path: 'index.ts' })
    expect(made.created_at).toBe(s.clock.ms)
    expect(made.updated_at).toBe(s.clock.ms)
    expect(made).not.toHaveProperty('import_map_path')
    expect((await listOf(recipes)).map((f) => f.slug)).toEqual(['hello-world', 'resize-image', 'greet'])
    const read = FunctionResponse.parse(await (await s.request(fn(recipes, 'greet'), { headers: bearer(tokens.owner) })).json())
    expect(read).toEqual(made)
    // The source is kept (never answered).
    const { rows } = await s.db.query<{ body: string }>(`select body from edge_functions where id = $1`, [made.id])
    expect(rows).toEqual([{ body: hello.body }])
  })

  it('the same slug twice answers 409; the same slug in another project is another function', async () => {
    await expectError(await create(recipes, { ...hello, name: 'Other' }), 409, "The resource already exists: this project has an edge function 'greet'")
    expect((await s.request(fn(recipes, 'greet'), { headers: bearer(tokens.owner) }).then((r) => r.json())) as { name: string }).toMatchObject({ name: 'Greet' })
    const other = await create(storefront, hello)
    expect(other.status).toBe(201)
    expect((await remove(storefront, 'greet')).status).toBe(200)
  })

  it('takes the query parameters the contract allows: verify_jwt, import_map, entrypoint_path, import_map_path', async () => {
    const query = '?slug=mapped&name=Mapped&verify_jwt=false&import_map_path=import_map.json&entrypoint_path=main.ts'
    const res = await create(recipes, { slug: 'mapped', name: 'Mapped', body: 'Deno.serve(() => new Response())' }, tokens.owner, query)
    expect(res.status).toBe(201)
    expect(FunctionResponse.parse(await res.json())).toMatchObject({
      verify_jwt: false,
      import_map: true,
      import_map_path: 'import_map.json',
      entrypoint_path: 'main.ts',
    })
    const off = await create(recipes, { slug: 'unmapped', name: 'x', body: 'x', verify_jwt: false }, tokens.owner, '?import_map=false')
    expect(FunctionResponse.parse(await off.json())).toMatchObject({ import_map: false, verify_jwt: false })
    expect((await remove(recipes, 'mapped', tokens.owner)).status).toBe(200)
    expect((await remove(recipes, 'unmapped', tokens.owner)).status).toBe(200)
  })

  it.each([
    ['a slug in the query that differs from the body', '?slug=other', hello, 'slug: the query says "other" and the body "greet"'],
    ['a name that differs', '?name=Other', hello, 'name: the query says "Other" and the body "Greet"'],
    ['verify_jwt that differs', '?verify_jwt=true', { ...hello, verify_jwt: false }, 'verify_jwt: the query says true and the body false'],
    ['verify_jwt that is not a boolean string', '?verify_jwt=yes', hello, 'verify_jwt: a boolean string, true or false'],
    ['an empty entrypoint_path', '?entrypoint_path=', hello, 'entrypoint_path: must not be empty'],
    ['a query slug the contract refuses', '?slug=no%20spaces', hello, /^slug: A function slug/],
  ])('refuses %s with 400 (before looking for a duplicate)', async (_, query, body, message) => {
    await expectError(await create(recipes, body, tokens.owner, query), 400, message)
  })

  it.each([
    ['no body at all', {}, /^slug: .*; name: .*; body: /],
    ['a slug starting with a digit', { ...hello, slug: '1st' }, 'slug: A function slug starts with a letter and holds only letters, digits, - and _'],
    ['a slug with a dot', { ...hello, slug: 'a.b' }, /^slug: A function slug/],
    ['an empty name', { ...hello, name: '' }, 'name: name is required'],
    ['an empty source', { ...hello, body: '' }, 'body: body is required'],
    ['verify_jwt as a string', { ...hello, verify_jwt: 'true' }, /^verify_jwt: /],
  ])('refuses %s with 400', async (_, body, message) => {
    await expectError(await create(recipes, body), 400, message)
  })

  it('refuses an eszip bundle (415) and a source past the JSON limit (413)', async () => {
    const eszip = await s.request(fns(recipes), {
      method: 'POST',
      headers: { ...bearer(tokens.developer), 'content-type': 'application/vnd.denoland.eszip' },
      body: new Uint8Array([1, 2, 3]),
    })
    await expectError(eszip, 415, /must be JSON/)
    await expectError(await create(recipes, { ...hello, slug: 'huge', body: 'x'.repeat(70_000) }), 413, /larger than this endpoint accepts/)
    expect((await listOf(recipes)).some((f) => f.slug === 'huge')).toBe(false)
  })
})

describe('DELETE /v1/projects/{ref}/functions/{function_slug}', () => {
  it('deletes (200, no body); reading or deleting it again is 404', async () => {
    expect((await create(recipes, { ...hello, slug: 'short-lived' })).status).toBe(201)
    const res = await remove(recipes, 'short-lived')
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
    await expectError(await s.request(fn(recipes, 'short-lived'), { headers: bearer(tokens.owner) }), 404, "No edge function 'short-lived' in this project")
    await expectError(await remove(recipes, 'short-lived'), 404, "No edge function 'short-lived' in this project")
  })
})

describe('who may change functions', () => {
  it('a Read-only member gets 403 creating and deleting (project_edge_function:all), and nothing changes', async () => {
    const message = "You need the project_edge_function:all permission to change this project's edge functions"
    await expectError(await create(recipes, { ...hello, slug: 'sneaky' }, tokens.readonly), 403, message)
    await expectError(await remove(recipes, 'hello-world', tokens.readonly), 403, message)
    expect((await listOf(recipes)).map((f) => f.slug)).toEqual(['hello-world', 'resize-image', 'greet'])
  })

  it('the Owner may delete what the Developer made', async () => {
    expect((await create(storefront, { ...hello, slug: 'dev-made' })).status).toBe(201)
    expect((await remove(storefront, 'dev-made', tokens.owner)).status).toBe(200)
  })

  it('a person outside the organization gets 404 Project not found on all four, as for an unknown ref', async () => {
    for (const ref of [foreign, 'aaaaaaaaaaaaaaaaaaaa']) {
      await expectError(await s.request(fns(ref), { headers: bearer(tokens.owner) }), 404, 'Project not found')
      await expectError(await s.request(fn(ref, 'hello-world'), { headers: bearer(tokens.owner) }), 404, 'Project not found')
      await expectError(await create(ref, hello, tokens.owner), 404, 'Project not found')
      await expectError(await remove(ref, 'hello-world', tokens.owner), 404, 'Project not found')
    }
    await expectError(await s.request(fns('Bad_Ref'), { headers: bearer(tokens.owner) }), 400, 'Project ref is required')
  })

  it('a paused project lists and reads its functions but refuses changes with 409', async () => {
    expect(await listOf(paused)).toEqual([])
    for (const res of [await create(paused, hello, tokens.owner), await remove(paused, 'hello-world', tokens.owner)]) {
      const body = await expectError(res, 409, 'The project is paused: restore it to change its edge functions')
      expect(body).toMatchObject({ code: 'project_not_active' })
    }
    // A project paused after deploying keeps its functions, readable, unchanged.
    expect((await s.request(`/dev/projects/${storefront}/status`, json({ status: 'INACTIVE' }))).status).toBe(200)
    expect((await listOf(storefront)).map((f) => f.slug)).toEqual(['hello-world', 'send-order-email', 'stripe-webhook'])
    await expectError(await remove(storefront, 'hello-world', tokens.owner), 409, /is paused/)
    expect((await s.request(`/dev/projects/${storefront}/status`, json({ status: 'ACTIVE_HEALTHY' }))).status).toBe(200)
  })
})

describe('the demo data of migration 010 in a data folder made before it', () => {
  it("turns Legacy Blog's storage off and adds the demo's functions when 010 is applied", async () => {
    const store = await createTestStore()
    const db = await store.open()
    try {
      const config = testConfig({ ...store.placement })
      const first = await createApp({ db, config, clock: new FakeClock() })
      await first.close()
      // Back to the data folder as it was before migration 010.
      // (021's function files and 042's logs hang off edge_functions: they go too, as they would not be there yet either.)
      await db.exec(`drop table edge_function_logs; drop table edge_function_files; drop table project_secrets;
        drop table edge_functions; alter table projects drop column storage_enabled;
        delete from schema_migrations where id in ('010_storage_functions', '021_function_runtime', '042_function_logs')`)
      const again = await createApp({ db, config, clock: new FakeClock() })
      await again.close()
      const { rows } = await db.query<{ name: string; storage_enabled: boolean; functions: string | null }>(
        `select p.name, p.storage_enabled, string_agg(f.slug, ',' order by f.created_at) as functions
         from projects p left join edge_functions f on f.project_id = p.id group by p.id order by p.name`,
      )
      expect(rows.filter((r) => !r.storage_enabled).map((r) => r.name)).toEqual(['Legacy Blog'])
      expect(Object.fromEntries(rows.filter((r) => r.functions).map((r) => [r.name, r.functions]))).toEqual({
        'Acme Storefront': 'hello-world,send-order-email,stripe-webhook',
        'Recipe Box': 'hello-world,resize-image',
      })
    } finally {
      await store.destroy()
    }
  }, 60_000)
})

describe('a third-party Management API client (fetch with a personal access token, on a real port)', () => {
  it('lists its organizations, then their projects, then the functions of a project', async () => {
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const srv = serve({ fetch: s.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(srv))
    })
    try {
      const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
      const get = async (path: string) => {
        const res = await fetch(`${api}${path}`, { headers: { Authorization: `Bearer ${tokens.developer}`, Accept: 'application/json' } })
        expect(res.status, path).toBe(200)
        return res.json()
      }
      const orgs = V1OrganizationList.parse(await get('/organizations'))
      expect(orgs.map((o) => o.slug)).toEqual(['demo-free', 'demo-pro'])
      const projects = V1ProjectList.parse(await get('/projects'))
      const pro = projects.filter((p) => p.organization_slug === orgs[1].slug)
      const shop = pro.find((p) => p.name === 'Acme Storefront')
      expect(shop?.status).toBe('ACTIVE_HEALTHY')
      const list = FunctionList.parse(await get(`/projects/${shop!.ref}/functions`))
      expect(list.map((f) => f.slug)).toEqual(['hello-world', 'send-order-email', 'stripe-webhook'])
      const one = FunctionResponse.parse(await get(`/projects/${shop!.ref}/functions/${list[1].slug}`))
      expect(one.id).toBe(list[1].id)
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
