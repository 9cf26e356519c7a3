/**
 * API keys and JWT secret rotation: real keys (HS256 JWTs verified with jose against the stored secret), keys only
 * after a project has come up, rotation by the lifecycle engine (roll and custom), a failed rotation keeping the old
 * secret and keys, one update at a time, permissions, validation, durability across a restart, and /v1 api-keys
 * against the Management API contract.
 */
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  JwtSecretUpdateAccepted,
  JwtSecretUpdateStatusResponse,
  ProjectApiInfo,
  ProjectSettings,
  V1ApiKeyList,
} from '../../src/contracts/keys'
import { Project } from '../../src/contracts/projects'
import { loadConfig } from '../../src/server/config'
import { responseValidator } from './openapi'
import { secretsEqual } from '../../src/server/features/keys/store'
import {
  DEVELOPER,
  OWNER,
  READONLY,
  createSeededStore,
  json,
  projectByName,
  startTestServer,
  type TestServer,
} from './helpers'

const JWT_UPDATE_MS = 3_000
const COMING_UP_MS = 15_000
const lifecycle = { ...loadConfig({}).lifecycle, comingUpMs: COMING_UP_MS, jwtUpdateMs: JWT_UPDATE_MS, tickMs: 10 }

async function storedKeys(s: TestServer, ref: string) {
  const { rows } = await s.db.query<{ jwt_secret: string; anon_key: string; service_role_key: string }>(
    `select k.jwt_secret, k.anon_key, k.service_role_key from project_api_keys k join projects p on p.id = k.project_id
     where p.ref = $1`,
    [ref],
  )
  return rows[0]
}

async function settings(s: TestServer, ref: string, cookie: string) {
  const res = await s.request(`/platform/props/project/${ref}/settings`, { headers: { cookie } })
  expect(res.status).toBe(200)
  return ProjectSettings.parse(await res.json())
}

const keyOf = (body: ProjectSettings, tag: 'anon' | 'service_role') =>
  body.services[0]?.service_api_keys.find((k) => k.tags === tag)?.api_key

async function expectValidKey(key: string, secret: string, ref: string, role: 'anon' | 'service_role') {
  const { payload, protectedHeader } = await jwtVerify(key, new TextEncoder().encode(secret), {
    issuer: 'supabase',
    algorithms: ['HS256'],
  })
  expect(protectedHeader).toMatchObject({ alg: 'HS256', typ: 'JWT' })
  expect(payload).toMatchObject({ iss: 'supabase', ref, role })
  expect(typeof payload.iat).toBe('number')
  // About ten years.
  expect(payload.exp! - payload.iat!).toBeGreaterThan(9 * 365 * 86_400)
  expect(payload.exp! - payload.iat!).toBeLessThan(11 * 365 * 86_400)
}

async function expectRejected(key: string, secret: string) {
  await expect(jwtVerify(key, new TextEncoder().encode(secret))).rejects.toThrow()
}

async function requestUpdate(s: TestServer, ref: string, cookie: string, body: object = {}) {
  return s.request(`/platform/props/project/${ref}/jwt-secret-update`, json(body, { cookie }))
}

async function updateStatus(s: TestServer, ref: string, cookie: string) {
  const res = await s.request(`/platform/props/project/${ref}/jwt-secret-update-status`, { headers: { cookie } })
  expect(res.status).toBe(200)
  return JwtSecretUpdateStatusResponse.parse(await res.json()).jwtSecretUpdateStatus
}

describe('keys are real JWTs signed with the project secret', () => {
  let s: TestServer
  let owner: string
  beforeAll(async () => {
    s = await startTestServer({ config: { lifecycle } })
    owner = await s.signIn(OWNER)
  })
  afterAll(() => s?.close())

  it('every demo project past setting up has a secret of at least 32 characters and two keys that verify', async () => {
    const { rows } = await s.db.query<{ ref: string; status: string }>('select ref, status from projects order by id')
    for (const { ref, status } of rows) {
      const stored = await storedKeys(s, ref)
      if (status === 'COMING_UP' || status === 'UNKNOWN') {
        expect(stored, ref).toBeUndefined()
        continue
      }
      expect(stored.jwt_secret.length).toBeGreaterThanOrEqual(32)
      await expectValidKey(stored.anon_key, stored.jwt_secret, ref, 'anon')
      await expectValidKey(stored.service_role_key, stored.jwt_secret, ref, 'service_role')
    }
    const secrets = new Set<string>()
    for (const { ref } of rows) {
      const stored = await storedKeys(s, ref)
      if (stored) secrets.add(stored.jwt_secret)
    }
    expect(secrets.size).toBeGreaterThanOrEqual(9) // one secret per project, never shared
  })

  it('the Owner reads both keys and the secret in the settings, which verify with jose', async () => {
    const { ref } = await projectByName(s, 'Recipe Box')
    const body = await settings(s, ref, owner)
    expect(body.project.ref).toBe(ref)
    expect(body.services[0].app).toEqual({ id: 1, name: 'Auto API' })
    expect(body.services[0].app_config.protocol).toBe('http')
    expect(body.services[0].app_config.endpoint).toContain(ref)
    const secret = body.project.jwt_secret!
    expect(secret.length).toBeGreaterThanOrEqual(32)
    await expectValidKey(keyOf(body, 'anon')!, secret, ref, 'anon')
    await expectValidKey(keyOf(body, 'service_role')!, secret, ref, 'service_role')
    expect(decodeProtectedHeader(keyOf(body, 'anon')!).alg).toBe('HS256')
  })

  it('the API key info gives the Owner the anon key as defaultApiKey, the service_role key and the endpoint', async () => {
    const { ref } = await projectByName(s, 'Recipe Box')
    const res = await s.request(`/platform/props/project/${ref}/api`, { headers: { cookie: owner } })
    expect(res.status).toBe(200)
    const info = ProjectApiInfo.parse(await res.json())
    const stored = await storedKeys(s, ref)
    const body = await settings(s, ref, owner)
    expect(info.autoApiService).toEqual({
      protocol: body.services[0].app_config.protocol,
      endpoint: body.services[0].app_config.endpoint,
      defaultApiKey: stored.anon_key,
      serviceApiKey: stored.service_role_key,
    })
  })

  it.each([DEVELOPER, READONLY])('%s gets API key info without serviceApiKey at all; a stranger 404', async (email) => {
    const cookie = await s.signIn(email)
    const { ref } = await projectByName(s, 'Recipe Box')
    const res = await s.request(`/platform/props/project/${ref}/api`, { headers: { cookie } })
    const text = await res.text()
    const info = ProjectApiInfo.parse(JSON.parse(text))
    const stored = await storedKeys(s, ref)
    expect('serviceApiKey' in info.autoApiService).toBe(false)
    expect(info.autoApiService.defaultApiKey).toBe(stored.anon_key)
    expect(text).not.toContain(stored.service_role_key)
    expect((await s.request('/platform/props/project/notaprojectofanyonex/api', { headers: { cookie } })).status).toBe(404)
  })

  it.each([DEVELOPER, READONLY])('%s gets the anon key alone and no jwt_secret property at all', async (email) => {
    const cookie = await s.signIn(email)
    const { ref } = await projectByName(s, 'Recipe Box')
    const res = await s.request(`/platform/props/project/${ref}/settings`, { headers: { cookie } })
    const text = await res.text()
    const body = ProjectSettings.parse(JSON.parse(text))
    expect('jwt_secret' in body.project).toBe(false)
    expect(body.services[0].service_api_keys.map((k) => k.tags)).toEqual(['anon'])
    const stored = await storedKeys(s, ref)
    expect(text).not.toContain(stored.service_role_key)
    expect(text).not.toContain(stored.jwt_secret)
    expect(keyOf(body, 'anon')).toBe(stored.anon_key)
  })

  it('a new project has no keys while coming up and gets them when it turns ACTIVE_HEALTHY', async () => {
    const created = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name: 'Key Fresh', status: 'COMING_UP' }))
    const p = Project.parse(await created.json())
    const before = await settings(s, p.ref, owner)
    expect(before.services[0].service_api_keys).toEqual([])
    expect(before.project.jwt_secret).toBeUndefined()
    const refused = await requestUpdate(s, p.ref, owner)
    expect(refused.status).toBe(409)
    s.clock.advance(COMING_UP_MS)
    await s.engine.runDue()
    const after = await settings(s, p.ref, owner)
    expect(after.project.status).toBe('ACTIVE_HEALTHY')
    await expectValidKey(keyOf(after, 'anon')!, after.project.jwt_secret!, p.ref, 'anon')
    await expectValidKey(keyOf(after, 'service_role')!, after.project.jwt_secret!, p.ref, 'service_role')
  })

  it('a project created past setting up has keys at once; non-members get 404; a bad ref 400', async () => {
    const created = await s.request('/dev/projects', json({ organization_slug: 'demo-free', status: 'ACTIVE_HEALTHY' }))
    const p = Project.parse(await created.json())
    expect(keyOf(await settings(s, p.ref, owner), 'service_role')).toBeTruthy()
    expect((await s.request('/platform/props/project/aaaaaaaaaaaaaaaaaaaa/settings', { headers: { cookie: owner } })).status).toBe(404)
    const bad = await s.request('/platform/props/project/Nope/settings', { headers: { cookie: owner } })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ message: 'Project ref is required' })
    expect((await s.request(`/platform/props/project/${p.ref}/settings`)).status).toBe(401)
  })

  it('compares secrets in constant time, whatever their lengths', () => {
    expect(secretsEqual('a'.repeat(40), 'a'.repeat(40))).toBe(true)
    expect(secretsEqual('a'.repeat(40), 'a'.repeat(41))).toBe(false)
    expect(secretsEqual('a'.repeat(40), 'b'.repeat(40))).toBe(false)
  })
})

describe('JWT secret rotation', () => {
  let s: TestServer
  let owner: string
  let ref: string
  beforeAll(async () => {
    s = await startTestServer({ config: { lifecycle } })
    owner = await s.signIn(OWNER)
    ref = (await projectByName(s, 'Acme Storefront')).ref
  })
  afterAll(() => s?.close())

  it('before any update the status is null', async () => {
    expect(await updateStatus(s, ref, owner)).toBeNull()
  })

  it('a roll re-signs both keys with a new generated secret after LIFECYCLE_JWT_UPDATE_MS; the old ones stop verifying', async () => {
    const old = await storedKeys(s, ref)
    const res = await requestUpdate(s, ref, owner)
    expect(res.status).toBe(202)
    const { change_tracking_id } = JwtSecretUpdateAccepted.parse(await res.json())
    expect(await updateStatus(s, ref, owner)).toEqual({
      meta: { change_tracking_id, error: null, progress: 'Started', status: 'updating' },
    })
    // Until applied the old secret and keys are the ones in force.
    s.clock.advance(JWT_UPDATE_MS - 1)
    await s.engine.runDue()
    expect(await storedKeys(s, ref)).toEqual(old)
    expect((await updateStatus(s, ref, owner))?.meta.status).toBe('updating')

    s.clock.advance(1)
    await s.engine.runDue()
    const meta = (await updateStatus(s, ref, owner))!.meta
    expect(meta).toEqual({ change_tracking_id, error: null, progress: 'Completed', status: 'updated' })
    const body = await settings(s, ref, owner)
    const secret = body.project.jwt_secret!
    expect(secret).not.toBe(old.jwt_secret)
    expect(secret.length).toBeGreaterThanOrEqual(32)
    expect(keyOf(body, 'anon')).not.toBe(old.anon_key)
    expect(keyOf(body, 'service_role')).not.toBe(old.service_role_key)
    await expectValidKey(keyOf(body, 'anon')!, secret, ref, 'anon')
    await expectValidKey(keyOf(body, 'service_role')!, secret, ref, 'service_role')
    await expectRejected(keyOf(body, 'anon')!, old.jwt_secret)
    await expectRejected(old.service_role_key, secret)
    // The pending secret does not linger once applied.
    const { rows } = await s.db.query<{ n: number }>('select count(*)::int as n from jwt_secret_updates where pending_secret is not null')
    expect(rows[0].n).toBe(0)
  })

  it('a custom secret becomes the secret the keys verify against', async () => {
    const custom = 'my-own-very-long-custom-jwt-secret-0123456789'
    const res = await requestUpdate(s, ref, owner, { jwt_secret: custom })
    expect(res.status).toBe(202)
    s.clock.advance(JWT_UPDATE_MS)
    await s.engine.runDue()
    const body = await settings(s, ref, owner)
    expect(body.project.jwt_secret).toBe(custom)
    await expectValidKey(keyOf(body, 'service_role')!, custom, ref, 'service_role')
    expect(decodeJwt(keyOf(body, 'anon')!).role).toBe('anon')
  })

  it('a custom secret shorter than 32 characters, a non-string or an unknown field is refused with 400 and a message', async () => {
    const short = await requestUpdate(s, ref, owner, { jwt_secret: 'x'.repeat(31) })
    expect(short.status).toBe(400)
    expect(await short.json()).toEqual({ message: 'jwt_secret: The JWT secret must be at least 32 characters long' })
    expect((await requestUpdate(s, ref, owner, { jwt_secret: 42 })).status).toBe(400)
    expect((await requestUpdate(s, ref, owner, { secret: 'x'.repeat(40) })).status).toBe(400)
    const same = await requestUpdate(s, ref, owner, { jwt_secret: (await storedKeys(s, ref)).jwt_secret })
    expect(same.status).toBe(400)
    expect((await same.json()).message).toMatch(/differ/)
    expect((await updateStatus(s, ref, owner))?.meta.status).toBe('updated')
  })

  it('one update at a time: a second request while updating is refused with 409', async () => {
    expect((await requestUpdate(s, ref, owner)).status).toBe(202)
    const second = await requestUpdate(s, ref, owner)
    expect(second.status).toBe(409)
    expect((await second.json()).message).toMatch(/already in progress/)
    s.clock.advance(JWT_UPDATE_MS)
    await s.engine.runDue()
    expect((await updateStatus(s, ref, owner))?.meta.status).toBe('updated')
  })

  it('Developer and Read-only are refused with 403 and nothing changes', async () => {
    const before = await storedKeys(s, ref)
    for (const email of [DEVELOPER, READONLY]) {
      const cookie = await s.signIn(email)
      const res = await requestUpdate(s, ref, cookie)
      expect(res.status).toBe(403)
      expect((await res.json()).message).toMatch(/permission/)
      // They may read the status (it holds no secret).
      expect((await updateStatus(s, ref, cookie))?.meta.status).toBe('updated')
    }
    s.clock.advance(JWT_UPDATE_MS)
    await s.engine.runDue()
    expect(await storedKeys(s, ref)).toEqual(before)
  })

  it('a failed update (development control) leaves the old secret and keys valid, then the next one succeeds', async () => {
    const old = await storedKeys(s, ref)
    const control = await s.request(`/dev/projects/${ref}/fail-next-jwt-update`, { method: 'POST' })
    expect(control.status).toBe(200)
    expect(await control.json()).toEqual({ fail_next_jwt_update: true })
    const res = await requestUpdate(s, ref, owner)
    const { change_tracking_id } = JwtSecretUpdateAccepted.parse(await res.json())
    s.clock.advance(JWT_UPDATE_MS)
    await s.engine.runDue()
    const meta = (await updateStatus(s, ref, owner))!.meta
    expect(meta.change_tracking_id).toBe(change_tracking_id)
    expect(meta.status).toBe('failed')
    expect(meta.error).toMatch(/previous secret and keys remain valid/)
    const body = await settings(s, ref, owner)
    expect(body.project.jwt_secret).toBe(old.jwt_secret)
    await expectValidKey(keyOf(body, 'anon')!, old.jwt_secret, ref, 'anon')
    await expectValidKey(keyOf(body, 'service_role')!, old.jwt_secret, ref, 'service_role')
    expect(await storedKeys(s, ref)).toEqual(old)

    // The switch is used up: the next update goes through.
    expect((await requestUpdate(s, ref, owner)).status).toBe(202)
    s.clock.advance(JWT_UPDATE_MS)
    await s.engine.runDue()
    expect((await updateStatus(s, ref, owner))?.meta.status).toBe('updated')
    expect((await storedKeys(s, ref)).jwt_secret).not.toBe(old.jwt_secret)
  })

  it('an update whose transition is cancelled by a status change from outside ends failed, keeping the old keys', async () => {
    const old = await storedKeys(s, ref)
    expect((await requestUpdate(s, ref, owner)).status).toBe(202)
    await s.request(`/dev/projects/${ref}/status`, json({ status: 'ACTIVE_HEALTHY' }))
    const meta = (await updateStatus(s, ref, owner))!.meta
    expect(meta.status).toBe('failed')
    expect(await storedKeys(s, ref)).toEqual(old)
    expect((await requestUpdate(s, ref, owner)).status).toBe(202)
    s.clock.advance(JWT_UPDATE_MS)
    await s.engine.runDue()
  })

  it('the development control answers 404 for an unknown project and 409 for one without keys', async () => {
    expect((await s.request('/dev/projects/aaaaaaaaaaaaaaaaaaaa/fail-next-jwt-update', { method: 'POST' })).status).toBe(404)
    const { ref: comingUp } = await projectByName(s, 'Inventory Sync') // UNKNOWN: no keys yet
    expect((await s.request(`/dev/projects/${comingUp}/fail-next-jwt-update`, { method: 'POST' })).status).toBe(409)
  })
})

describe('restart durability', () => {
  it('an update requested before a restart is applied after it', async () => {
    const { store, clock } = await createSeededStore({ lifecycle })
    try {
      const first = await startTestServer({ store, clock, config: { lifecycle } })
      const owner = await first.signIn(OWNER)
      const { ref } = await projectByName(first, 'Recipe Box')
      const old = await storedKeys(first, ref)
      expect((await requestUpdate(first, ref, owner, { jwt_secret: 'survives-a-restart-0123456789-abcdefghij' })).status).toBe(202)
      await first.close({ destroy: false })

      clock.advance(JWT_UPDATE_MS)
      const second = await startTestServer({ store, clock, config: { lifecycle } })
      expect(await storedKeys(second, ref)).toEqual(old) // the backfill at start does not touch existing keys
      await second.engine.runDue()
      const cookie = await second.signIn(OWNER)
      expect((await updateStatus(second, ref, cookie))?.meta.status).toBe('updated')
      const stored = await storedKeys(second, ref)
      expect(stored.jwt_secret).toBe('survives-a-restart-0123456789-abcdefghij')
      await expectValidKey(stored.anon_key, stored.jwt_secret, ref, 'anon')
      await second.close({ destroy: false })
    } finally {
      await store.destroy()
    }
  })

  it('projects that existed before the keys migration get keys at start', async () => {
    const { store, clock } = await createSeededStore()
    try {
      const first = await startTestServer({ store, clock })
      const { ref } = await projectByName(first, 'Legacy Blog')
      await first.db.query('delete from project_api_keys')
      await first.close({ destroy: false })
      const second = await startTestServer({ store, clock })
      const stored = await storedKeys(second, ref)
      await expectValidKey(stored.service_role_key, stored.jwt_secret, ref, 'service_role')
      expect(await storedKeys(second, (await projectByName(second, 'Habit Tracker')).ref)).toBeUndefined()
      await second.close({ destroy: false })
    } finally {
      await store.destroy()
    }
  })
})

describe('GET /v1/projects/{ref}/api-keys', () => {
  let s: TestServer
  const tokens: Record<string, string> = {}
  beforeAll(async () => {
    s = await startTestServer()
    for (const email of [OWNER, DEVELOPER, READONLY]) {
      const cookie = await s.signIn(email)
      const res = await s.request('/platform/profile/access-tokens', json({ name: 'keys contract' }, { cookie }))
      tokens[email] = ((await res.json()) as { token: string }).token
    }
  })
  afterAll(() => s?.close())

  function validator() {
    // The response schema as the document states it for this path: an array of ApiKeyResponse.
    return responseValidator('/v1/projects/{ref}/api-keys')
  }

  it('validates against the contract; the Owner gets anon and service_role, which verify', async () => {
    const validate = validator()
    const { ref } = await projectByName(s, 'Recipe Box')
    const res = await s.request(`/v1/projects/${ref}/api-keys`, { headers: { authorization: `Bearer ${tokens[OWNER]}` } })
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true)
    const keys = V1ApiKeyList.parse(body)
    expect(keys.map((k) => k.name)).toEqual(['anon', 'service_role'])
    const stored = await storedKeys(s, ref)
    expect(keys[1].api_key).toBe(stored.service_role_key)
    await expectValidKey(keys[0].api_key!, stored.jwt_secret, ref, 'anon')
    const revealed = await s.request(`/v1/projects/${ref}/api-keys?reveal=true`, { headers: { authorization: `Bearer ${tokens[OWNER]}` } })
    expect(validate(await revealed.json())).toBe(true)
    expect((await s.request(`/v1/projects/${ref}/api-keys?reveal=maybe`, { headers: { authorization: `Bearer ${tokens[OWNER]}` } })).status).toBe(400)
  })

  it.each([DEVELOPER, READONLY])('%s gets the anon key only', async (email) => {
    const validate = validator()
    const { ref } = await projectByName(s, 'Acme Storefront')
    const res = await s.request(`/v1/projects/${ref}/api-keys`, { headers: { authorization: `Bearer ${tokens[email]}` } })
    const text = await res.text()
    expect(validate(JSON.parse(text))).toBe(true)
    expect(V1ApiKeyList.parse(JSON.parse(text)).map((k) => k.name)).toEqual(['anon'])
    const stored = await storedKeys(s, ref)
    expect(text).not.toContain(stored.service_role_key)
    expect(text).not.toContain(stored.jwt_secret)
  })

  it('a project still coming up has no keys yet: an empty list', async () => {
    const { ref } = await projectByName(s, 'Habit Tracker')
    const res = await s.request(`/v1/projects/${ref}/api-keys`, { headers: { authorization: `Bearer ${tokens[OWNER]}` } })
    expect(await res.json()).toEqual([])
  })
})
