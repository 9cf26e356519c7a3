/**
 * What the tests of the pages made from the settings form share (Settings › Authentication, Realtime › Settings,
 * Settings › API's Data API settings): a settings endpoint on the fake platform (`platformWith`) that keeps what a
 * PATCH sends, and a member's permissions without the one that manages the settings.
 */
import type { Permission } from '../src/contracts/common'
import { ALL_PERMISSIONS, ORGS, jsonResponse, platformWith, type RecordedCall } from './fakePlatform'

export const json = jsonResponse

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
