/**
 * The engine-independent half of ProjectDatabases: at most `maxOpen` open databases (least recently used closes
 * first, an idle one closes after `idleMs`), one transaction at a time per project, the BEGIN / role / claims /
 * COMMIT frame around the caller's function, and the query time-out (past it the project's session is killed: on
 * PGlite its process is ended, since PGlite cannot cancel a statement).
 * The engines (pglite.ts, postgres.ts) only open sessions and create, find and drop databases.
 *
 * The open slots are shared fairly between tenants (a project's organization, told by `tenant`):
 *  - a tenant always may close its own idle databases, least recently used first;
 *  - another tenant's idle database may be closed only when it is not protected: a tenant's `share` most recently
 *    used open databases are protected while used within `minResidencyMs`, where `share` is the slots divided by
 *    the tenants holding or waiting for one (at least 1). So a tenant cycling many projects recycles its own slots
 *    and cannot close the warm databases of others, and one holding more than its share gives the excess up;
 *  - waiting callers are served fewest-held-slots first, then in arrival order;
 *  - a caller that would wait for a slot longer than `slotWaitMs` is refused with 'database_busy' (and a retry
 *    time) instead of stalling; the platform's own work (`platform`) waits as long as it takes.
 */
import {
  ProjectDbError,
  type LeaseOptions,
  type ProjectDatabases,
  type ProjectQueryResult,
  type ProjectTx,
  type RawLease,
  type TransactionOptions,
} from './types'

/** One open connection to one project's database. */
export interface Session {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<ProjectQueryResult<R>>
  exec(sql: string): Promise<ProjectQueryResult[]>
  /** Graceful close. */
  close(): Promise<void>
  /** Stops it at once (a statement past its time-out); whatever it was doing is rolled back. */
  kill(): Promise<void>
  /** Wire-protocol bytes in, the backend's bytes out (PGlite's execProtocolRaw): the Postgres port's clients. */
  raw?(bytes: Uint8Array): Promise<Uint8Array>
}

export interface Backend {
  readonly kind: 'pglite' | 'postgres'
  /** `lost` is called if the session ends by itself (its process or connection died). */
  open(ref: string, lost: () => void): Promise<Session>
  /** Idempotent; builds the database where it does not count as existing, then makes it exist in one step. */
  create(ref: string, schemaSql?: string): Promise<void>
  exists(ref: string): Promise<boolean>
  /** The database is closed when this runs. */
  drop(ref: string): Promise<void>
  serverVersion(): Promise<string>
  /** Makes the template ready (idempotent; shared with create). */
  prepare(): Promise<void>
  /** Statements run right after BEGIN to bound the transaction on the server itself (Postgres). */
  timeoutSql?(ms: number): string
  /** Extra time the manager waits past the time-out before killing the session (the server's own time-out first). */
  readonly killGraceMs: number
  /** NOTIFY on `channel` of a project's database (ProjectDatabases.listen). */
  listen?(ref: string, channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>
  /**
   * Where the platform LISTENs in the session the Postgres port's clients share (PGlite: realtime's change capture):
   * the LISTEN statements run again each time a client's state is discarded, since `discard all` (and a client's own
   * UNLISTEN) drops them with the client's.
   */
  readonly sessionListenSql?: string
  /** Releases what the engine holds besides sessions (admin connections). */
  end(): Promise<void>
  /** ProjectDatabases.setDatabaseSettings, with the database closed. */
  setSettings?(ref: string, settings: Record<string, string>): Promise<void>
}

export interface ManagerOptions {
  maxOpen: number
  idleMs: number
  queryTimeoutMs: number
  /** Longest wait for a slot before 'database_busy' (default: no bound). */
  slotWaitMs?: number
  /** How long after its last use a database within its tenant's share is kept from other tenants (default 0). */
  minResidencyMs?: number
}

interface OpenDb {
  ref: string
  session: Session
  lastUsed: number
  /**
   * When it was last used, in the order of uses: two uses within one millisecond have one `lastUsed`, and the
   * least-recently-used choice must still tell them apart.
   */
  useOrder: number
  busy: number
  tenant: string
  /** The Postgres port's client that used the session last (undefined: the platform's own transactions). */
  lastOwner?: object
}

/** What a client of the Postgres port may have left in the one session: gone before anyone else uses it. */
const DISCARD_SESSION = 'discard all'

/** A caller waiting for a slot: woken whenever one may have come free. */
interface Waiter {
  tenant: string
  since: number
  wake: () => void
}

/** The tenant of callers that name none (tests of the engine alone, tools): one tenant, plain LRU. */
const NO_TENANT = ''

/** Postgres's own errors keep their SQLSTATE; a statement the server stopped on its time-out is 'query_timeout'. */
export function toProjectDbError(err: unknown): ProjectDbError {
  if (err instanceof ProjectDbError) return err
  const e = (err ?? {}) as { message?: unknown; code?: unknown; position?: unknown; detail?: unknown; hint?: unknown }
  const message = typeof e.message === 'string' ? e.message : String(err)
  const code = typeof e.code === 'string' && e.code ? e.code : 'database_error'
  if (code === '57014') return new ProjectDbError('canceling statement due to statement timeout', { code: 'query_timeout' })
  const position = e.position === undefined || e.position === null || e.position === '' ? undefined : Number(e.position)
  return new ProjectDbError(message, {
    code,
    position: Number.isFinite(position) ? position : undefined,
    detail: typeof e.detail === 'string' ? e.detail : undefined,
    hint: typeof e.hint === 'string' ? e.hint : undefined,
  })
}

const REF = /^[a-z0-9_]{1,40}$/
export function checkRef(ref: string): void {
  if (!REF.test(ref)) throw new ProjectDbError(`invalid project ref '${ref}'`, { code: 'invalid_ref' })
}

export class DatabaseManager implements ProjectDatabases {
  readonly kind: 'pglite' | 'postgres'
  private readonly opens = new Map<string, OpenDb>()
  /** Closes in progress: a database is never opened again before its previous session has closed. */
  private readonly closing = new Map<string, Promise<void>>()
  /** Slots taken by opens (and schema runs) in progress. */
  private reserved = 0
  /** The last `useOrder` given. */
  private uses = 0
  private waiters: Waiter[] = []
  /** Each ref's tenant as last told; the platform's own work on a ref names none and counts for it. */
  private readonly tenants = new Map<string, string>()
  /** Each project's chain of operations (transactions, create, close, drop): one at a time. */
  private readonly chains = new Map<string, Promise<unknown>>()
  private readonly sweeper: ReturnType<typeof setInterval>
  private ended = false

  constructor(
    private readonly backend: Backend,
    private readonly opts: ManagerOptions,
  ) {
    this.kind = backend.kind
    this.sweeper = setInterval(() => void this.closeIdle(), Math.max(50, Math.min(opts.idleMs / 2, 30_000)))
    this.sweeper.unref()
  }

  openRefs(): string[] {
    return [...this.opens.keys()]
  }

  async exists(ref: string): Promise<boolean> {
    checkRef(ref)
    return this.backend.exists(ref)
  }

  serverVersion(): Promise<string> {
    return this.backend.serverVersion()
  }

  prepare(): Promise<void> {
    return this.backend.prepare()
  }

  listen(ref: string, channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    if (!this.backend.listen) throw new ProjectDbError('this engine cannot listen for notifications', { code: 'database_unavailable' })
    return this.backend.listen(ref, channel, onPayload)
  }

  async create(ref: string, opts: { schemaSql?: string; tenant?: string } = {}): Promise<void> {
    checkRef(ref)
    const tenant = this.tenantFor(ref, opts.tenant)
    return this.serial(ref, async () => {
      if (await this.backend.exists(ref)) return
      // Running a schema opens the new database for a moment: it takes a slot like any open database.
      if (!opts.schemaSql) return this.backend.create(ref)
      await this.reserveSlot(tenant, false)
      try {
        await this.backend.create(ref, opts.schemaSql)
      } finally {
        this.reserved--
        this.wake()
      }
    })
  }

  async transaction<T>(ref: string, opts: TransactionOptions, fn: (tx: ProjectTx) => Promise<T>): Promise<T> {
    checkRef(ref)
    return this.serial(ref, () => this.run(ref, opts, fn))
  }

  async close(ref: string): Promise<void> {
    checkRef(ref)
    return this.serial(ref, async () => {
      const open = this.opens.get(ref)
      if (open) await this.closeOpen(open)
      await this.closing.get(ref)
    })
  }

  async setDatabaseSettings(ref: string, settings: Record<string, string>): Promise<void> {
    checkRef(ref)
    for (const name of Object.keys(settings)) {
      if (!/^[a-z_]+$/.test(name)) throw new ProjectDbError(`invalid setting name '${name}'`, { code: 'database_error' })
    }
    const backend = this.backend
    if (!backend.setSettings) throw new ProjectDbError('this engine sets no database settings', { code: 'database_unavailable' })
    return this.serial(ref, async () => {
      const open = this.opens.get(ref)
      if (open) await this.closeOpen(open)
      await this.closing.get(ref)
      await backend.setSettings!(ref, settings)
    })
  }

  async drop(ref: string): Promise<void> {
    checkRef(ref)
    this.tenants.delete(ref)
    return this.serial(ref, async () => {
      const open = this.opens.get(ref)
      if (open) await this.closeOpen(open)
      await this.closing.get(ref)
      await this.backend.drop(ref)
    })
  }

  /**
   * Lends the project's session to a client of the Postgres port, in the project's turn like a transaction; refused
   * with 'database_busy' when the turn does not come within `waitMs` (another client holds a transaction open).
   */
  lease(ref: string, opts: LeaseOptions): Promise<RawLease> {
    checkRef(ref)
    return new Promise<RawLease>((resolve, reject) => {
      let gaveUp = false
      const timer = setTimeout(() => {
        gaveUp = true
        reject(
          new ProjectDbError(`another session of this project held its database for more than ${opts.waitMs} ms`, {
            code: 'database_busy',
            retryAfterSeconds: 1,
          }),
        )
      }, opts.waitMs)
      void this.serial(ref, async () => {
        if (gaveUp) return
        // The turn came: the bound was on waiting for it. Opening the database (seconds on a busy machine) is not
        // another session holding it, and has its own bounds.
        clearTimeout(timer)
        let open: OpenDb
        try {
          open = await this.acquire(ref, { tenant: opts.tenant })
        } catch (err) {
          clearTimeout(timer)
          reject(err)
          return
        }
        let released!: () => void
        const done = new Promise<void>((r) => (released = r))
        try {
          const { session } = open
          if (!session.raw) throw new ProjectDbError('this engine has no wire-protocol session', { code: 'database_unavailable' })
          if (gaveUp) return
          if (open.lastOwner !== opts.owner) {
            await this.discardClientState(session)
            if (opts.prelude) await session.exec(opts.prelude)
            open.lastOwner = opts.owner
          }
          clearTimeout(timer)
          if (gaveUp) return
          const raw = session.raw.bind(session)
          const timeoutMs = this.opts.queryTimeoutMs
          let over = false
          resolve({
            raw: async (bytes) => {
              if (over) throw new ProjectDbError('the lease is over', { code: 'transaction_closed' })
              let killer: ReturnType<typeof setTimeout> | undefined
              const stopped = new Promise<never>((_, rej) => {
                killer = setTimeout(() => {
                  rej(new ProjectDbError(`the statement ran past its time-out of ${timeoutMs} ms and was stopped`, { code: 'query_timeout' }))
                  void this.closeOpen(open, 'kill')
                }, timeoutMs)
              })
              stopped.catch(() => {})
              try {
                return await Promise.race([raw(bytes), stopped])
              } catch (err) {
                throw toProjectDbError(err)
              } finally {
                clearTimeout(killer)
              }
            },
            cancel: () => {
              if (!over) void this.closeOpen(open, 'kill')
            },
            release: () => {
              over = true
              released()
            },
          })
          await done
        } catch (err) {
          clearTimeout(timer)
          if (!gaveUp) reject(toProjectDbError(err))
        } finally {
          open.busy--
          this.touch(open)
          this.wake()
        }
      })
    })
  }

  async closeAll(): Promise<void> {
    this.ended = true
    clearInterval(this.sweeper)
    await Promise.all([...this.opens.values()].map((o) => this.closeOpen(o)))
    await Promise.all(this.closing.values())
    await this.backend.end()
  }

  private serial<T>(ref: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.chains.get(ref) ?? Promise.resolve()
    const next = prev.catch(() => {}).then(fn)
    const settled = next.catch(() => {})
    this.chains.set(ref, settled)
    void settled.then(() => {
      if (this.chains.get(ref) === settled) this.chains.delete(ref)
    })
    return next
  }

  private tenantFor(ref: string, told: string | undefined): string {
    if (told !== undefined) this.tenants.set(ref, told)
    return this.tenants.get(ref) ?? NO_TENANT
  }

  private held(tenant: string): number {
    let n = 0
    for (const o of this.opens.values()) if (o.tenant === tenant) n++
    return n
  }

  /** Wakes every waiter, those whose tenant holds the fewest slots first (each then takes what is free in turn). */
  private wake(): void {
    const waiters = this.waiters
    this.waiters = []
    const held = new Map<string, number>()
    const heldBy = (t: string) => held.get(t) ?? held.set(t, this.held(t)).get(t)!
    waiters.sort((a, b) => heldBy(a.tenant) - heldBy(b.tenant) || a.since - b.since)
    for (const w of waiters) w.wake()
  }

  /**
   * The open databases another tenant may not close for `tenant` now, and when the first of them stops being
   * protected (ms from now; Infinity when none is).
   */
  private protectedFrom(tenant: string, now: number): { shielded: Set<OpenDb>; firstExpiry: number } {
    const residency = this.opts.minResidencyMs ?? 0
    const shielded = new Set<OpenDb>()
    let firstExpiry = Infinity
    if (residency <= 0) return { shielded, firstExpiry }
    const byTenant = new Map<string, OpenDb[]>()
    for (const o of this.opens.values()) {
      if (o.tenant === tenant) continue
      const list = byTenant.get(o.tenant) ?? []
      list.push(o)
      byTenant.set(o.tenant, list)
    }
    const contenders = new Set([tenant, ...byTenant.keys(), ...this.waiters.map((w) => w.tenant)])
    const share = Math.max(1, Math.floor(this.opts.maxOpen / contenders.size))
    for (const list of byTenant.values()) {
      list.sort((a, b) => (b.busy > 0 ? 1 : 0) - (a.busy > 0 ? 1 : 0) || b.useOrder - a.useOrder)
      for (const o of list.slice(0, share)) {
        const left = o.lastUsed + residency - now
        if (o.busy > 0 || left > 0) {
          shielded.add(o)
          if (o.busy === 0) firstExpiry = Math.min(firstExpiry, left)
        }
      }
    }
    return { shielded, firstExpiry }
  }

  /**
   * Takes a slot for a database of `tenant`: a free one, or the one an idle database it may close frees (the least
   * recently used of its own and of others' unprotected ones). Otherwise waits, at most `slotWaitMs` unless `patient`.
   */
  private async reserveSlot(tenant: string, patient: boolean): Promise<void> {
    const since = Date.now()
    const bound = patient ? Infinity : (this.opts.slotWaitMs ?? Infinity)
    for (;;) {
      if (this.ended) throw new ProjectDbError('the project databases are shut down', { code: 'database_unavailable' })
      if (this.opens.size + this.reserved < this.opts.maxOpen) {
        this.reserved++
        return
      }
      const now = Date.now()
      const { shielded, firstExpiry } = this.protectedFrom(tenant, now)
      const victim = [...this.opens.values()]
        .filter((o) => o.busy === 0 && (o.tenant === tenant || !shielded.has(o)))
        .sort((a, b) => a.useOrder - b.useOrder)[0]
      if (victim) {
        // The slot it frees is this caller's at once: no other waiter takes it while the session closes.
        this.reserved++
        await this.closeOpen(victim)
        return
      }
      const left = since + bound - now
      if (left <= 0) throw this.busy(firstExpiry)
      // Woken when a slot may have come free, or when the first protection ends (time alone frees nothing else).
      await new Promise<void>((resolve) => {
        const waiter: Waiter = {
          tenant,
          since,
          wake: () => {
            clearTimeout(timer)
            resolve()
          },
        }
        const ms = Math.min(left, firstExpiry + 1)
        const timer = Number.isFinite(ms)
          ? setTimeout(() => {
              this.waiters = this.waiters.filter((w) => w !== waiter)
              resolve()
            }, ms)
          : undefined
        this.waiters.push(waiter)
      })
    }
  }

  /** The refusal of a caller whose wait for a slot ran out; it may try again once a protection has ended. */
  private busy(firstExpiry: number): ProjectDbError {
    const retryAfterSeconds = Number.isFinite(firstExpiry) ? Math.max(1, Math.ceil(firstExpiry / 1000)) : 1
    return new ProjectDbError(
      `all ${this.opts.maxOpen} project database slots are in use by other projects; try again in ${retryAfterSeconds} s`,
      { code: 'database_busy', retryAfterSeconds, hint: 'Retry after the time the Retry-After header gives' },
    )
  }

  /** What a Postgres-port client left in the session goes; the platform's own LISTENs come back. */
  private async discardClientState(session: Session): Promise<void> {
    await session.exec(DISCARD_SESSION)
    if (this.backend.sessionListenSql) await session.exec(this.backend.sessionListenSql)
  }

  private async acquire(ref: string, opts: TransactionOptions = {}): Promise<OpenDb> {
    if (this.ended) throw new ProjectDbError('the project databases are shut down', { code: 'database_unavailable' })
    const tenant = this.tenantFor(ref, opts.tenant)
    let open = this.opens.get(ref)
    if (!open) {
      await this.closing.get(ref)
      await this.reserveSlot(tenant, opts.platform === true)
      try {
        // A session that dies by itself (process or connection gone) leaves the open set; the next use reopens.
        const lost = () => {
          const current = this.opens.get(ref)
          if (current && current.session === session) void this.closeOpen(current, 'kill')
        }
        const session: Session = await this.backend.open(ref, lost).catch((err: unknown) => {
          const cause = toProjectDbError(err)
          throw cause.code === 'database_unavailable'
            ? cause
            : new ProjectDbError(`the project's database could not be opened: ${cause.message}`, { code: 'database_unavailable' })
        })
        open = { ref, session, lastUsed: Date.now(), useOrder: ++this.uses, busy: 0, tenant }
        this.opens.set(ref, open)
      } finally {
        this.reserved--
        this.wake()
      }
    }
    open.busy++
    this.touch(open)
    return open
  }

  private touch(open: OpenDb) {
    open.lastUsed = Date.now()
    open.useOrder = ++this.uses
  }

  /** Takes the database out of the open set at once; its session closes in the background of `closing`. */
  private closeOpen(open: OpenDb, how: 'close' | 'kill' = 'close'): Promise<void> {
    if (this.opens.get(open.ref) !== open) return this.closing.get(open.ref) ?? Promise.resolve()
    this.opens.delete(open.ref)
    const previous = this.closing.get(open.ref) ?? Promise.resolve()
    const done = previous
      .then(() => (how === 'kill' ? open.session.kill() : open.session.close()))
      .catch(() => {})
      .finally(() => {
        if (this.closing.get(open.ref) === done) this.closing.delete(open.ref)
        this.wake()
      })
    this.closing.set(open.ref, done)
    return done
  }

  private async closeIdle(): Promise<void> {
    const now = Date.now()
    for (const open of [...this.opens.values()]) {
      if (open.busy === 0 && now - open.lastUsed >= this.opts.idleMs) await this.closeOpen(open)
    }
  }

  private async run<T>(ref: string, opts: TransactionOptions, fn: (tx: ProjectTx) => Promise<T>): Promise<T> {
    const open = await this.acquire(ref, opts)
    const { session } = open
    const timeoutMs = opts.timeoutMs ?? this.opts.queryTimeoutMs
    let finished = false
    let timedOut = false
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true
        reject(new ProjectDbError(`the transaction ran past its time-out of ${timeoutMs} ms and was stopped`, { code: 'query_timeout' }))
        void this.closeOpen(open, 'kill')
      }, timeoutMs + this.backend.killGraceMs)
    })
    timeout.catch(() => {})
    const guard = async <R>(p: Promise<R>): Promise<R> => {
      try {
        return await Promise.race([p, timeout])
      } catch (err) {
        if (timedOut) throw await timeout.catch((e: unknown) => e)
        throw err instanceof CallerError ? err : toProjectDbError(err)
      }
    }
    const live = () => {
      if (finished) throw new ProjectDbError('the transaction is over', { code: 'transaction_closed' })
    }
    const tx: ProjectTx = {
      query: <R,>(sql: string, params?: unknown[]) => {
        live()
        return guard(session.query<R>(sql, params))
      },
      exec: (sql) => {
        live()
        return guard(session.exec(sql))
      },
    }
    try {
      if (open.lastOwner) {
        await guard(this.discardClientState(session))
        open.lastOwner = undefined
      }
      const role = opts.role ?? 'postgres'
      let begin = `begin${opts.repeatableRead ? ' isolation level repeatable read' : ''}${opts.readOnly ? ' read only' : ''};`
      if (role !== 'postgres') begin += ` set local role ${role};`
      if (this.backend.timeoutSql) begin += this.backend.timeoutSql(timeoutMs)
      await guard(session.exec(begin))
      await guard(session.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(opts.claims ?? {})]))
      const value = await guard(fn(tx).then((v) => v, (err: unknown) => Promise.reject(new CallerError(err))))
      await guard(session.exec(`commit; ${RESET_SESSION}`))
      return value
    } catch (err) {
      if (!timedOut) await session.exec(`rollback; ${RESET_SESSION}`).catch(() => {})
      if (err instanceof CallerError) throw err.cause
      throw err
    } finally {
      finished = true
      clearTimeout(timer)
      open.busy--
      this.touch(open)
      this.wake()
    }
  }
}

/**
 * Run after each transaction: what a statement may have set for the session (SET ROLE, SET SESSION AUTHORIZATION,
 * settings, temporary tables) never reaches the next transaction, which may run as another role.
 */
const RESET_SESSION = 'set session authorization default; reset all; discard temp;'

/** An error thrown by the caller's function passes through as it is (guard would otherwise map it). */
class CallerError extends Error {
  constructor(readonly cause: unknown) {
    super('caller error')
  }
}
