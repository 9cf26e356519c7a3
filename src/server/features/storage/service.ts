/**
 * Each project's storage API behind the gateway, `{origin}/p/{ref}/storage/v1/…`, as storage-js (supabase-js) calls
 * the platform's storage service:
 *   GET POST /bucket, GET PUT DELETE /bucket/{id}, POST /bucket/{id}/empty
 *   POST PUT /object/{bucket}/{path}              upload: raw body or multipart form, x-upsert, cache-control
 *   GET HEAD /object/{bucket}/{path}              download (also /object/authenticated/…), Range; with
 *                                                 ?width=&height=&resize=&quality=&format= the image transformed,
 *                                                 as /render/image does it (also on /object/public/…)
 *   GET HEAD /object/public/{bucket}/{path}       a public bucket's object, no key needed
 *   POST /object/list/{bucket}                    one folder: prefix, limit, offset, sortBy, search
 *   POST /object/move, POST /object/copy, DELETE /object/{bucket} { prefixes }
 *   POST /object/sign/{bucket}/{path}, POST /object/sign/{bucket} { paths }, GET /object/sign/{bucket}/{path}?token=
 *   POST /object/upload/sign/{bucket}/{path}, PUT /object/upload/sign/{bucket}/{path}?token=
 *   GET /object/info/{bucket}/{path}
 *   GET HEAD /render/image/authenticated|public|sign/{bucket}/{path}?width=&height=&resize=&quality=&format=
 *                                                 an image transformed (transform.ts); a signed URL made with
 *                                                 `transform` leads there, its token carrying the transformation
 * Metadata is in the project's `storage` schema and every statement about it runs as the caller's role with its
 * claims, so the project's row level security policies decide; a bucket's settings (public, size limit, MIME
 * types) are read as service_role, as the platform's service reads them. Bytes are on disk (disk.ts) or in an
 * S3-compatible store (s3.ts), streamed both ways. Keys are optional at the gateway for the public and signed
 * routes; every other route refuses a request without one here. Errors are `{ statusCode, error, message }` (errors.ts). The bucket routes are buckets.ts; what
 * is read from a request and written in an answer (paths, bodies, uploads, ranges) is request.ts.
 */
import { Hono, type Context } from 'hono'
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose'
import type { Deps } from '../../core/deps'
import type { Caller, GatewayContext, GatewayEnv, Product } from '../../gateway'
import type { DbRole, ProjectTx } from '../../projectdb/types'
import { bucketAnswer } from './buckets'
import { answerError, bucketNotFound, invalidRequest, noCaller, objectNotFound, refuse, StorageError, storageErrorResponse, tooLarge } from './errors'
import { resumableUploads } from './resumable'
import { checkKey, decodePath, mimeAllowed } from './paths'
import {
  cacheControlOf,
  CopyBody,
  DEFAULT_MIME,
  json,
  jsonBody,
  ListBody,
  MoveBody,
  receive,
  RemoveBody,
  serveObject,
  SignBody,
  SignManyBody,
  tailOf,
  target,
  userMetadataOf,
  type Received,
  type Target,
} from './request'
import { DEFAULT_IMAGE_LIMITS, RenderCache, renderImage, transformAsked, transformOf, transformQueryString, type ImageLimits, type Transform } from './transform'
import { deleteObjects, findBucket, findObject, listFolder, moveObject, putObject, visibleNames, type BucketInfo, type ObjectMetadata, type ObjectRow } from './store'

/** The largest object any bucket takes (a bucket's own limit may be lower). */
export const GLOBAL_FILE_SIZE_LIMIT = 5 * 1024 ** 3
/** How long a signed upload URL stays valid (the platform's two hours). */
const UPLOAD_URL_SECONDS = 2 * 60 * 60

/** A token of the storage service's signed URLs: HS256 with the project's JWT secret, expiring after `seconds`. */
export function signStorageToken(secret: string, claims: Record<string, unknown>, seconds: number, now: Date) {
  const iat = Math.floor(now.getTime() / 1000)
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt(iat).setExpirationTime(iat + seconds).sign(new TextEncoder().encode(secret))
}

/** The storage service as a product of the gateway. */
export function storageProduct(deps: Pick<Deps, 'config' | 'clock' | 'lifecycle' | 'objects'>): Product {
  const app = new Hono<GatewayEnv>()
  const { objects } = deps
  // A deleted project's (or branch's) bytes go with it.
  deps.lifecycle.onRemoval(({ ref }) => objects.removeProject(ref))
  const imageLimits: ImageLimits = { ...DEFAULT_IMAGE_LIMITS, ...deps.config.storage }
  const rendered = new RenderCache(imageLimits.cacheBytes)

  const caller = (g: GatewayContext): Caller => {
    if (!g.caller) throw noCaller()
    return g.caller
  }
  /** A transaction as the caller (their role and claims: row level security decides). */
  const asCaller = <T>(g: GatewayContext, fn: (tx: ProjectTx) => Promise<T>) => {
    const who = caller(g)
    return g.transaction({ role: who.role, claims: who.claims }, fn)
  }
  const asService = <T>(g: GatewayContext, fn: (tx: ProjectTx) => Promise<T>, role: DbRole = 'service_role') => g.transaction({ role }, fn)

  /** The object's bytes, or its image transformed when `transform` is given: /render/image's path, limits and cache. */
  const serveOrRender = (c: Context<GatewayEnv>, row: ObjectRow | undefined, transform: Transform | undefined) =>
    transform ? renderImage(c, objects, row, c.var.gateway.project.ref, transform, imageLimits, rendered) : serveObject(c, objects, row, c.var.gateway.project.ref)

  const secretOf = (g: GatewayContext) => {
    if (!g.project.jwtSecret) throw new StorageError(503, 'Service unavailable', 'The project has no JWT secret yet')
    return new TextEncoder().encode(g.project.jwtSecret)
  }

  async function sign(g: GatewayContext, claims: Record<string, unknown>, seconds: number) {
    secretOf(g)
    return signStorageToken(g.project.jwtSecret!, claims, seconds, deps.clock.now())
  }

  /** The claims of a signed URL's token, for this exact object; 400 otherwise. */
  async function verifyToken(g: GatewayContext, token: string | undefined, url: string) {
    if (!token) throw new StorageError(400, 'InvalidJWT', 'A token query parameter is required')
    let payload: Record<string, unknown>
    try {
      ;({ payload } = await jwtVerify(token, secretOf(g), { algorithms: ['HS256'], currentDate: deps.clock.now() }))
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new StorageError(400, 'InvalidJWT', '"exp" claim timestamp check failed')
      throw new StorageError(400, 'InvalidJWT', 'The token is not valid: it does not verify with the project secret')
    }
    if (payload.url !== url) throw new StorageError(400, 'InvalidSignature', 'The url do not match the signature')
    return payload
  }

  /** Stores an upload and writes its row in `write` (the caller's transaction, or service_role's for a signed URL). */
  async function upload(
    c: Context<GatewayEnv>,
    t: Target,
    write: (fn: (tx: ProjectTx) => Promise<string | undefined>) => Promise<string | undefined>,
    opts: { upsert: boolean; owner: string | undefined },
  ) {
    const g = c.var.gateway
    const ref = g.project.ref
    const bucket = await asService(g, (tx) => findBucket(tx, t.bucket))
    if (!bucket) throw bucketNotFound()
    const limit = Math.min(bucket.file_size_limit ?? GLOBAL_FILE_SIZE_LIMIT, GLOBAL_FILE_SIZE_LIMIT)
    let got: Received
    try {
      got = await receive(c, objects, ref, limit)
    } catch (err) {
      if (err instanceof StorageError) throw err
      // The client went away (or its stream broke) before the end of the body: nothing was stored.
      throw new StorageError(400, 'InvalidRequest', 'The upload was cut off before the end of its body: nothing was stored')
    }
    return json(await commit(g, t, bucket, got, write, opts))
  }

  /**
   * Writes the row of bytes already stored (`got`) in `write`'s transaction; removes the bytes when it fails and
   * the version it replaced once it is committed. The answer's `{ Id, Key }`.
   */
  async function commit(
    g: GatewayContext,
    t: Target,
    bucket: BucketInfo,
    got: Received,
    write: (fn: (tx: ProjectTx) => Promise<string | undefined>) => Promise<string | undefined>,
    opts: { upsert: boolean; owner: string | undefined },
  ): Promise<{ Id: string | undefined; Key: string }> {
    const ref = g.project.ref
    let committed = false
    try {
      if (!mimeAllowed(got.mime, bucket.allowed_mime_types)) {
        throw new StorageError(415, 'invalid_mime_type', `mime type ${got.mime} is not supported`)
      }
      const metadata: ObjectMetadata = {
        eTag: got.written.etag,
        size: got.written.size,
        mimetype: got.mime,
        cacheControl: got.cacheControl,
        lastModified: deps.clock.now().toISOString(),
        contentLength: got.written.size,
        httpStatusCode: 200,
      }
      let replaced: string | undefined
      const id = await write(async (tx) => {
        if (opts.upsert) replaced = (await findObject(tx, t.bucket, t.key))?.version
        return putObject(
          tx,
          { bucket: t.bucket, name: t.key, owner: opts.owner, version: got.written.version, metadata, userMetadata: got.userMetadata },
          opts.upsert,
        )
      })
      committed = true
      if (replaced) await objects.remove(ref, [replaced])
      return { Id: id, Key: `${t.bucket}/${t.key}` }
    } finally {
      if (!committed) await objects.remove(ref, [got.written.version])
    }
  }

  const resumable = resumableUploads({
    objects,
    async begin(g, meta, size) {
      const who = caller(g)
      const t = { bucket: meta.bucketName ?? '', key: checkKey(meta.objectName ?? '') }
      if (!t.bucket) throw invalidRequest('Upload-Metadata must name bucketName and objectName')
      const bucket = await asService(g, (tx) => findBucket(tx, t.bucket))
      if (!bucket) throw bucketNotFound()
      if (size > Math.min(bucket.file_size_limit ?? GLOBAL_FILE_SIZE_LIMIT, GLOBAL_FILE_SIZE_LIMIT)) throw tooLarge()
      const mime = meta.contentType || DEFAULT_MIME
      if (!mimeAllowed(mime, bucket.allowed_mime_types)) throw new StorageError(415, 'invalid_mime_type', `mime type ${mime} is not supported`)
      // Whether the caller may write this object, asked now rather than after the last byte: the row is inserted as
      // the caller (policies and a taken name decide) and rolled back.
      const dryRun = new Error('dry run')
      try {
        await asCaller(g, async (tx) => {
          const version = '00000000-0000-4000-8000-000000000000'
          await putObject(tx, { bucket: t.bucket, name: t.key, owner: undefined, version, metadata: {} as ObjectMetadata, userMetadata: null }, meta.upsert === 'true')
          throw dryRun
        })
      } catch (err) {
        if (err !== dryRun) throw err
      }
      return { owner: typeof who.claims.sub === 'string' ? who.claims.sub : '', role: who.role }
    },
    checkOwner(g, meta) {
      const who = caller(g)
      const sub = typeof who.claims.sub === 'string' ? who.claims.sub : ''
      if (meta.owner !== sub || meta.role !== who.role) throw new StorageError(403, 'Unauthorized', 'This upload was started by another caller')
    },
    async finish(g, meta, written) {
      const t = { bucket: meta.bucketName ?? '', key: checkKey(meta.objectName ?? '') }
      const bucket = await asService(g, (tx) => findBucket(tx, t.bucket))
      if (!bucket) {
        await objects.remove(g.project.ref, [written.version])
        throw bucketNotFound()
      }
      const got: Received = {
        written,
        mime: meta.contentType || DEFAULT_MIME,
        cacheControl: cacheControlOf(meta.cacheControl ?? undefined),
        userMetadata: userMetadataOf(meta.metadata ?? undefined, false),
      }
      const who = caller(g)
      await commit(g, t, bucket, got, (fn) => asCaller(g, fn), { upsert: meta.upsert === 'true', owner: who.claims.sub as string | undefined })
    },
  })

  // One dispatcher over the raw path: keys are percent-encoded by the client and may hold anything a URL can carry,
  // so the path is cut here rather than by route patterns that would decode it first.
  app.all('*', async (c) => {
    const g = c.var.gateway
    const ref = g.project.ref
    const method = c.req.method
    const tail = tailOf(c)
    const rest = (prefix: string) => (tail.startsWith(prefix) ? tail.slice(prefix.length) : undefined)
    let m: string | undefined
    try {
      const buckets = await bucketAnswer(c, tail, (fn) => asCaller(g, fn), objects)
      if (buckets) return buckets

      // Resumable uploads (TUS): the library answers in the protocol's terms; our refusals keep storage's shape.
      if (tail === '/upload/resumable' || tail.startsWith('/upload/resumable/')) {
        if (method !== 'OPTIONS') caller(g)
        return await resumable.handle(g, c.req.raw, c.req.header('x-upsert') === 'true')
      }

      // Image transformations: as the caller, of a public bucket, or through a signed URL.
      if ((m = rest('/render/image/')) !== undefined && (method === 'GET' || method === 'HEAD')) {
        const [kind, ...parts] = m.split('/')
        const t = target(parts.join('/'))
        if (kind === 'authenticated') {
          const transform = transformOf(c.req.query())
          return await renderImage(c, objects, await asCaller(g, (tx) => findObject(tx, t.bucket, t.key)), ref, transform, imageLimits, rendered)
        }
        if (kind === 'public') {
          const transform = transformOf(c.req.query())
          const row = await asService(g, async (tx) => {
            const bucket = await findBucket(tx, t.bucket)
            if (!bucket?.public) throw bucketNotFound()
            return findObject(tx, t.bucket, t.key)
          })
          return await renderImage(c, objects, row, ref, transform, imageLimits, rendered)
        }
        if (kind === 'sign') {
          const claims = await verifyToken(g, c.req.query('token'), `${t.bucket}/${t.key}`)
          // The token's transformation, not one added to the URL afterwards.
          const transform = transformOf(Object.fromEntries(new URLSearchParams(typeof claims.transformations === 'string' ? claims.transformations : '')))
          return await renderImage(c, objects, await asService(g, (tx) => findObject(tx, t.bucket, t.key)), ref, transform, imageLimits, rendered)
        }
      }

      // Objects: the fixed prefixes first, then /object/{bucket}/…
      if ((m = rest('/object/public/')) !== undefined && (method === 'GET' || method === 'HEAD')) {
        const t = target(m)
        const transform = transformAsked(c.req.query())
        const row = await asService(g, async (tx) => {
          const bucket = await findBucket(tx, t.bucket)
          if (!bucket?.public) throw bucketNotFound()
          return findObject(tx, t.bucket, t.key)
        })
        return await serveOrRender(c, row, transform)
      }
      if ((m = rest('/object/list/')) !== undefined && method === 'POST') {
        const bucket = decodePath(m.replace(/\/$/, ''))
        const body = await jsonBody(c, ListBody)
        return json(await asCaller(g, (tx) => listFolder(tx, bucket, body)))
      }
      if (tail === '/object/move' && method === 'POST') {
        const body = await jsonBody(c, MoveBody)
        const to = { bucket: body.destinationBucket ?? body.bucketId, name: checkKey(body.destinationKey) }
        const moved = await asCaller(g, (tx) => moveObject(tx, { bucket: body.bucketId, name: body.sourceKey }, to))
        if (!moved) throw objectNotFound()
        return json({ message: 'Successfully moved' })
      }
      if (tail === '/object/copy' && method === 'POST') {
        const body = await jsonBody(c, CopyBody)
        const to = { bucket: body.destinationBucket ?? body.bucketId, name: checkKey(body.destinationKey) }
        const upsert = c.req.header('x-upsert') === 'true'
        const source = await asCaller(g, (tx) => findObject(tx, body.bucketId, body.sourceKey))
        if (!source) throw objectNotFound()
        const version = await objects.copy(ref, source.version)
        let committed = false
        try {
          let replaced: string | undefined
          const id = await asCaller(g, async (tx) => {
            if (upsert) replaced = (await findObject(tx, to.bucket, to.name))?.version
            return putObject(
              tx,
              {
                bucket: to.bucket,
                name: to.name,
                owner: caller(g).claims.sub as string | undefined,
                version,
                metadata: { ...source.metadata, lastModified: deps.clock.now().toISOString() },
                userMetadata: body.copyMetadata === false ? (body.metadata ?? null) : source.user_metadata,
              },
              upsert,
            )
          })
          committed = true
          if (replaced) await objects.remove(ref, [replaced])
          return json({ Id: id, Key: `${to.bucket}/${to.name}` })
        } finally {
          if (!committed) await objects.remove(ref, [version])
        }
      }
      if ((m = rest('/object/upload/sign/')) !== undefined) {
        const t = target(m)
        if (method === 'POST') {
          const who = caller(g)
          const bucket = await asService(g, (tx) => findBucket(tx, t.bucket))
          if (!bucket) throw bucketNotFound()
          const url = `${t.bucket}/${t.key}`
          const token = await sign(g, { url, owner: who.claims.sub, upsert: c.req.header('x-upsert') === 'true' }, UPLOAD_URL_SECONDS)
          return json({ url: `/object/upload/sign/${url}?token=${token}`, token })
        }
        if (method === 'PUT' || method === 'POST') {
          const claims = await verifyToken(g, c.req.query('token'), `${t.bucket}/${t.key}`)
          return await upload(c, t, (fn) => asService(g, fn), {
            upsert: claims.upsert === true,
            owner: typeof claims.owner === 'string' ? claims.owner : undefined,
          })
        }
      }
      if ((m = rest('/object/sign/')) !== undefined) {
        if (method === 'GET' || method === 'HEAD') {
          const t = target(m)
          const claims = await verifyToken(g, c.req.query('token'), `${t.bucket}/${t.key}`)
          // As on /render/image/sign: the token's transformation if it carries one, never one the URL adds.
          const transform = typeof claims.transformations === 'string' ? transformAsked(Object.fromEntries(new URLSearchParams(claims.transformations))) : undefined
          return await serveOrRender(c, await asService(g, (tx) => findObject(tx, t.bucket, t.key)), transform)
        }
        if (method === 'POST' && !m.replace(/\/$/, '').includes('/')) {
          const bucket = decodePath(m.replace(/\/$/, ''))
          const body = await jsonBody(c, SignManyBody)
          const visible = await asCaller(g, (tx) => visibleNames(tx, bucket, body.paths))
          const out = []
          for (const p of body.paths) {
            if (!visible.has(p)) {
              out.push({ error: 'Either the object does not exist or you do not have access to it', path: p, signedURL: null })
              continue
            }
            const url = `${bucket}/${p}`
            out.push({ error: null, path: p, signedURL: `/object/sign/${url}?token=${await sign(g, { url }, body.expiresIn)}` })
          }
          return json(out)
        }
        if (method === 'POST') {
          const t = target(m)
          const body = await jsonBody(c, SignBody)
          const row = await asCaller(g, (tx) => findObject(tx, t.bucket, t.key))
          if (!row) throw objectNotFound()
          const url = `${t.bucket}/${t.key}`
          if (body.transform && Object.keys(body.transform).length > 0) {
            // Checked now, so a bad transformation is refused here rather than by the URL later.
            const transformations = transformQueryString(transformOf(Object.fromEntries(Object.entries(body.transform).map(([k, v]) => [k, String(v)]))))
            return json({ signedURL: `/render/image/sign/${url}?token=${await sign(g, { url, transformations }, body.expiresIn)}` })
          }
          return json({ signedURL: `/object/sign/${url}?token=${await sign(g, { url }, body.expiresIn)}` })
        }
      }
      if ((m = rest('/object/info/')) !== undefined && method === 'GET') {
        const t = target(m.replace(/^(authenticated|public)\//, ''))
        const row = await asCaller(g, (tx) => findObject(tx, t.bucket, t.key))
        if (!row) throw objectNotFound()
        return json({
          id: row.id,
          version: row.version,
          name: row.name,
          bucket_id: row.bucket_id,
          size: row.metadata.size,
          content_type: row.metadata.mimetype,
          cache_control: row.metadata.cacheControl,
          etag: row.metadata.eTag,
          last_modified: row.metadata.lastModified,
          created_at: row.created_at,
          updated_at: row.updated_at,
          metadata: row.user_metadata,
        })
      }
      if ((m = rest('/object/')) !== undefined) {
        if (method === 'DELETE' && !m.replace(/\/$/, '').includes('/')) {
          const bucket = decodePath(m.replace(/\/$/, ''))
          const body = await jsonBody(c, RemoveBody)
          const rows = await asCaller(g, (tx) => deleteObjects(tx, bucket, body.prefixes))
          await objects.remove(ref, rows.map((r) => r.version))
          return json(rows.map(({ version: _v, ...r }) => r))
        }
        const t = target(m.replace(/^authenticated\//, method === 'GET' || method === 'HEAD' ? '' : 'authenticated/'))
        if (method === 'GET' || method === 'HEAD') {
          const transform = transformAsked(c.req.query())
          return await serveOrRender(c, await asCaller(g, (tx) => findObject(tx, t.bucket, t.key)), transform)
        }
        if (method === 'POST' || method === 'PUT') {
          const who = caller(g)
          // PUT replaces (storage-js's update()); POST creates, or replaces with x-upsert: true.
          const upsert = method === 'PUT' || c.req.header('x-upsert') === 'true'
          return await upload(c, t, (fn) => asCaller(g, fn), { upsert, owner: who.claims.sub as string | undefined })
        }
      }
      return storageErrorResponse(404, 'not_found', `No route ${method} ${tail}`)
    } catch (err) {
      return answerError(err)
    }
  })

  return { name: 'storage', app, keys: 'optional', refuse: (_c, refusal) => refuse(refusal) }
}
