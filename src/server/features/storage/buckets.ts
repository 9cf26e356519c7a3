/**
 * The storage API's bucket routes, as storage-js calls them: GET POST /bucket, GET PUT DELETE /bucket/{id}, POST
 * /bucket/{id}/empty. Each runs as the caller (row level security decides); an emptied bucket's bytes leave the store
 * once its rows are gone.
 */
import type { Context } from 'hono'
import type { Bucket } from '../../../contracts/storage'
import type { GatewayEnv } from '../../gateway'
import type { ProjectTx } from '../../projectdb/types'
import type { ObjectBytes } from '../../core/objectBytes'
import { bucketNotFound, duplicate, StorageError } from './errors'
import { checkBucketName, decodePath, parseSizeLimit } from './paths'
import { CreateBucketBody, json, jsonBody, UpdateBucketBody } from './request'
import { deleteBucket, emptyBucket, findBucket, insertBucket, listBuckets, updateBucket } from './store'

/** A transaction as the request's caller. */
export type AsCaller = <T>(fn: (tx: ProjectTx) => Promise<T>) => Promise<T>

/** The answer of a bucket route; undefined when `tail` and the method name none. */
export async function bucketAnswer(c: Context<GatewayEnv>, tail: string, asCaller: AsCaller, objects: ObjectBytes): Promise<Response | undefined> {
  const ref = c.var.gateway.project.ref
  const method = c.req.method
  if (tail === '/bucket' || tail === '/bucket/') {
    if (method === 'GET') return json(await asCaller(listBuckets))
    if (method === 'POST') {
      const body = await jsonBody(c, CreateBucketBody)
      const name = checkBucketName(body.id ?? body.name)
      const limit = parseSizeLimit(body.file_size_limit)
      const made = await asCaller((tx) =>
        insertBucket(tx, { name, public: body.public ?? false, file_size_limit: limit, allowed_mime_types: body.allowed_mime_types ?? null }),
      )
      if (!made) throw duplicate()
      return json({ name })
    }
  }
  if (tail.startsWith('/bucket/')) {
    const m = tail.slice('/bucket/'.length)
    const empty = m.endsWith('/empty')
    const id = decodePath(empty ? m.slice(0, -'/empty'.length) : m)
    if (empty && method === 'POST') {
      const versions = await asCaller(async (tx) => {
        if (!(await findBucket(tx, id))) throw bucketNotFound()
        return emptyBucket(tx, id)
      })
      await objects.remove(ref, versions)
      return json({ message: 'Successfully emptied' })
    }
    if (!empty && method === 'GET') {
      const found = (await asCaller(listBuckets)).find((b: Bucket) => b.id === id)
      if (!found) throw bucketNotFound()
      return json(found)
    }
    if (!empty && method === 'PUT') {
      const body = await jsonBody(c, UpdateBucketBody)
      const changes = {
        public: body.public,
        file_size_limit: body.file_size_limit === undefined ? undefined : parseSizeLimit(body.file_size_limit),
        allowed_mime_types: body.allowed_mime_types,
      }
      const changed = await asCaller((tx) => updateBucket(tx, id, changes))
      if (!changed) throw bucketNotFound()
      return json({ message: 'Successfully updated' })
    }
    if (!empty && method === 'DELETE') {
      const gone = await asCaller((tx) => deleteBucket(tx, id))
      if (gone === 'not_empty') throw new StorageError(409, 'InvalidRequest', 'The bucket you tried to delete is not empty')
      if (gone === 'missing') throw bucketNotFound()
      return json({ message: 'Successfully deleted' })
    }
  }
  return undefined
}
