/**
 * postgres_changes of one project on this process. Change capture is triggers + NOTIFY on both stores:
 *  - PGlite has no logical replication at all (one single-user session, no walsender), so triggers are its only way;
 *    its process LISTENs and hands each notification over (projectdb/pglite.ts);
 *  - on PostgreSQL, logical decoding would need a replication slot per project database (a superuser or a
 *    REPLICATION role, `wal_level = logical`, and a slot that holds WAL while nobody reads it), where triggers need
 *    nothing the project role lacks: one dedicated listening connection per project database (projectdb/postgres.ts).
 *    NOTIFY also reaches every platform process listening on that database, so a change made through one process
 *    reaches subscribers on all of them.
 * NOTIFY is sent at COMMIT (a rolled-back change is never announced) in commit order.
 * The trigger (`realtime.capture_change`, schema realtime) is put on a table when a subscriber asks for it, and
 * announces a change only while the table is in the `supabase_realtime` publication. A schema-wide subscription
 * (no table, or `table: '*'`) puts it on every table of the schema, so a table published later is captured from the
 * moment it is published; a table created after the join is found by a look at the catalog (never at the tables)
 * every `rescanMs` while such a subscription exists. (An event trigger would see it at once, but creating one needs
 * a superuser, which a project's role on PostgreSQL is not.) Each change is delivered only to
 * subscribers whose role may SELECT that row: checked in the project database as the subscriber (its role and
 * claims, so RLS policies decide). A delete is not checked (the row is gone), as on the platform; of a table under row
 * level security its old record then carries only the primary key.
 */
import type { Caller } from '../../gateway'
import type { ProjectDatabases } from '../../projectdb/types'
import { REALTIME_CHANGES_CHANNEL } from '../../projectdb/realtimeSchema'
import { FilterError, matches, parseFilter, type Filter } from './filters'
import type { ChangeFeedLike, ChangeSubscription, ChannelMember, FeedProject } from './types'
import { ChangedRow, installCaptureTrigger, subscribedTables, tableColumns } from './store'

interface TableInfo {
  columns: { name: string; type: string }[]
  /** Columns a row can be written back with (not generated). */
  writable: string[]
  rls: boolean
}

interface Change {
  schema: string
  table: string
  type: 'INSERT' | 'UPDATE' | 'DELETE'
  commit_timestamp: string
  record: Record<string, unknown> | null
  old_record: Record<string, unknown> | null
  keys: Record<string, unknown>
  errors: string[] | null
}

let nextId = 1

const unableToSubscribe = (w: Record<string, unknown>, why: string) =>
  new Error(
    `Unable to subscribe to changes with given parameters. ${why} [event: ${String(w.event)}, schema: ${String(w.schema)}, table: ${String(w.table ?? '*')}, filters: [${w.filter ? String(w.filter).slice(0, 200) : ''}]]`,
  )

export class ChangeFeed implements ChangeFeedLike {
  private unlisten?: Promise<(() => Promise<void>) | undefined>
  private readonly tables = new Map<string, TableInfo>()
  private queue: Promise<void> = Promise.resolve()
  private pending = 0
  /** Changes waiting to be delivered past which new ones are dropped (a burst the subscribers cannot follow). */
  static readonly MAX_PENDING = 10_000
  dropped = 0

  /** Tables this feed put its trigger on (`schema.table`). */
  private readonly captured = new Set<string>()
  /** Schema-wide subscriptions open, by schema ('*': every schema). */
  private readonly wide = new Map<string, number>()
  private rescanTimer?: NodeJS.Timeout
  private rescanning?: Promise<void>

  constructor(
    private readonly project: FeedProject,
    private readonly projectDbs: Pick<ProjectDatabases, 'listen'>,
    private readonly rescanMs = 1_000,
  ) {}

  private get gateway() {
    return this.project.gateway
  }

  /** Checks a join's postgres_changes, puts the capture trigger on their tables, and starts listening. */
  async subscribe(wanted: Record<string, unknown>[]): Promise<ChangeSubscription[]> {
    const subs: ChangeSubscription[] = []
    for (const w of wanted) {
      const schema = String(w.schema)
      const table = typeof w.table === 'string' && w.table !== '' && w.table !== '*' ? w.table : undefined
      if (w.table !== undefined && w.table !== null && typeof w.table !== 'string') throw unableToSubscribe(w, 'table must be a string.')
      if (w.filter !== undefined && w.filter !== null && typeof w.filter !== 'string') throw unableToSubscribe(w, 'filter must be a string.')
      const filterText = typeof w.filter === 'string' && w.filter !== '' ? w.filter : undefined
      let filter: Filter | undefined
      if (filterText) {
        if (!table) throw unableToSubscribe(w, 'A filter needs a table.')
        try {
          filter = parseFilter(filterText)
        } catch (err) {
          if (err instanceof FilterError) throw unableToSubscribe(w, err.message)
          throw err
        }
      }
      const relations = await this.gateway.transaction({ role: 'postgres' }, (tx) => subscribedTables(tx, schema, table ?? null, !table))
      if (table && relations.length === 0) throw unableToSubscribe(w, `No table ${schema}.${table}.`)
      if (filter && table) {
        const info = await this.tableInfo(schema, table)
        if (!info.columns.some((c) => c.name === filter.column)) throw unableToSubscribe(w, `No column ${JSON.stringify(filter.column.slice(0, 64))} in ${schema}.${table}.`)
      }
      for (const r of relations) await this.installTrigger(r.schema, r.table)
      const id = nextId++
      const event = String(w.event)
      let cancel = () => {}
      if (!table) {
        this.wide.set(schema, (this.wide.get(schema) ?? 0) + 1)
        let cancelled = false
        cancel = () => {
          if (cancelled) return
          cancelled = true
          const left = (this.wide.get(schema) ?? 1) - 1
          if (left > 0) this.wide.set(schema, left)
          else this.wide.delete(schema)
          if (this.wide.size === 0) this.stopRescan()
        }
        this.startRescan()
      }
      subs.push({
        id,
        echo: { id, event, schema, ...(typeof w.table === 'string' ? { table: w.table } : {}), ...(filterText ? { filter: filterText } : {}) },
        event: event.toUpperCase(),
        schema,
        table,
        filter,
        cancel,
      })
    }
    await this.listen()
    return subs
  }

  /** Looks at the catalog for tables of the schema-wide subscriptions' schemas that have no trigger yet. */
  private startRescan() {
    if (this.rescanTimer) return
    this.rescanTimer = setInterval(() => {
      this.rescanning ??= this.rescan()
        .catch((err: unknown) => console.error(`realtime: looking for new tables of ${this.project.ref} failed: ${(err as Error).message}`))
        .finally(() => (this.rescanning = undefined))
    }, this.rescanMs)
    this.rescanTimer.unref()
  }

  private stopRescan() {
    clearInterval(this.rescanTimer)
    this.rescanTimer = undefined
  }

  private async rescan() {
    for (const schema of [...this.wide.keys()]) {
      const relations = await this.gateway.transaction({ role: 'postgres', readOnly: true }, (tx) => subscribedTables(tx, schema, null, true))
      for (const r of relations) if (!this.captured.has(`${r.schema}.${r.table}`)) await this.installTrigger(r.schema, r.table)
    }
  }

  private async installTrigger(schema: string, table: string) {
    try {
      await this.gateway.transaction({ role: 'postgres' }, (tx) => installCaptureTrigger(tx, schema, table))
      this.captured.add(`${schema}.${table}`)
    } catch (err) {
      // A table the project's role does not own (the platform's own): its changes cannot be captured.
      if ((err as { code?: string }).code !== '42501') throw err
    }
  }

  private listen(): Promise<unknown> {
    this.unlisten ??= (async () => {
      if (!this.projectDbs.listen) return undefined
      return this.projectDbs.listen(this.project.ref, REALTIME_CHANGES_CHANNEL, (payload) => this.enqueue(payload))
    })().catch((err: unknown) => {
      this.unlisten = undefined
      throw err
    })
    return this.unlisten
  }

  async stop(): Promise<void> {
    this.stopRescan()
    await this.rescanning
    const un = await this.unlisten?.catch(() => undefined)
    this.unlisten = undefined
    await un?.()
  }

  private enqueue(payload: string) {
    if (this.pending >= ChangeFeed.MAX_PENDING) {
      this.dropped++
      return
    }
    this.pending++
    this.queue = this.queue
      .then(() => this.deliver(payload))
      .catch((err: unknown) => console.error(`realtime: a change of ${this.project.ref} was not delivered: ${(err as Error).message}`))
      .finally(() => {
        this.pending--
      })
  }

  private async tableInfo(schema: string, table: string, fresh = false): Promise<TableInfo> {
    const key = `${schema}.${table}`
    const known = this.tables.get(key)
    if (known && !fresh) return known
    const info = await this.gateway.transaction({ role: 'postgres', readOnly: true }, async (tx) => {
      const rows = await tableColumns(tx, schema, table)
      return { columns: rows.map(({ name, type }) => ({ name, type })), writable: rows.filter((r) => !r.generated).map((r) => r.name), rls: rows[0]?.rls ?? false }
    })
    this.tables.set(key, info)
    return info
  }

  private async deliver(text: string) {
    let change: Change
    try {
      change = JSON.parse(text) as Change
    } catch {
      return
    }
    const targets: { member: ChannelMember; ids: number[] }[] = []
    let info: TableInfo | undefined
    for (const members of this.project.topics.values()) {
      for (const member of members) {
        const ids: number[] = []
        for (const s of member.postgresChanges) {
          if (s.schema !== '*' && s.schema !== change.schema) continue
          if (s.table && s.table !== change.table) continue
          if (s.event !== '*' && s.event !== change.type) continue
          if (s.filter) {
            info ??= await this.tableInfo(change.schema, change.table)
            const type = info.columns.find((c) => c.name === s.filter!.column)?.type ?? 'text'
            const row = change.type === 'DELETE' ? change.old_record : change.record
            if (!matches(s.filter, row, type)) continue
          }
          ids.push(s.id)
        }
        if (ids.length) targets.push({ member, ids })
      }
    }
    if (targets.length === 0) return
    info ??= await this.tableInfo(change.schema, change.table)
    const names = Object.keys(change.record ?? change.old_record ?? {})
    if (names.some((n) => !info!.columns.some((c) => c.name === n))) info = await this.tableInfo(change.schema, change.table, true)
    // One check per distinct caller (role and claims) among the subscribers, not one per subscriber.
    const verdicts = new Map<string, Promise<boolean>>()
    const mayRead = (caller: Caller) => {
      if (change.type === 'DELETE') return Promise.resolve(true)
      const key = `${caller.role}\n${JSON.stringify(caller.claims)}`
      let v = verdicts.get(key)
      if (!v) verdicts.set(key, (v = this.visible(change, caller, info!)))
      return v
    }
    let sent = 0
    for (const { member, ids } of targets) {
      if (!(await mayRead(member.caller))) continue
      const old = change.type === 'DELETE' && info.rls && member.caller.role !== 'service_role' ? change.keys : change.old_record
      const data: Record<string, unknown> = {
        schema: change.schema,
        table: change.table,
        commit_timestamp: change.commit_timestamp,
        type: change.type,
        columns: info.columns,
        errors: change.errors,
      }
      if (change.type !== 'DELETE') data.record = change.record
      if (change.type !== 'INSERT') data.old_record = old
      if (member.socket.send({ join_ref: member.joinRef, ref: null, topic: member.topic, event: 'postgres_changes', payload: { ids, data } })) sent++
    }
    this.project.counted(sent)
  }

  /**
   * Whether the caller may SELECT the changed row as it was committed: as its role, with its claims, so RLS decides.
   * A table without row level security needs only the SELECT right. Otherwise the policies are checked on the row
   * in the table when it is still as the change left it; when a later change already moved or removed it, on the
   * committed row written back in a transaction that is rolled back (so a later update or delete never hides an
   * earlier change, nor shows it to someone the row then belonged to). The look at the row and the check as the
   * caller are one repeatable-read transaction: a change committed between them would otherwise hide the row from
   * the check after the look found it as the change left it.
   */
  private async visible(change: Change, caller: Caller, info: TableInfo): Promise<boolean> {
    const changed = new ChangedRow(change.schema, change.table, change.keys, change.record)
    let asCaller = false
    const denied = (err: unknown) => {
      // No SELECT right on the table (42501), a policy that fails: the row is not for this caller.
      if (asCaller && (err as { code?: string }).code && (err as { code?: string }).code !== 'database_unavailable') return false
      throw err
    }
    if (!info.rls || caller.role === 'service_role') {
      asCaller = true
      return this.gateway.transaction({ role: caller.role, claims: caller.claims, readOnly: true }, (tx) => changed.selectable(tx)).catch(denied)
    }
    const now = await this.gateway
      .transaction({ role: 'postgres', claims: caller.claims, readOnly: true, repeatableRead: true }, async (tx) => {
        if (!(await changed.asCommitted(tx))) return undefined
        asCaller = true
        await tx.query(`select set_config('role', $1, true)`, [caller.role])
        return changed.seen(tx)
      })
      .catch(denied)
    if (now !== undefined) return now
    let seen = false
    asCaller = true
    await this.gateway
      .transaction({ role: 'postgres', claims: caller.claims }, async (tx) => {
        seen = await changed.seenAfterReplay(tx, info.writable, caller.role)
        throw new RolledBack()
      })
      .catch((err: unknown) => {
        if (!(err instanceof RolledBack)) return denied(err)
      })
    return seen
  }
}

class RolledBack extends Error {}
