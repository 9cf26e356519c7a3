/**
 * The names a new account gets from its e-mail address: a username and its personal organization's slug, both
 * unique (a number is added when taken), both within the contracts' rules (Username, OrgSlug).
 */

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

/**
 * The first of `base`, `base-2`, `base-3` … that is not taken; `takenLike` reads the names matching a LIKE pattern
 * (in the caller's transaction).
 */
export async function firstFree(takenLike: (pattern: string) => Promise<string[]>, base: string): Promise<string> {
  const taken = new Set(await takenLike(`${base}%`))
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
}
