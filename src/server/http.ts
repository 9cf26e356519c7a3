/** Shared pieces of the HTTP layer: the Hono env type, request validation, error answers. */
import { zValidator } from '@hono/zod-validator'
import type { Context, ValidationTargets } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import type { z } from 'zod'
import type { AccountRow } from './store'

export type AppEnv = {
  Variables: {
    account: AccountRow
    /** How this request was authenticated. */
    authVia: 'cookie' | 'bearer'
  }
}

/** Turns zod issues into one readable sentence. Path parameters speak for themselves ('Project ref is required'). */
export function formatIssues(issues: readonly z.core.$ZodIssue[], target: keyof ValidationTargets): string {
  return issues
    .map((issue) => {
      const where = issue.path.map(String).join('.')
      return target === 'param' || !where ? issue.message : `${where}: ${issue.message}`
    })
    .join('; ')
}

/** zod validation of one part of the request; a failure answers 400 `{ message }`. */
export function validate<Target extends keyof ValidationTargets, Schema extends z.ZodType>(
  target: Target,
  schema: Schema,
) {
  return zValidator(target, schema, (result, c) => {
    if (!result.success) return c.json({ message: formatIssues(result.error.issues, target) }, 400)
  })
}

export function errorJson(c: Context, status: ContentfulStatusCode, message: string, code?: string) {
  return c.json(code ? { message, code } : { message }, status)
}

export const API_PREFIXES = ['/platform', '/v1', '/dev'] as const
export function isApiPath(path: string): boolean {
  return API_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))
}
