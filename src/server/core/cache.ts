/**
 * What every authenticated request reads, kept in memory: sessions (by token hash) and a member's project (by account
 * and ref, with the member's role). The store stays the truth; an entry is dropped when the row it copies changes:
 *  - the triggers of migration 008 notify on every change of projects, organizations, members, accounts, and on a
 *    session's end (sign-out, sweep, idle end) — whoever made it: a handler, the lifecycle engine, a development
 *    control, the seed, another process on the same PostgreSQL (LISTEN/NOTIFY, see Db.listen);
 *  - this process's own commits deliver their notifications before the COMMIT resolves, so the answer to a change
 *    is never followed by a stale read here; another process sees it once the notification arrives;
 *  - a fill that raced an invalidation (read before the commit, stored after it) is not stored: every invalidation
 *    moves `generation`, and a fill stores only when `generation` did not move while it read;
 *  - no cache until the store listens, and none while a dropped listening connection is re-established.
 * Session expiry and the idle timeout are checked on every read (src/server/features/session/auth.ts).
 */
import type { Db, Queryable } from '../db'
import type { AccountRow, MemberProjectRow } from './rows'

export interface CachedSession {
  account: AccountRow
  expiresAt: number
  /** The last use recorded in the store (recorded at most once a minute, so it may lag by that much). */
  lastUsedAt: number
}

/** Entries per map; past it the oldest entry goes (a Map iterates in insertion order). */
const MAX_ENTRIES = 20_000

export class PlatformCache {
  private generation = 0
  private listening = false
  private readonly sessions = new Map<string, CachedSession>()
  private readonly memberProjects = new Map<string, MemberProjectRow>()

  /** True once the store delivers change notifications; until then every read goes to the store. */
  get enabled(): boolean {
    return this.listening
  }

  setListening(on: boolean): void {
    this.listening = on
    this.clear()
  }

  /** A notification of migration 008's triggers: `<kind>:<id>`. An unknown one clears everything (safe side). */
  apply(payload: string): void {
    const colon = payload.indexOf(':')
    const kind = payload.slice(0, colon)
    const id = payload.slice(colon + 1)
    switch (kind) {
      case 's':
        return this.invalidateSession(id)
      case 'p':
        return this.invalidateProject(Number(id))
      case 'o':
        return this.invalidateOrganization(Number(id))
      case 'm':
        return this.invalidateMemberships(Number(id))
      case 'a':
        return this.invalidateAccount(Number(id))
      default:
        return this.clear()
    }
  }

  clear(): void {
    this.generation++
    this.sessions.clear()
    this.memberProjects.clear()
  }

  // Sessions

  session(tokenHash: string): CachedSession | undefined {
    return this.listening ? this.sessions.get(tokenHash) : undefined
  }

  /** Reads a session through the cache: `load` runs on a miss; its result is kept unless something changed meanwhile. */
  async loadSession(tokenHash: string, load: () => Promise<CachedSession | undefined>): Promise<CachedSession | undefined> {
    const hit = this.session(tokenHash)
    if (hit) return hit
    const generation = this.generation
    const loaded = await load()
    if (loaded && this.listening && generation === this.generation) put(this.sessions, tokenHash, loaded)
    return loaded
  }

  invalidateSession(tokenHash: string): void {
    this.generation++
    this.sessions.delete(tokenHash)
  }

  invalidateAccount(accountId: number): void {
    this.generation++
    for (const [key, s] of this.sessions) if (s.account.id === accountId) this.sessions.delete(key)
    this.invalidateMemberships(accountId)
  }

  // Projects of members

  /** The member's project when it is in memory (never a store read): the status poll's path on Node (statusPoll.ts). */
  memberProject(accountId: number, ref: string): MemberProjectRow | undefined {
    return this.listening ? this.memberProjects.get(`${accountId}/${ref}`) : undefined
  }

  async loadMemberProject(
    accountId: number,
    ref: string,
    load: () => Promise<MemberProjectRow | undefined>,
  ): Promise<MemberProjectRow | undefined> {
    const key = `${accountId}/${ref}`
    if (this.listening) {
      const hit = this.memberProjects.get(key)
      if (hit) return hit
    }
    const generation = this.generation
    const loaded = await load()
    // Frozen: one object serves many requests, so a handler must not change it.
    if (loaded && this.listening && generation === this.generation) put(this.memberProjects, key, Object.freeze(loaded))
    return loaded
  }

  /** A project's row changed (status, name, keys of its row…) or it is gone. */
  invalidateProject(projectId: number): void {
    this.generation++
    for (const [key, p] of this.memberProjects) if (p.id === projectId) this.memberProjects.delete(key)
  }

  /** An organization changed (its slug is in every project row) or is gone. */
  invalidateOrganization(organizationId: number): void {
    this.generation++
    for (const [key, p] of this.memberProjects) if (p.organization_id === organizationId) this.memberProjects.delete(key)
  }

  /**
   * The one call for a membership change (invitation, role change, removal): the account's cached projects and roles
   * go. The members trigger makes it for every committed change; call it too where a change must be seen before the
   * commit's notification can arrive (it cannot be too early: a fill racing it is not stored).
   */
  invalidateMemberships(accountId: number): void {
    this.generation++
    const prefix = `${accountId}/`
    for (const key of this.memberProjects.keys()) if (key.startsWith(prefix)) this.memberProjects.delete(key)
  }
}

function put<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= MAX_ENTRIES && !map.has(key)) {
    const oldest = map.keys().next()
    if (!oldest.done) map.delete(oldest.value)
  }
  map.set(key, value)
}

const caches = new WeakMap<object, PlatformCache>()

/**
 * The cache of one store handle: every app on the same `Db` shares it (they see the same rows); another handle —
 * another process, or a second pool in this one — has its own, kept right by the notifications.
 * A plain Queryable (a transaction's handle) has no cache: reads inside a transaction go to the store.
 */
export function cacheFor(db: Queryable): PlatformCache | undefined {
  if (!isDb(db)) return undefined
  let cache = caches.get(db)
  if (!cache) {
    const created = new PlatformCache()
    cache = created
    caches.set(db, created)
    db.listen({
      payload: (payload) => created.apply(payload),
      lost: () => created.setListening(false),
      restored: () => created.setListening(true),
    }).then(
      () => created.setListening(true),
      (err: Error) => console.error(`cache: not listening for changes, every read goes to the store: ${err.message}`),
    )
  }
  return cache
}

function isDb(db: Queryable): db is Db {
  return typeof (db as Partial<Db>).listen === 'function'
}
