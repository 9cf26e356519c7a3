/**
 * The names a new account gets from its e-mail address: a username and its personal organization's slug, both
 * unique (a number is added when taken), both within the contracts' rules (Username, OrgSlug).
 */
import type { Queryable } from '../../db'

/** The e-mail's local part in the characters both rules allow, at least 3 long and at most 32. */
export function baseNameOf(email: string): string {
  const local = email.split('@')[0] ?? ''
  const cleaned = local
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 32)
  return cleaned.length >= 3 ? cleaned : `${cleaned || 'user'}-account`.slice(0, 32)
}

/** The first of `base`, `base-2`, `base-3` … that `taken` does not hold (read in the caller's transaction). */
export async function firstFree(tx: Queryable, sql: string, base: string): Promise<string> {
  const { rows } = await tx.query<{ name: string }>(sql, [`${base}%`])
  const taken = new Set(rows.map((r) => r.name))
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
}

export const TAKEN_USERNAMES = 'select username as name from accounts where username like $1'
export const TAKEN_SLUGS = 'select slug as name from organizations where slug like $1'
