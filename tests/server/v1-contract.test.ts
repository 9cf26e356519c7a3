/** GET /v1/projects against the Management API's own OpenAPI document (OpenAPI 3.0, `nullable`). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { V1ProjectList } from '../../src/contracts/v1'
import { OWNER, projectByName, startTestServer, type TestServer } from './helpers'
import { validatorFor } from './openapi'

let s: TestServer
let token: string
beforeAll(async () => {
  s = await startTestServer()
  const cookie = await s.signIn(OWNER)
  const res = await s.request('/platform/profile/access-tokens', {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'contract test' }),
  })
  token = ((await res.json()) as { token: string }).token
})
afterAll(() => s?.close())

describe('GET /v1/projects', () => {
  it('every item validates against V1ProjectWithDatabaseResponse', async () => {
    const validate = validatorFor('V1ProjectWithDatabaseResponse')
    const res = await s.request('/v1/projects', { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    const items = (await res.json()) as unknown[]
    expect(items.length).toBeGreaterThanOrEqual(11)
    for (const item of items) {
      const ok = validate(item)
      expect(validate.errors ?? [], JSON.stringify(item)).toEqual([])
      expect(ok).toBe(true)
    }
    V1ProjectList.parse(items)
  })

  it('maps RESTORATION_FAILED to RESTORE_FAILED and reports the engine', async () => {
    const items = V1ProjectList.parse(
      await (await s.request('/v1/projects', { headers: { authorization: `Bearer ${token}` } })).json(),
    )
    const failed = items.find((p) => p.name === 'Support Desk')
    expect(failed?.status).toBe('RESTORE_FAILED')
    const legacy = items.find((p) => p.name === 'Legacy Blog')
    expect(legacy?.database).toMatchObject({ version: '14.1', postgres_engine: '14', release_channel: 'ga' })
    expect(typeof legacy?.organization_id).toBe('string')
  })

  it('GET /v1/projects/{ref} answers the same item shape; unknown → 404; bad ref → 400', async () => {
    const validate = validatorFor('V1ProjectWithDatabaseResponse')
    const { ref } = await projectByName(s, 'Recipe Box')
    const auth = { authorization: `Bearer ${token}` }
    const res = await s.request(`/v1/projects/${ref}`, { headers: auth })
    expect(res.status).toBe(200)
    const item = await res.json()
    expect(validate(item), JSON.stringify(validate.errors)).toBe(true)
    expect((await s.request('/v1/projects/aaaaaaaaaaaaaaaaaaaa', { headers: auth })).status).toBe(404)
    const bad = await s.request('/v1/projects/Bad_Ref', { headers: auth })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ message: 'Project ref is required' })
  })
})
