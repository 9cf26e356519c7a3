/**
 * A project's storage buckets (rows of `storage.buckets` in the project's own database):
 *   GET    /platform/storage/{ref}/buckets        → Bucket[] (by name)
 *   POST   /platform/storage/{ref}/buckets        CreateBucketBody → 201 Bucket (the name is the id)
 *   DELETE /platform/storage/{ref}/buckets/{id}   → 200 { message }
 *   POST   /platform/storage/{ref}/buckets/{id}/objects/list   MemberListObjectsBody → one folder's StorageList
 *   POST   /platform/storage/{ref}/buckets/{id}/objects/sign   MemberSignObjectBody → { signedUrl } (absolute)
 * In this order: a bad ref or body 400; not a member 404 'Project not found'; a change without project_storage:all
 * 403 (reads are every member's: a Read-only member browses and downloads); storage disabled for the project 404
 * 'Tenant config for <ref> not found' (the dashboard does not retry that one); a project that is not ACTIVE_HEALTHY
 * 409 (as the database endpoints answer); then a bucket name already taken 409, an unknown bucket or object 404.
 * A bucket that still holds objects is not deleted (409); changes to objects are the storage service's (service.ts,
 * behind the gateway, with a key the platform gives only to members who may read the service_role key).
 */
import { Hono, type Context } from 'hono'
import * as z from 'zod'
import { ProjectRef } from '../../../contracts/common'
import * as endpoints from '../../../contracts/endpoints'
import type { Bucket, BucketList, DeleteBucketResponse } from '../../../contracts/storage'
import { StorageList, type MemberSignedUrl } from '../../../contracts/storageObjects'
import type { Deps } from '../../core/deps'
import { at, baseUrl, errorJson, validate, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import { DATABASE_UNAVAILABLE, memberProject, refParam, refuseUnlessActive, type MemberProjectEnv } from '../projects/access'
import { ProjectDbError, type ProjectTx } from '../../projectdb/types'
import { deleteBucket, findBucket, findObject, insertBucket, listBuckets, listFolder, projectJwtSecret, storageEnabled } from './store'
import { StorageError } from './errors'
import { checkKey } from './paths'
import { signStorageToken } from './service'
import { answerDatabaseFailure } from '../../core/domainErrors'

const BucketParam = z.object({ ref: ProjectRef, id: z.string().min(1, 'Bucket id is required').max(100) })

export function storageRoutes({ db, projectDbs, clock, ownUrl }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  /** The answer refusing the request, or undefined when the project's buckets may be read (or changed: `change`). */
  async function refusal(c: Context<MemberProjectEnv>, change = true) {
    const { role, ref, id } = c.var.project
    if (change && !can(role, 'project_storage:all')) {
      return errorJson(c, 403, "You need the project_storage:all permission to use this project's storage")
    }
    if (!(await storageEnabled(db, id))) return errorJson(c, 404, `Tenant config for ${ref} not found`)
    return refuseUnlessActive(c, DATABASE_UNAVAILABLE)
  }

  /** One transaction on the project's database as service_role; a database that cannot be reached answers 503. */
  async function inProjectDb<T>(c: Context<MemberProjectEnv>, fn: (tx: ProjectTx) => Promise<T>) {
    try {
      return { ok: true as const, value: await projectDbs.transaction(c.var.project.ref, { role: 'service_role' }, fn) }
    } catch (err) {
      if (!(err instanceof ProjectDbError)) throw err
      return { ok: false as const, response: answerDatabaseFailure(c, err, "The project's database is not available right now") }
    }
  }

  app.on(...at(endpoints.listBuckets), project, async (c) => {
    const refused = await refusal(c, false)
    if (refused) return refused
    const done = await inProjectDb(c, listBuckets)
    if (!done.ok) return done.response
    return c.json(done.value satisfies BucketList)
  })

  app.on(...at(endpoints.createBucket), refParam, validate('json', endpoints.createBucket.body), project, async (c) => {
    const body = c.req.valid('json')
    const refused = await refusal(c)
    if (refused) return refused
    const done = await inProjectDb(c, (tx) => insertBucket(tx, body))
    if (!done.ok) return done.response
    if (!done.value) return errorJson(c, 409, `The resource already exists: this project has a bucket named '${body.name}'`, 'Duplicate')
    return c.json(done.value satisfies Bucket, 201)
  })

  app.on(...at(endpoints.deleteBucket), validate('param', BucketParam), project, async (c) => {
    const { id } = c.req.valid('param')
    const refused = await refusal(c)
    if (refused) return refused
    const done = await inProjectDb(c, (tx) => deleteBucket(tx, id))
    if (!done.ok) return done.response
    if (done.value === 'missing') return errorJson(c, 404, `Bucket not found: this project has no bucket '${id}'`)
    if (done.value === 'not_empty') return errorJson(c, 409, `The bucket '${id}' still holds objects: empty it first`)
    return c.json({ message: 'Successfully deleted' } satisfies DeleteBucketResponse)
  })

  const BucketObjectsParam = z.object({ ref: ProjectRef, id: z.string().min(1, 'Bucket id is required').max(100) })

  app.on(...at(endpoints.listBucketObjects), validate('param', BucketObjectsParam), validate('json', endpoints.listBucketObjects.body), project, async (c) => {
    const { id } = c.req.valid('param')
    const { path, options } = c.req.valid('json')
    const refused = await refusal(c, false)
    if (refused) return refused
    const done = await inProjectDb(c, async (tx) => ((await findBucket(tx, id)) ? listFolder(tx, id, { prefix: path, ...options }) : undefined))
    if (!done.ok) return done.response
    if (!done.value) return errorJson(c, 404, `Bucket not found: this project has no bucket '${id}'`)
    return c.json(StorageList.parse(done.value))
  })

  // A signed URL of the storage service (the same token it signs), for a member who holds no key: what a download
  // or a preview reads.
  app.on(...at(endpoints.signBucketObject), validate('param', BucketObjectsParam), validate('json', endpoints.signBucketObject.body), project, async (c) => {
    const { id } = c.req.valid('param')
    const body = c.req.valid('json')
    let key: string
    try {
      key = checkKey(body.path)
    } catch (err) {
      if (err instanceof StorageError) return errorJson(c, 400, err.message)
      throw err
    }
    const refused = await refusal(c, false)
    if (refused) return refused
    const done = await inProjectDb(c, (tx) => findObject(tx, id, key))
    if (!done.ok) return done.response
    if (!done.value) return errorJson(c, 404, `Object not found: the bucket '${id}' has no object '${key}'`)
    const secret = await projectJwtSecret(db, c.var.project.id)
    if (!secret) return errorJson(c, 503, 'The project has no JWT secret yet')
    const url = `${id}/${key}`
    const token = await signStorageToken(secret, { url }, body.expiresIn, clock.now())
    const where = url.split('/').map(encodeURIComponent).join('/')
    const signedUrl = `${baseUrl(ownUrl)}/p/${c.var.project.ref}/storage/v1/object/sign/${where}?token=${token}`
    return c.json({ signedUrl } satisfies MemberSignedUrl)
  })

  return app
}
