/**
 * The Management API's storage reads, for any member of the project's organization (storage's own rule for reads):
 *   GET /v1/projects/{ref}/storage/buckets   V1StorageBucketResponse[] from the project's storage.buckets, by name
 *   GET /v1/projects/{ref}/config/storage    StorageConfigResponse: what the storage service here does (service.ts)
 * A project without the storage service answers 404 'Tenant config for <ref> not found', as the dashboard's routes do;
 * the bucket list needs the project's database, so a project that is not ACTIVE_HEALTHY answers as they do too.
 */
import { Hono } from 'hono'
import { endpoint } from '../../../contracts/endpoint'
import { V1StorageBucketList, V1StorageConfig } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { answerDatabaseFailure } from '../../core/domainErrors'
import { at, errorJson, type AppEnv } from '../../core/http'
import { ProjectDbError } from '../../projectdb/types'
import { DATABASE_UNAVAILABLE, memberProject, refParam, refuseUnlessActive } from '../projects/access'
import { GLOBAL_FILE_SIZE_LIMIT } from './service'
import { listBuckets, storageEnabled } from './store'

const v1ListBuckets = endpoint('GET', 'v1', '/projects/:ref/storage/buckets', { response: V1StorageBucketList })
const v1GetStorageConfig = endpoint('GET', 'v1', '/projects/:ref/config/storage', { response: V1StorageConfig })

/**
 * The service as it is: image transformations on every plan (/render/image), no S3 protocol, no Iceberg catalog or
 * vector buckets, the first list API only. Its schema comes with the project database and its upgrades, one version.
 * Each request takes a connection of the project's database for its own transaction and gives it back.
 */
const STORAGE_CONFIG: Omit<V1StorageConfig, 'fileSizeLimit'> = {
  features: {
    imageTransformation: { enabled: true },
    s3Protocol: { enabled: false },
    icebergCatalog: { enabled: false, maxNamespaces: 0, maxTables: 0, maxCatalogs: 0 },
    vectorBuckets: { enabled: false, maxBuckets: 0, maxIndexes: 0 },
  },
  capabilities: { list_v2: false, iceberg_catalog: false },
  external: { upstreamTarget: 'main' },
  migrationVersion: 'storage-schema',
  databasePoolMode: 'single_use',
}

export function storageV1Routes({ db, projectDbs }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)
  const tenantMissing = (ref: string) => `Tenant config for ${ref} not found`

  app.on(...at(v1ListBuckets), refParam, project, async (c) => {
    const { id, ref } = c.var.project
    if (!(await storageEnabled(db, id))) return errorJson(c, 404, tenantMissing(ref))
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    try {
      const buckets = await projectDbs.transaction(ref, { role: 'service_role', readOnly: true }, listBuckets)
      return c.json(
        buckets.map((b) => ({ id: b.id, name: b.name, owner: b.owner, created_at: b.created_at, updated_at: b.updated_at, public: b.public })) satisfies V1StorageBucketList,
      )
    } catch (err) {
      if (!(err instanceof ProjectDbError)) throw err
      return answerDatabaseFailure(c, err, "The project's database is not available right now")
    }
  })

  app.on(...at(v1GetStorageConfig), refParam, project, async (c) => {
    if (!(await storageEnabled(db, c.var.project.id))) return errorJson(c, 404, tenantMissing(c.var.project.ref))
    return c.json({ fileSizeLimit: GLOBAL_FILE_SIZE_LIMIT, ...STORAGE_CONFIG } satisfies V1StorageConfig)
  })

  return app
}
