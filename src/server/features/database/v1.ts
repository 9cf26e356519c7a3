/**
 * The Management API's read of what a project's database holds, for any member of the project's organization:
 *   GET /v1/projects/{ref}/database/context   GetProjectDbMetadataResponse: the database clients connect to
 *                                             (`postgres`, as the connection strings name it) and its schemas, by name,
 *                                             without Postgres's own (pg_*, information_schema)
 *   GET /v1/projects/{ref}/config/disk        DiskResponse: the disk the database needs now, its size read from the
 *                                             database (whole GB, at least 1, as the contract counts it); gp3 and its
 *                                             baseline 3,000 IOPS are the contract's words for a disk nothing here
 *                                             throttles
 *   GET /v1/projects/{ref}/config/disk/autoscale   DiskAutoscaleConfig: null everywhere, the disk never grows on its own
 *   GET /v1/projects/{ref}/config/disk/util   DiskUtilMetricsResponse: that disk's use, measured when asked: its size
 *                                             as config/disk answers it, the database's size used, the rest available
 */
import { Hono, type Context } from 'hono'
import { endpoint } from '../../../contracts/endpoint'
import { V1DatabaseContext, V1DiskAutoscale, V1DiskConfig, V1DiskUtil } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { answerDatabaseFailure } from '../../core/domainErrors'
import { at, type AppEnv } from '../../core/http'
import { ProjectDbError } from '../../projectdb/types'
import { DATABASE_UNAVAILABLE, memberProject, refParam, refuseUnlessActive, type MemberProjectEnv } from '../projects/access'

const v1GetDatabaseContext = endpoint('GET', 'v1', '/projects/:ref/database/context', { response: V1DatabaseContext })
const v1GetDisk = endpoint('GET', 'v1', '/projects/:ref/config/disk', { response: V1DiskConfig })
const v1GetDiskAutoscale = endpoint('GET', 'v1', '/projects/:ref/config/disk/autoscale', { response: V1DiskAutoscale })
const v1GetDiskUtil = endpoint('GET', 'v1', '/projects/:ref/config/disk/util', { response: V1DiskUtil })
const GB = 1024 ** 3
/** gp3's baseline: the contract needs a positive figure, and no limit is set here. */
const BASELINE_IOPS = 3_000

/** The disk config/disk reports: whole GB, at least 1, enough for the database as it is now. */
const diskGb = (databaseBytes: number) => Math.max(1, Math.ceil(databaseBytes / GB))

export function databaseV1Routes({ db, projectDbs, clock }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  /** The project's database size in bytes, read from the database; a Response when the project cannot answer. */
  const databaseBytes = async (c: Context<MemberProjectEnv>): Promise<number | Response> => {
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    try {
      const { rows } = await projectDbs.transaction(c.var.project.ref, { readOnly: true }, (tx) =>
        tx.query<{ bytes: number }>('select pg_database_size(current_database())::float8 as bytes'),
      )
      return Number(rows[0].bytes)
    } catch (err) {
      if (!(err instanceof ProjectDbError)) throw err
      return answerDatabaseFailure(c, err, "The project's database is not available right now")
    }
  }

  app.on(...at(v1GetDatabaseContext), refParam, project, async (c) => {
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    try {
      const { rows } = await projectDbs.transaction(c.var.project.ref, { readOnly: true }, (tx) =>
        tx.query<{ name: string }>(
          `select nspname as name from pg_namespace
           where nspname not like 'pg\\_%' and nspname <> 'information_schema' order by nspname`,
        ),
      )
      return c.json({ databases: [{ name: 'postgres', schemas: rows.map((r) => ({ name: r.name })) }] } satisfies V1DatabaseContext)
    } catch (err) {
      if (!(err instanceof ProjectDbError)) throw err
      return answerDatabaseFailure(c, err, "The project's database is not available right now")
    }
  })

  app.on(...at(v1GetDisk), refParam, project, async (c) => {
    const bytes = await databaseBytes(c)
    if (bytes instanceof Response) return bytes
    return c.json({ attributes: { type: 'gp3', size_gb: diskGb(bytes), iops: BASELINE_IOPS } } satisfies V1DiskConfig)
  })

  app.on(...at(v1GetDiskUtil), refParam, project, async (c) => {
    const bytes = await databaseBytes(c)
    if (bytes instanceof Response) return bytes
    const size = diskGb(bytes) * GB
    return c.json({
      timestamp: clock.now().toISOString(),
      metrics: { fs_size_bytes: size, fs_avail_bytes: size - bytes, fs_used_bytes: bytes },
    } satisfies V1DiskUtil)
  })

  app.on(...at(v1GetDiskAutoscale), refParam, project, (c) =>
    c.json({ growth_percent: null, min_increment_gb: null, max_size_gb: null } satisfies V1DiskAutoscale),
  )

  return app
}
