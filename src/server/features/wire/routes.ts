/**
 * The Management API of a project's database connection, in the contract's shapes:
 *   PATCH /v1/projects/{ref}/database/password         sets the password the Postgres port checks (projects:write);
 *                                                      the old one stops working for every new connection at once
 *   GET   /v1/projects/{ref}/config/database/pooler    the port as the platform's pooler (the CLI's connection string)
 *   GET   /v1/projects/{ref}/config/database/pgbouncer the same as PgBouncer settings
 *   GET   /v1/projects/{ref}/database/migrations     the CLI's migration history; POST applies and records one
 *   GET   /v1/projects/{ref}/ssl-enforcement          false: the port has no TLS
 *   GET   /v1/projects/{ref}/database/backups          none: the platform takes no scheduled backups and has no PITR
 * The other settings (network restrictions, SSL enforcement, Postgres settings, read-only mode, health, REST's
 * settings): settingsRoutes.ts.
 * The connection string carries `[YOUR-PASSWORD]` where the password goes, as the platform's does: the password is
 * kept only as a SCRAM verifier and cannot be shown. It says `sslmode=disable`: the port has no TLS.
 */
import { Hono, type Context } from 'hono'
import * as endpoints from '../../../contracts/endpoints'
import type { PgbouncerConfig, PoolerConfigList, UpdateDatabasePasswordResponse } from '../../../contracts/wire'
import type { Deps } from '../../core/deps'
import { at, baseUrl, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { memberProject, refParam } from '../projects/access'
import type { Backups, MigrationList, SslEnforcement } from '../../../contracts/wire'
import { ProjectDbError } from '../../projectdb/types'
import { answerDatabaseFailure } from '../../core/domainErrors'
import { DATABASE_UNAVAILABLE, refuseUnlessActive } from '../projects/access'
import { applyMigration, listMigrations } from './migrations'
import { wirePorts } from './server'
import { settingsRoutes } from './settingsRoutes'
import { setDatabasePassword } from '../../projectdb/password'

export function wireRoutes(deps: Deps) {
  const { db, clock, config, projectDbs } = deps
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  /** Where clients reach the port: the platform's own host name, the port the listener took. */
  const endpoint = () => ({ host: new URL(baseUrl(deps.ownUrl)).hostname, port: wirePorts.get(projectDbs) ?? config.wire.port })
  const connectionString = (ref: string) => {
    const { host, port } = endpoint()
    // The port declines TLS: saying so lets clients that refuse to fall back from TLS on their own (the CLI) connect.
    return `postgresql://postgres.${ref}:[YOUR-PASSWORD]@${host}:${port}/postgres?sslmode=disable`
  }

  app.on(...at(endpoints.updateDatabasePassword), refParam, validate('json', endpoints.updateDatabasePassword.body), project, async (c) => {
    if (!can(c.var.project.role, 'projects:write')) return errorJson(c, 403, "You do not have permission to reset this project's database password")
    await setDatabasePassword(db, c.var.project.id, c.req.valid('json').password, clock.now())
    return c.json({ message: 'Database password updated' } satisfies UpdateDatabasePasswordResponse)
  })

  app.on(...at(endpoints.getPoolerConfig), refParam, project, (c) => {
    const { ref } = c.var.project
    const { host, port } = endpoint()
    const url = connectionString(ref)
    return c.json([
      {
        identifier: ref,
        database_type: 'PRIMARY',
        is_using_scram_auth: true,
        db_user: `postgres.${ref}`,
        db_host: host,
        db_port: port,
        db_name: 'postgres',
        connection_string: url,
        connectionString: url,
        default_pool_size: null,
        max_client_conn: config.wire.maxClientsPerProject,
        // A transaction holds the session (PGlite) or its own server connection (PostgreSQL) from BEGIN to its end.
        pool_mode: projectDbs.kind === 'pglite' ? 'transaction' : 'session',
      },
    ] satisfies PoolerConfigList)
  })

  app.on(...at(endpoints.getPgbouncerConfig), refParam, project, (c) =>
    c.json({
      pool_mode: projectDbs.kind === 'pglite' ? 'transaction' : 'session',
      max_client_conn: config.wire.maxClientsPerProject,
      connection_string: connectionString(c.var.project.ref),
      query_wait_timeout: Math.ceil(config.wire.queueWaitMs / 1000),
      ignore_startup_parameters: 'extra_float_digits',
    } satisfies PgbouncerConfig),
  )

  /** A Postgres error answers 400 with its message and SQLSTATE; an unavailable database as everywhere else. */
  const failed = (c: Context, err: unknown) => {
    if (!(err instanceof ProjectDbError)) throw err
    if (/^[0-9A-Z]{5}$/.test(err.code)) return c.json({ message: err.message, code: err.code }, 400)
    if (err.code === 'query_timeout') return errorJson(c, 408, err.message, 'query_timeout')
    return answerDatabaseFailure(c, err, "The project's database is not available right now")
  }

  app.on(...at(endpoints.listMigrations), refParam, project, async (c) => {
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    try {
      const list = await projectDbs.transaction(c.var.project.ref, { readOnly: true }, listMigrations)
      return c.json(list satisfies MigrationList)
    } catch (err) {
      return failed(c, err)
    }
  })

  app.on(...at(endpoints.applyMigration), refParam, validate('json', endpoints.applyMigration.body), project, async (c) => {
    if (!can(c.var.project.role, 'projects:write')) return errorJson(c, 403, 'You do not have permission to apply migrations to this project')
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    const body = c.req.valid('json')
    try {
      await projectDbs.transaction(c.var.project.ref, {}, (tx) => applyMigration(tx, body, clock.now()))
      return c.body(null, 200)
    } catch (err) {
      return failed(c, err)
    }
  })

  // What is true of the port: no TLS (so nothing to enforce); of the platform: no scheduled backups or PITR.
  app.on(...at(endpoints.getSslEnforcement), refParam, project, (c) =>
    c.json({ currentConfig: { database: false }, appliedSuccessfully: true } satisfies SslEnforcement),
  )
  app.on(...at(endpoints.listBackups), refParam, project, (c) =>
    c.json({ region: c.var.project.region, walg_enabled: false, pitr_enabled: false, backups: [], physical_backup_data: {} } satisfies Backups),
  )

  app.route('/', settingsRoutes(deps))
  return app
}
