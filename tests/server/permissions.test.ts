import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PermissionsResponse } from '../../src/contracts/session'
import { Permission, Role } from '../../src/contracts/common'
import { can, permissionsFor } from '../../src/server/core/permissions'
import {
  DEVELOPER,
  OWNER,
  READONLY,
  insertForeignOrganization,
  json,
  projectByName,
  startTestServer,
  type TestServer,
} from './helpers'

const ALL = [...Permission.options].sort()
const DEVELOPER_PERMISSIONS = ALL.filter(
  (p) => p !== 'service_api_keys:read' && p !== 'infra:execute:project-initialize-or-resume' && p !== 'organizations:write',
)

describe('permission derivation', () => {
  it('Owner and Administrator hold every permission', () => {
    expect(permissionsFor('Owner').sort()).toEqual(ALL)
    expect(permissionsFor('Administrator').sort()).toEqual(ALL)
  })
  it('Developer holds all but reading service keys, resuming projects and changing the organization', () => {
    expect(permissionsFor('Developer').sort()).toEqual(DEVELOPER_PERMISSIONS)
    expect(can('Developer', 'service_api_keys:read')).toBe(false)
    expect(can('Developer', 'infra:execute:project-initialize-or-resume')).toBe(false)
    expect(can('Developer', 'projects:write')).toBe(true)
  })
  it('Read-only holds none', () => {
    expect(permissionsFor('Read-only')).toEqual([])
    for (const p of Permission.options) expect(can('Read-only', p)).toBe(false)
  })
  it('every role is covered', () => {
    for (const role of Role.options) expect(Array.isArray(permissionsFor(role))).toBe(true)
  })
})

let s: TestServer
let foreign: { slug: string; ref: string }
beforeAll(async () => {
  s = await startTestServer()
  foreign = await insertForeignOrganization(s.db)
})
afterAll(() => s?.close())

describe('GET /platform/profile/permissions', () => {
  it.each([
    [OWNER, 'Owner', ALL],
    [DEVELOPER, 'Developer', DEVELOPER_PERMISSIONS],
    [READONLY, 'Read-only', []],
  ] as const)('%s is %s in both demo organizations', async (email, role, expected) => {
    const cookie = await s.signIn(email)
    const res = await s.request('/platform/profile/permissions', { headers: { cookie } })
    expect(res.status).toBe(200)
    const entries = PermissionsResponse.parse(await res.json())
    expect(entries.map((e) => e.organization_slug).sort()).toEqual(['demo-free', 'demo-pro'])
    for (const e of entries) {
      expect(e.role).toBe(role)
      expect([...e.permissions].sort()).toEqual(expected)
    }
  })
})

describe('non-members', () => {
  it('get 404 for the organization, its subscription and its project', async () => {
    const cookie = await s.signIn(OWNER)
    for (const path of [
      `/platform/organizations/${foreign.slug}`,
      `/platform/organizations/${foreign.slug}/billing/subscription`,
      `/platform/projects/${foreign.ref}`,
      `/platform/projects/${foreign.ref}/status`,
      `/v1/projects/${foreign.ref}`,
    ]) {
      const res = await s.request(path, { headers: { cookie } })
      expect(res.status, path).toBe(404)
      expect(await res.json(), path).toHaveProperty('message')
    }
  })

  it('do not see it in lists', async () => {
    const cookie = await s.signIn(OWNER)
    const orgs = (await (await s.request('/platform/organizations', { headers: { cookie } })).json()) as {
      slug: string
    }[]
    expect(orgs.map((o) => o.slug)).not.toContain(foreign.slug)
    const projects = (await (await s.request('/platform/projects', { headers: { cookie } })).json()) as {
      ref: string
    }[]
    expect(projects.map((p) => p.ref)).not.toContain(foreign.ref)
  })
})

describe('changing a project (projects:write)', () => {
  it('Read-only is refused with 403 and nothing changes', async () => {
    const { ref } = await projectByName(s, 'Recipe Box')
    const cookie = await s.signIn(READONLY)
    const res = await s.request(`/platform/projects/${ref}`, { ...json({ name: 'Hacked' }, { cookie }), method: 'PATCH' })
    expect(res.status).toBe(403)
    expect((await res.json()).message).toMatch(/permission/)
    const detail = await s.request(`/platform/projects/${ref}`, { headers: { cookie } })
    expect((await detail.json()).name).toBe('Recipe Box')
  })

  it('Developer may rename', async () => {
    const { ref } = await projectByName(s, 'Acme Storefront')
    const cookie = await s.signIn(DEVELOPER)
    const res = await s.request(`/platform/projects/${ref}`, {
      ...json({ name: 'Acme Shop' }, { cookie }),
      method: 'PATCH',
    })
    expect(res.status).toBe(200)
    expect((await res.json()).name).toBe('Acme Shop')
  })

  it('a non-member gets 404, not 403', async () => {
    const cookie = await s.signIn(OWNER)
    const res = await s.request(`/platform/projects/${foreign.ref}`, { ...json({ name: 'x' }, { cookie }), method: 'PATCH' })
    expect(res.status).toBe(404)
  })
})
