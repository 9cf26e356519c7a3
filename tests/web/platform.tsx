/**
 * A fake platform for view tests: answers the real HTTP client (ky calls fetch(Request)) from in-memory
 * fixtures, with a session that sign-in opens and sign-out closes. Also renders the real app on a memory location.
 */
import { render } from '@testing-library/react'
import { vi } from 'vitest'
import { memoryLocation } from 'wouter/memory-location'
import { App, type AppProps } from '../../src/app/App'
import type { AccessToken, OrganizationPermissions, Profile } from '../../src/contracts/session'
import type { Permission } from '../../src/contracts/common'
import type { Organization } from '../../src/contracts/organizations'
import type { Project } from '../../src/contracts/projects'
import type { BuildFlags } from '../../src/views/shell/contexts'
import { makeProject } from '../fixtures'

export const ALL_PERMISSIONS: Permission[] = [
  'projects:write',
  'project_auth:all',
  'project_storage:all',
  'project_edge_function:all',
  'realtime:all',
  'service_api_keys:read',
  'infra:execute:project-initialize-or-resume',
]

export const ORGS: Organization[] = [
  { id: 1, slug: 'demo-free', name: 'Demo Free', plan: { id: 'free' }, opt_in_tags: [] },
  { id: 2, slug: 'demo-pro', name: 'Demo Pro', plan: { id: 'pro' }, opt_in_tags: ['AI_SQL'] },
]

export const PROJECTS: Project[] = [
  makeProject({ id: 1, ref: 'abcdefghijklmnopqrst', name: 'Analytics', organization_id: 2, organization_slug: 'demo-pro' }),
  makeProject({ id: 2, ref: 'bcdefghijklmnopqrstu', name: 'Storefront', organization_id: 2, organization_slug: 'demo-pro', region: 'eu-west-1', status: 'INACTIVE' }),
]

export const OWNER: Profile = { id: 1, username: 'owner', primary_email: 'owner@example.com' }

export interface PlatformOptions {
  signedIn?: boolean
  profile?: Profile
  permissions?: OrganizationPermissions[]
  organizations?: Organization[]
  projects?: Project[]
  tokens?: AccessToken[]
  password?: string
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

export function fakePlatform(options: PlatformOptions = {}) {
  const state = {
    signedIn: options.signedIn ?? true,
    profile: options.profile ?? OWNER,
    permissions:
      options.permissions ??
      (options.organizations ?? ORGS).map((org) => ({ organization_id: org.id, organization_slug: org.slug, role: 'Owner' as const, permissions: ALL_PERMISSIONS })),
    organizations: options.organizations ?? ORGS,
    projects: options.projects ?? PROJECTS,
    tokens: options.tokens ?? [],
  }
  const calls: Array<{ method: string; path: string; body?: unknown }> = []

  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init)
    const url = new URL(request.url, 'http://localhost')
    const path = url.pathname
    const method = request.method
    const text = method === 'GET' ? '' : await request.text()
    const body = text ? JSON.parse(text) : undefined
    calls.push({ method, path, body })

    if (path === '/platform/auth/sign-in' && method === 'POST') {
      const { email, password } = body as { email: string; password: string }
      if (email !== state.profile.primary_email || password !== (options.password ?? 'demo1234')) {
        return json({ message: 'Invalid e-mail or password' }, 401)
      }
      state.signedIn = true
      return json(state.profile)
    }
    if (path === '/platform/auth/sign-out' && method === 'POST') {
      state.signedIn = false
      return new Response(null, { status: 204 })
    }
    if (!state.signedIn) return json({ message: 'Not signed in' }, 401)

    const orgMatch = path.match(/^\/platform\/organizations\/([^/]+)(\/billing\/subscription)?$/)
    const projectMatch = path.match(/^\/platform\/projects\/([^/]+)(\/status)?$/)
    if (path === '/platform/profile') return json(state.profile)
    if (path === '/platform/profile/permissions') return json(state.permissions)
    if (path === '/platform/profile/access-tokens' && method === 'GET') return json(state.tokens)
    if (path === '/platform/organizations') return json(state.organizations)
    if (path === '/platform/projects') return json(state.projects)
    if (orgMatch) {
      const org = state.organizations.find((o) => o.slug === orgMatch[1])
      if (!org) return json({ message: 'Organization not found' }, 404)
      return orgMatch[2]
        ? json({ plan: { id: org.plan.id, name: org.plan.id === 'free' ? 'Free' : 'Pro' }, usage_billing_enabled: false })
        : json(org)
    }
    if (projectMatch) {
      const project = state.projects.find((p) => p.ref === projectMatch[1])
      if (!project) return json({ message: 'Project not found' }, 404)
      return projectMatch[2] ? json({ status: project.status }) : json(project)
    }
    return json({ message: `No route for ${method} ${path}` }, 404)
  })

  vi.stubGlobal('fetch', fetchImpl)
  return { state, calls, fetch: fetchImpl }
}

export const PLATFORM_FLAGS: BuildFlags = {
  isPlatform: true,
  isProduction: false,
  features: { auth: true, storage: true, edgeFunctions: true, realtime: true },
}

export function renderApp(path: string, props: Omit<AppProps, 'location'> = {}) {
  const [pathname, search = ''] = path.split('?')
  const location = memoryLocation({ path: pathname, searchPath: search, record: true })
  const utils = render(<App location={location} flags={PLATFORM_FLAGS} {...props} />)
  return { ...utils, location }
}

/** The current path of a memory location. */
export const currentPath = (location: ReturnType<typeof memoryLocation>) => location.hook()[0]
