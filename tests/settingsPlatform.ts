/**
 * What the tests of the pages made from the settings form share (Settings › Authentication, Realtime › Settings,
 * Settings › API's Data API settings): the fake platform plus a page's own routes, a settings endpoint that keeps what
 * a PATCH sends, and a member's permissions without the one that manages the settings.
 */
import { vi } from 'vitest'
import type { Permission } from '../src/contracts/common'
import { ALL_PERMISSIONS, ORGS, fakePlatform } from './fakePlatform'

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

export interface RecordedCall {
  method: string
  path: string
  body: unknown
}

/**
 * The fake platform plus a page's routes (undefined: the fake platform's answer). Returns the requests the routes
 * answered, in order.
 */
export function platformWith(options: Parameters<typeof fakePlatform>[0], routes: (method: string, path: string, body: unknown) => Response | undefined): RecordedCall[] {
  const platform = fakePlatform(options)
  const calls: RecordedCall[] = []
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(new URL(String(input), 'http://localhost'), init)
    const path = new URL(request.url, 'http://localhost').pathname
    const text = request.method === 'GET' ? '' : await request.clone().text()
    const body = text ? JSON.parse(text) : undefined
    const answer = routes(request.method, path, body)
    if (answer === undefined) return platform.fetch(request)
    calls.push({ method: request.method, path, body })
    return answer
  })
  return calls
}

/**
 * The fake platform with a settings endpoint at `path` that starts at `initial` and keeps what each PATCH sends; a
 * PATCH is answered with the settings then kept, or with 204 and no body (as config/realtime answers).
 */
export function platformKeepingSettings<Settings extends object>(path: string, initial: Settings, patchAnswer: 'settings' | 'no content'): RecordedCall[] {
  let saved = initial
  return platformWith({}, (method, requested, body) => {
    if (requested !== path) return undefined
    if (method === 'PATCH') {
      saved = { ...saved, ...(body as Partial<Settings>) }
      if (patchAnswer === 'no content') return new Response(null, { status: 204 })
    }
    return json(saved)
  })
}

/** A Read-only member of every organization, with every permission but `without`. */
export const readOnlyWithout = (...without: Permission[]) =>
  ORGS.map((org) => ({
    organization_id: org.id,
    organization_slug: org.slug,
    role: 'Read-only' as const,
    permissions: ALL_PERMISSIONS.filter((p) => !without.includes(p)),
  }))
