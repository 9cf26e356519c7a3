/**
 * A project's custom hostname (the Management API's shape and the two refusals the dashboard maps), its add-ons
 * (PITR on a paid plan, by Owners and Administrators), how its database is reached (asked of the database), and
 * support tickets; bad input on each.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CustomHostnameResponse, DatabaseConnection, ProjectAddons } from '../../src/contracts/settings'
import { SupportTicket, SupportTicketList } from '../../src/contracts/support'
import { DEVELOPER, OWNER, READONLY, insertForeignOrganization, isPostgres, json, projectByName, startTestServer, type TestServer } from './helpers'

let s: TestServer
let owner: string
let developer: string
let readonly: string
let recipes: string
let storefront: string
let paused: string
let foreign: string

async function expectError(res: Response, status: number, message: string | RegExp) {
  const body = (await res.json()) as { message: string }
  expect(res.status, JSON.stringify(body)).toBe(status)
  if (typeof message === 'string') expect(body.message).toBe(message)
  else expect(body.message).toMatch(message)
}

const hostname = (ref: string, cookie = owner) => s.request(`/v1/projects/${ref}/custom-hostname`, { headers: { cookie } })
const setHostname = (ref: string, body: unknown) => s.request(`/dev/projects/${ref}/custom-hostname`, json(body))
const addons = (ref: string, cookie = owner) => s.request(`/platform/projects/${ref}/billing/addons`, { headers: { cookie } })
const addAddon = (ref: string, body: unknown, cookie = owner) => s.request(`/platform/projects/${ref}/billing/addons`, json(body, { cookie }))
const removeAddon = (ref: string, type: string, cookie = owner) =>
  s.request(`/platform/projects/${ref}/billing/addons/${type}`, { method: 'DELETE', headers: { cookie } })

beforeAll(async () => {
  s = await startTestServer()
  ;[owner, developer, readonly] = await Promise.all([s.signIn(OWNER), s.signIn(DEVELOPER), s.signIn(READONLY)])
  recipes = (await projectByName(s, 'Recipe Box')).ref
  storefront = (await projectByName(s, 'Acme Storefront')).ref
  paused = (await projectByName(s, 'Weekend Hackathon')).ref
  foreign = (await insertForeignOrganization(s.db)).ref
}, 120_000)
afterAll(() => s?.close())

describe('GET /v1/projects/{ref}/custom-hostname', () => {
  it("refuses a free plan's project with the words the dashboard maps to 0_not_allowed", async () => {
    await expectError(await hostname(recipes), 400, /not allowed to set up custom domain/)
  })

  it("answers a paid plan's project without one with the words mapped to 0_no_hostname_configured", async () => {
    await expectError(await hostname(storefront), 400, /custom hostname configuration/)
  })

  it("answers the Management API's shape once the development control sets one, active by default", async () => {
    const set = await setHostname(storefront, { hostname: 'api.acme.test' })
    expect(set.status).toBe(200)
    const res = await hostname(storefront, readonly)
    expect(res.status).toBe(200)
    const body = CustomHostnameResponse.parse(await res.json())
    expect(body).toMatchObject({ status: '5_services_reconfigured', custom_hostname: 'api.acme.test' })
    expect(body.data.result).toMatchObject({ hostname: 'api.acme.test', status: 'active', ssl: { status: 'active', validation_records: [] } })
  })

  it('reports a hostname still being verified as pending, with its validation record', async () => {
    await setHostname(storefront, { hostname: 'api.acme.test', status: '2_initiated' })
    const body = CustomHostnameResponse.parse(await (await hostname(storefront)).json())
    expect(body.status).toBe('2_initiated')
    expect(body.data.result.status).toBe('pending')
    expect(body.data.result.ssl.validation_records[0].txt_name).toBe('_acme-challenge.api.acme.test')
  })

  it('forgets it when the control removes it', async () => {
    expect((await setHostname(storefront, { hostname: null })).status).toBe(200)
    await expectError(await hostname(storefront), 400, /custom hostname configuration/)
  })

  it("hides another organization's project and refuses a bad ref and a bad hostname", async () => {
    await expectError(await hostname(foreign), 404, 'Project not found')
    expect((await hostname('short')).status).toBe(400)
    await expectError(await setHostname(storefront, { hostname: 'Not A Host' }), 400, /hostname/)
    await expectError(await setHostname(storefront, { hostname: 'api.acme.test', status: '6_done' }), 400, /status/)
    expect((await s.request(`/v1/projects/${storefront}/custom-hostname`)).status).toBe(401)
  })
})

describe('/platform/projects/{ref}/billing/addons', () => {
  it('lists no add-on at first and PITR among those it may add', async () => {
    const body = ProjectAddons.parse(await (await addons(storefront, readonly)).json())
    expect(body.selected_addons).toEqual([])
    expect(body.available_addons[0]).toMatchObject({ type: 'pitr' })
    expect(body.available_addons[0].variants.map((v) => v.identifier)).toEqual(['pitr_7', 'pitr_14', 'pitr_28'])
  })

  it('turns PITR on and off on a paid plan, kept by the server', async () => {
    const on = await addAddon(storefront, { addon_type: 'pitr', addon_variant: 'pitr_7' })
    expect(on.status).toBe(200)
    expect(ProjectAddons.parse(await on.json()).selected_addons).toEqual([{ type: 'pitr', variant: { identifier: 'pitr_7', name: '7 days of recovery' } }])
    expect(ProjectAddons.parse(await (await addons(storefront)).json()).selected_addons[0].variant.identifier).toBe('pitr_7')
    const changed = ProjectAddons.parse(await (await addAddon(storefront, { addon_type: 'pitr', addon_variant: 'pitr_14' })).json())
    expect(changed.selected_addons.map((a) => a.variant.identifier)).toEqual(['pitr_14'])
    const off = await removeAddon(storefront, 'pitr')
    expect(off.status).toBe(200)
    expect(ProjectAddons.parse(await off.json()).selected_addons).toEqual([])
    await expectError(await removeAddon(storefront, 'pitr'), 404, 'The project has no pitr add-on')
  })

  it('refuses the free plan, Developers and Read-only members', async () => {
    await expectError(await addAddon(recipes, { addon_type: 'pitr', addon_variant: 'pitr_7' }), 400, /Pro plan/)
    await expectError(await addAddon(storefront, { addon_type: 'pitr', addon_variant: 'pitr_7' }, developer), 403, /Owners and Administrators/)
    await expectError(await removeAddon(storefront, 'pitr', readonly), 403, /Owners and Administrators/)
  })

  it('refuses bad input', async () => {
    await expectError(await addAddon(storefront, { addon_type: 'ipv4', addon_variant: 'pitr_7' }), 400, /addon_type/)
    await expectError(await addAddon(storefront, { addon_type: 'pitr', addon_variant: 'pitr_1' }), 400, /addon_variant/)
    expect((await removeAddon(storefront, 'compute')).status).toBe(400)
    await expectError(await addons(foreign), 404, 'Project not found')
  })
})

describe('GET /platform/projects/{ref}/settings/database', () => {
  it("reads the connection from the project's own database", async () => {
    const res = await s.request(`/platform/projects/${recipes}/settings/database`, { headers: { cookie: developer } })
    expect(res.status).toBe(200)
    const body = DatabaseConnection.parse(await res.json())
    expect(body.pooler.enabled).toBe(false)
    expect(body.size_bytes).toBeGreaterThan(0)
    expect(body.max_connections).toBeGreaterThan(0)
    if (isPostgres) {
      expect(body).toMatchObject({ engine: 'postgres', host: new URL(s.config.databaseUrl!).hostname })
      expect(body.database).toMatch(new RegExp(`_p_${recipes}$`))
      expect(body.connection_string).toBe(`postgresql://${body.user}:[YOUR-PASSWORD]@${body.host}:${body.port}/${body.database}`)
      expect(body.server_version).toMatch(/^15\./)
    } else {
      expect(body).toMatchObject({ engine: 'pglite', host: null, port: null, connection_string: null })
      expect(body.server_version).toMatch(/^18\./)
    }
  })

  it('refuses a paused project with the reason', async () => {
    await expectError(await s.request(`/platform/projects/${paused}/settings/database`, { headers: { cookie: owner } }), 409, /paused/)
  })
})

describe('/platform/support/tickets', () => {
  const ticket = (body: unknown, cookie = developer) => s.request('/platform/support/tickets', json(body, { cookie }))

  it('keeps a ticket and lists it to its sender only, newest first', async () => {
    const first = await ticket({ category: 'Problem', subject: 'First', message: 'Something' })
    expect(first.status).toBe(201)
    s.clock.advance(1000)
    const second = await ticket({ category: 'Database_unresponsive', project_ref: recipes, subject: '  Slow  ', message: 'Timeouts' })
    const created = SupportTicket.parse(await second.json())
    expect(created).toMatchObject({ category: 'Database_unresponsive', project_ref: recipes, subject: 'Slow' })
    const list = SupportTicketList.parse(await (await s.request('/platform/support/tickets', { headers: { cookie: developer } })).json())
    expect(list.map((t) => t.subject)).toEqual(['Slow', 'First'])
    const others = SupportTicketList.parse(await (await s.request('/platform/support/tickets', { headers: { cookie: owner } })).json())
    expect(others.map((t) => t.subject)).not.toContain('Slow')
  })

  it('refuses bad input and a project that is not the sender’s', async () => {
    await expectError(await ticket({ category: 'Problem', subject: ' ', message: 'x' }), 400, /Subject is required/)
    await expectError(await ticket({ category: 'Problem', subject: 'x', message: '' }), 400, /Message is required/)
    await expectError(await ticket({ category: 'Nope', subject: 'x', message: 'x' }), 400, /category/)
    await expectError(await ticket({ category: 'Problem', subject: 'x', message: 'x', project_ref: 'BAD' }), 400, /project_ref/)
    await expectError(await ticket({ category: 'Problem', subject: 'x', message: 'x', project_ref: foreign }), 404, 'Project not found')
    expect((await s.request('/platform/support/tickets', json({ category: 'Problem', subject: 'x', message: 'x' }))).status).toBe(401)
  })
})
