/**
 * A project's database settings in the Management API's shapes (permissions as the rest of /v1: any member reads,
 * projects:write changes):
 *   GET   /v1/projects/{ref}/network-restrictions        the addresses the Postgres port accepts (no row: all)
 *   PATCH /v1/projects/{ref}/network-restrictions        add and remove ranges (the V2 answer: one tagged list)
 *   POST  /v1/projects/{ref}/network-restrictions/apply  replace both lists
 *         Stored ranges are applied at once: the port reads them at every start-up, so the status is 'applied'.
 *   PUT   /v1/projects/{ref}/ssl-enforcement             the port has no TLS: enforcing it cannot be applied
 *   GET   /v1/projects/{ref}/config/database/postgres    the settings the project's engine runs with (pg_settings)
 *   PUT   /v1/projects/{ref}/config/database/postgres    the settings a project's database takes, within the
 *                                                        platform's ranges, set on its database (postgresSettings.ts)
 *   GET   /v1/projects/{ref}/readonly                    the platform's read-only mode of the project
 *   GET   /v1/projects/{ref}/health?services=…           each service asked for, from the project's status, a probe
 *                                                        of its database and whether the Postgres port listens
 *   GET   /v1/projects/{ref}/postgrest                   the schemas REST serves and its row cap
 *   PATCH /v1/projects/{ref}/postgrest                   REST reads them on every request; db_schema is a list of
 *                                                        the project's schemas (Accept-Profile / Content-Profile pick one)
 */
import { Hono, type Context } from 'hono'
import * as endpoints from '../../../contracts/endpoints'
import {
  HEALTH_SERVICES,
  type HealthService,
  type NetworkRestrictions,
  type NetworkRestrictionsV2,
  type PostgresConfig,
  type PostgrestConfig,
  type ReadOnlyStatus,
  type ServiceHealth,
  type SslEnforcement,
} from '../../../contracts/wire'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { ProjectDbError } from '../../projectdb/types'
import { answerDatabaseFailure } from '../../core/domainErrors'
import { DATABASE_UNAVAILABLE, memberProject, refParam, refuseUnlessActive, type MemberProjectEnv } from '../projects/access'
import { parseCidr } from './cidr'
import { wirePorts } from './server'
import { applyToDatabase, formatSetting, parseSetting, rangeOf, SETTABLE, settableOn, whyNotSettable } from './postgresSettings'
import {
  findPostgresSettings,
  findPostgrestConfig,
  findRestrictions,
  readOnlyModeOf,
  savePostgresSettings,
  savePostgrestConfig,
  saveRestrictions,
  type RestrictionsRow,
} from './store'

const EVERY_V4 = '0.0.0.0/0'
const EVERY_V6 = '::/0'

/** REST's settings when the project never changed them: schema public, the server's REST_MAX_ROWS. */
export function postgrestDefaults(restMaxRows: number) {
  return { db_schema: 'public', max_rows: restMaxRows }
}

/** Postgres's own schemas: never served (the catalog is read through the API's own document). */
const INTERNAL_SCHEMA = /^(pg_.*|information_schema)$/
/** REST qualifies every relation and function with its schema: no search path is added. */
const EXTRA_SEARCH_PATH = ''

const iso = (d: Date | string) => new Date(d).toISOString()

/** The Postgres settings the contract names, with how pg_settings types each. */
const POSTGRES_SETTINGS = [
  'effective_cache_size',
  'logical_decoding_work_mem',
  'maintenance_work_mem',
  'track_activity_query_size',
  'max_connections',
  'max_locks_per_transaction',
  'max_parallel_maintenance_workers',
  'max_parallel_workers',
  'max_parallel_workers_per_gather',
  'max_replication_slots',
  'max_slot_wal_keep_size',
  'max_standby_archive_delay',
  'max_standby_streaming_delay',
  'max_wal_size',
  'max_wal_senders',
  'max_worker_processes',
  'session_replication_role',
  'shared_buffers',
  'statement_timeout',
  'track_commit_timestamp',
  'wal_keep_size',
  'wal_sender_timeout',
  'work_mem',
  'checkpoint_timeout',
  'hot_standby_feedback',
] as const
/** The contract's integers; its booleans are Postgres's bool settings; everything else is the setting as SHOW prints it. */
const INTEGER_SETTINGS = new Set([
  'max_connections',
  'max_locks_per_transaction',
  'max_parallel_maintenance_workers',
  'max_parallel_workers',
  'max_parallel_workers_per_gather',
  'max_replication_slots',
  'max_wal_senders',
  'max_worker_processes',
])

export function settingsRoutes(deps: Deps) {
  const { db, clock, config, projectDbs } = deps
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  const mayWrite = (c: Context<MemberProjectEnv>, what: string) =>
    can(c.var.project.role, 'projects:write') ? undefined : errorJson(c, 403, `You do not have permission to ${what}`)

  const failed = (c: Context, err: unknown) => {
    if (!(err instanceof ProjectDbError)) throw err
    return answerDatabaseFailure(c, err, "The project's database is not available right now")
  }

  // ---- network restrictions

  const restrictions = (row: RestrictionsRow | undefined): NetworkRestrictions =>
    row
      ? {
          entitlement: 'allowed',
          config: { dbAllowedCidrs: row.db_allowed_cidrs, dbAllowedCidrsV6: row.db_allowed_cidrs_v6 },
          ...(row.old_db_allowed_cidrs && { old_config: { dbAllowedCidrs: row.old_db_allowed_cidrs, dbAllowedCidrsV6: row.old_db_allowed_cidrs_v6 ?? [] } }),
          status: 'applied',
          updated_at: iso(row.updated_at),
          applied_at: iso(row.applied_at),
        }
      : { entitlement: 'allowed', config: { dbAllowedCidrs: [EVERY_V4], dbAllowedCidrsV6: [EVERY_V6] }, status: 'applied' }

  /** Each range in canonical form, or the first that is not a range of its family. */
  const ranges = (list: string[] | undefined, family: 'v4' | 'v6'): { ok: string[] } | { bad: string } => {
    const out: string[] = []
    for (const text of list ?? []) {
      const cidr = parseCidr(text, family)
      if (!cidr) return { bad: text }
      if (!out.includes(cidr)) out.push(cidr)
    }
    return { ok: out }
  }
  const badRange = (c: Context, text: string, family: 'v4' | 'v6') =>
    errorJson(c, 400, `${JSON.stringify(text)} is not an ${family === 'v4' ? 'IPv4' : 'IPv6'} CIDR range (${family === 'v4' ? 'dbAllowedCidrs' : 'dbAllowedCidrsV6'})`)

  app.on(...at(endpoints.getNetworkRestrictions), refParam, project, async (c) =>
    c.json(restrictions(await findRestrictions(db, c.var.project.id)) satisfies NetworkRestrictions),
  )

  app.on(...at(endpoints.applyNetworkRestrictions), refParam, validate('json', endpoints.applyNetworkRestrictions.body), project, async (c) => {
    const refused = mayWrite(c, "change this project's network restrictions")
    if (refused) return refused
    const body = c.req.valid('json')
    const v4 = ranges(body.dbAllowedCidrs, 'v4')
    if ('bad' in v4) return badRange(c, v4.bad, 'v4')
    const v6 = ranges(body.dbAllowedCidrsV6, 'v6')
    if ('bad' in v6) return badRange(c, v6.bad, 'v6')
    const row = await saveRestrictions(db, c.var.project.id, v4.ok, v6.ok, clock.now())
    return c.json(restrictions(row) satisfies NetworkRestrictions, 201)
  })

  app.on(...at(endpoints.patchNetworkRestrictions), refParam, validate('json', endpoints.patchNetworkRestrictions.body), project, async (c) => {
    const refused = mayWrite(c, "change this project's network restrictions")
    if (refused) return refused
    const body = c.req.valid('json')
    const parsed = {
      addV4: ranges(body.add?.dbAllowedCidrs, 'v4'),
      addV6: ranges(body.add?.dbAllowedCidrsV6, 'v6'),
      removeV4: ranges(body.remove?.dbAllowedCidrs, 'v4'),
      removeV6: ranges(body.remove?.dbAllowedCidrsV6, 'v6'),
    }
    for (const [key, r] of Object.entries(parsed)) if ('bad' in r) return badRange(c, r.bad, key.endsWith('V4') ? 'v4' : 'v6')
    const ok = (r: { ok: string[] } | { bad: string }) => ('ok' in r ? r.ok : [])
    const current = restrictions(await findRestrictions(db, c.var.project.id)).config
    const next = (list: string[] | undefined, add: string[], remove: string[]) =>
      [...(list ?? []), ...add.filter((a) => !(list ?? []).includes(a))].filter((a) => !remove.includes(a))
    const row = await saveRestrictions(
      db,
      c.var.project.id,
      next(current.dbAllowedCidrs, ok(parsed.addV4), ok(parsed.removeV4)),
      next(current.dbAllowedCidrsV6, ok(parsed.addV6), ok(parsed.removeV6)),
      clock.now(),
    )
    const tagged = (v4: string[] | null, v6: string[] | null) => [
      ...(v4 ?? []).map((address) => ({ address, type: 'v4' as const })),
      ...(v6 ?? []).map((address) => ({ address, type: 'v6' as const })),
    ]
    return c.json({
      entitlement: 'allowed',
      config: { dbAllowedCidrs: tagged(row.db_allowed_cidrs, row.db_allowed_cidrs_v6) },
      ...(row.old_db_allowed_cidrs && { old_config: { dbAllowedCidrs: tagged(row.old_db_allowed_cidrs, row.old_db_allowed_cidrs_v6) } }),
      status: 'applied',
      updated_at: iso(row.updated_at),
      applied_at: iso(row.applied_at),
    } satisfies NetworkRestrictionsV2)
  })

  // ---- SSL enforcement: the port declines TLS, so nothing is enforced and enforcing cannot be applied.

  app.on(...at(endpoints.updateSslEnforcement), refParam, validate('json', endpoints.updateSslEnforcement.body), project, (c) => {
    const refused = mayWrite(c, "change this project's SSL enforcement")
    if (refused) return refused
    const asked = c.req.valid('json').requestedConfig.database
    return c.json({ currentConfig: { database: false }, appliedSuccessfully: !asked } satisfies SslEnforcement)
  })

  // ---- Postgres settings

  /**
   * The engine's values, with the project's own settings over them: they are its database's settings, but the
   * platform's transaction sets its own statement time-out.
   */
  async function readPostgresConfig(ref: string, projectId: number): Promise<PostgresConfig> {
    const { rows } = await projectDbs.transaction(ref, { readOnly: true }, (tx) =>
      tx.query<{ name: string; vartype: string; shown: string }>(
        'select name, vartype, current_setting(name) as shown from pg_settings where name = any($1::text[])',
        [POSTGRES_SETTINGS],
      ),
    )
    const out: Record<string, string | number | boolean> = {}
    for (const r of rows) {
      if (r.vartype === 'bool') out[r.name] = r.shown === 'on'
      else if (INTEGER_SETTINGS.has(r.name)) out[r.name] = Number(r.shown)
      else out[r.name] = r.shown
    }
    return { ...out, ...(await findPostgresSettings(db, projectId)) } as PostgresConfig
  }

  app.on(...at(endpoints.getPostgresConfig), refParam, project, async (c) => {
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    try {
      return c.json((await readPostgresConfig(c.var.project.ref, c.var.project.id)) satisfies PostgresConfig)
    } catch (err) {
      return failed(c, err)
    }
  })

  app.on(...at(endpoints.updatePostgresConfig), refParam, validate('json', endpoints.updatePostgresConfig.body), project, async (c) => {
    const refused = mayWrite(c, "change this project's Postgres settings") ?? refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    // Every change restarts what needs it (see applyToDatabase): restart_database adds nothing.
    const { restart_database: _restart, ...asked } = c.req.valid('json')
    const engine = projectDbs.kind
    const settable = new Set(settableOn(engine))
    const p = c.var.project
    try {
      const current = await readPostgresConfig(p.ref, p.id)
      const changes: Record<string, string | number> = {}
      const cannot: string[] = []
      const invalid: string[] = []
      for (const [name, value] of Object.entries(asked)) {
        if (value === undefined) continue
        if (!settable.has(name)) {
          // The CLI sends the whole config back: what already holds is no change.
          const now = current[name as keyof PostgresConfig]
          if (now !== value) cannot.push(`${name} (${whyNotSettable(name, engine)}; is ${JSON.stringify(now ?? null)})`)
          continue
        }
        const parsed = parseSetting(name, value)
        if ('error' in parsed) invalid.push(parsed.error)
        else if (parsed.value < SETTABLE[name].min || parsed.value > SETTABLE[name].max) {
          invalid.push(`${name} must be ${rangeOf(name)} on this platform (asked ${JSON.stringify(value)})`)
        } else {
          const next = formatSetting(name, parsed.value)
          if (next !== current[name as keyof PostgresConfig]) changes[name] = next
        }
      }
      if (cannot.length) {
        return errorJson(
          c,
          400,
          `These settings cannot be changed on this platform (${engine === 'pglite' ? 'PGlite' : 'PostgreSQL'}, which takes ${[...settable].join(', ')}): ${cannot.join(', ')}`,
        )
      }
      if (invalid.length) return errorJson(c, 400, invalid.join('; '))
      if (Object.keys(changes).length) {
        await applyToDatabase(projectDbs, p.ref, changes)
        await savePostgresSettings(db, p.id, { ...(await findPostgresSettings(db, p.id)), ...changes }, clock.now())
      }
      return c.json((await readPostgresConfig(p.ref, p.id)) satisfies PostgresConfig)
    } catch (err) {
      return failed(c, err)
    }
  })

  // ---- read-only mode (set when a project's disk is full; a development control here): no override exists.

  app.on(...at(endpoints.getReadOnlyStatus), refParam, project, async (c) => {
    return c.json({ enabled: await readOnlyModeOf(db, c.var.project.id), override_enabled: false, override_active_until: '' } satisfies ReadOnlyStatus)
  })

  // ---- health

  app.on(...at(endpoints.getServicesHealth), refParam, project, async (c) => {
    const asked = [...new Set(c.req.queries('services')?.flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean) ?? [])]
    if (!asked.length) return errorJson(c, 400, `services is required: one or more of ${HEALTH_SERVICES.join(', ')}`)
    const unknown = asked.find((s) => !(HEALTH_SERVICES as readonly string[]).includes(s))
    if (unknown) return errorJson(c, 400, `services: unknown service ${JSON.stringify(unknown)} (one of ${HEALTH_SERVICES.join(', ')})`)
    const timeoutText = c.req.query('timeout_ms')
    const timeoutMs = timeoutText === undefined ? undefined : Number(timeoutText)
    if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs >= 0 && timeoutMs <= 10_000)) {
      return errorJson(c, 400, 'timeout_ms must be an integer from 0 to 10000')
    }
    const p = c.var.project
    const settings = (await findPostgrestConfig(db, p.id)) ?? postgrestDefaults(config.restMaxRows)

    const status = p.status === 'ACTIVE_HEALTHY' ? 'ACTIVE_HEALTHY' : p.status === 'COMING_UP' ? 'COMING_UP' : 'UNHEALTHY'
    const down = status === 'ACTIVE_HEALTHY' ? undefined : `the project is ${p.status}`
    let probe: Promise<string | undefined> | undefined
    // One probe of the database answers for db and db_postgres_user.
    const database = () =>
      (probe ??= projectDbs
        .transaction(p.ref, { readOnly: true, ...(timeoutMs ? { timeoutMs } : {}) }, (tx) => tx.query('select 1'))
        .then(() => undefined, (err: unknown) => (err instanceof Error ? err.message : 'the database did not answer')))

    const health = async (name: HealthService): Promise<ServiceHealth> => {
      const answer = (error: string | undefined, info?: ServiceHealth['info']): ServiceHealth =>
        error === undefined
          ? { name, healthy: true, status: 'ACTIVE_HEALTHY', ...(info && { info }) }
          : { name, healthy: false, status: status === 'COMING_UP' ? 'COMING_UP' : 'UNHEALTHY', error }
      if (down) return answer(down)
      switch (name) {
        case 'db':
        case 'db_postgres_user':
          return answer(await database())
        case 'pooler':
        case 'pg_bouncer':
          return answer(wirePorts.has(projectDbs) ? undefined : 'the Postgres port is not listening')
        case 'rest':
          return answer(p.postgrest_status === 'ONLINE' ? undefined : 'the API server is offline', { db_schema: settings.db_schema })
        case 'auth':
          return answer(undefined, { name: 'GoTrue', version: 'v2.170.0', description: 'GoTrue is a user registration and authentication API' })
        case 'realtime':
        case 'storage':
          return answer(undefined)
      }
    }
    return c.json(await Promise.all((asked as HealthService[]).map(health)))
  })

  // ---- REST's settings

  const postgrest = async (projectId: number): Promise<PostgrestConfig> => ({
    ...((await findPostgrestConfig(db, projectId)) ?? postgrestDefaults(config.restMaxRows)),
    db_extra_search_path: EXTRA_SEARCH_PATH,
    db_pool: null,
  })

  app.on(...at(endpoints.getPostgrestConfig), refParam, project, async (c) => c.json((await postgrest(c.var.project.id)) satisfies PostgrestConfig))

  app.on(...at(endpoints.updatePostgrestConfig), refParam, validate('json', endpoints.updatePostgrestConfig.body), project, async (c) => {
    const refused = mayWrite(c, "change this project's API settings")
    if (refused) return refused
    const body = c.req.valid('json')
    if (body.db_pool !== undefined) return errorJson(c, 400, 'db_pool cannot be set: the REST API here has no connection pool of its own')
    if (body.db_extra_search_path !== undefined && body.db_extra_search_path.trim() !== EXTRA_SEARCH_PATH) {
      return errorJson(c, 400, 'db_extra_search_path cannot be set: the REST API qualifies every name with its schema')
    }
    const current = await postgrest(c.var.project.id)
    let db_schema = current.db_schema
    if (body.db_schema !== undefined) {
      const schemas = [...new Set(body.db_schema.split(',').map((s) => s.trim()).filter(Boolean))]
      const internal = schemas.find((s) => INTERNAL_SCHEMA.test(s))
      if (internal) return errorJson(c, 400, `db_schema: ${JSON.stringify(internal)} is one of Postgres's own schemas, which the REST API does not serve`)
      if (schemas.length) {
        const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
        if (refused) return refused
        let found: Set<string>
        try {
          const { rows } = await projectDbs.transaction(c.var.project.ref, { readOnly: true }, (tx) =>
            tx.query<{ nspname: string }>('select nspname from pg_namespace where nspname = any($1::text[])', [schemas]),
          )
          found = new Set(rows.map((r) => r.nspname))
        } catch (err) {
          return failed(c, err)
        }
        const missing = schemas.filter((s) => !found.has(s))
        if (missing.length) return errorJson(c, 400, `db_schema: no such schema in the project's database: ${missing.map((s) => JSON.stringify(s)).join(', ')}`)
      }
      db_schema = schemas.join(',')
    }
    const max_rows = body.max_rows ?? current.max_rows
    await savePostgrestConfig(db, c.var.project.id, { db_schema, max_rows }, clock.now())
    return c.json({ ...current, db_schema, max_rows } satisfies PostgrestConfig)
  })

  return app
}
