/**
 * Resumable uploads, `/p/{ref}/storage/v1/upload/resumable`, with the TUS protocol as the platform offers them
 * (its clients: tus-js-client, Uppy), served by @tus/server: one TUS server per project, its partial uploads in the
 * data store the objects' bytes give (a folder of this disk, or the S3-compatible store itself). Upload-Metadata names `bucketName`, `objectName`,
 * `contentType`, `cacheControl` and `metadata` (JSON), as storage's TUS endpoint reads them; `x-upsert: true` on the
 * creation replaces an existing object.
 * When an upload is created, the caller's right to write the object is asked at once (bucket, size limit, MIME type,
 * and the row inserted as the caller and rolled back, so policies and a taken name refuse it before any byte); the
 * caller is written into the upload, and every later request on it (PATCH, HEAD, GET, DELETE) must come from the same
 * role and user. The last byte adopts the upload as an object version (a rename on disk; in an S3-compatible store
 * the completed multipart upload already is one) and writes its row as the caller; if that fails the bytes are removed.
 */
import { randomUUID } from 'node:crypto'
import { Server } from '@tus/server'
import type { DataStore } from '@tus/utils'
import type { GatewayContext } from '../../gateway'
import type { ObjectBytes, Written } from '../../core/objectBytes'
import { answerError, StorageError } from './errors'

type Meta = Record<string, string | null | undefined>

export interface ResumableHooks {
  objects: ObjectBytes
  /** Checks a new upload (throws a StorageError or a database error); what to remember of its caller. */
  begin(g: GatewayContext, meta: Meta, size: number): Promise<Record<string, string>>
  /** Throws unless the request comes from the caller that began the upload. */
  checkOwner(g: GatewayContext, meta: Meta): void
  /** Writes the object's row for the finished bytes. */
  finish(g: GatewayContext, meta: Meta, written: Written): Promise<void>
}

/** An error as @tus/server answers it: status and body (storage's JSON shape). */
async function tusError(err: unknown): Promise<{ status_code: number; body: string }> {
  const res = answerError(err)
  return { status_code: res.status, body: await res.text() }
}

export function resumableUploads(hooks: ResumableHooks) {
  const servers = new Map<string, { server: Server; store: DataStore }>()
  const requests = new WeakMap<Request, { g: GatewayContext; upsert: boolean }>()

  const contextOf = (req: unknown) => {
    const ctx = requests.get(req as Request)
    if (!ctx) throw new Error('a resumable upload request without its gateway context')
    return ctx
  }

  function serverFor(ref: string) {
    let entry = servers.get(ref)
    if (entry) return entry
    const store = hooks.objects.resumableStore(ref)
    const server = new Server({
      path: `/p/${ref}/storage/v1/upload/resumable`,
      datastore: store,
      // The stores take UUIDs (in S3 the id is the object version the upload becomes).
      namingFunction: () => randomUUID(),
      generateUrl: (req, { id }) => `${contextOf(req).g.reachedAt}/storage/v1/upload/resumable/${id}`,
      async onUploadCreate(req, upload) {
        const { g, upsert } = contextOf(req)
        if (upload.sizeIsDeferred || upload.size === undefined) {
          throw await tusError(new StorageError(400, 'InvalidRequest', 'Upload-Length is required: a resumable upload says its size first'))
        }
        const meta: Meta = { ...upload.metadata, upsert: upsert || upload.metadata?.upsert === 'true' ? 'true' : 'false' }
        try {
          const who = await hooks.begin(g, meta, upload.size)
          return { metadata: { ...(meta as Record<string, string>), ...who } }
        } catch (err) {
          throw await tusError(err)
        }
      },
      async onIncomingRequest(req, id) {
        if (req.method === 'POST') return
        const { g } = contextOf(req)
        let meta: Meta
        try {
          meta = (await store.getUpload(id)).metadata ?? {}
        } catch {
          // Unknown upload: the library's own 404 follows.
          return
        }
        try {
          hooks.checkOwner(g, meta)
        } catch (err) {
          throw await tusError(err)
        }
      },
      async onUploadFinish(req, upload) {
        const { g } = contextOf(req)
        let written: Written
        try {
          written = await hooks.objects.adopt(ref, upload.id)
        } catch (err) {
          await hooks.objects.discard(ref, upload.id).catch(() => {})
          throw await tusError(err)
        }
        try {
          // The version is the object's from here: finish removes it when its row is not written.
          await hooks.finish(g, upload.metadata ?? {}, written)
        } catch (err) {
          throw await tusError(err)
        }
        return {}
      },
    })
    entry = { server, store }
    servers.set(ref, entry)
    return entry
  }

  return {
    /** Serves one TUS request of the project `g` names. */
    async handle(g: GatewayContext, req: Request, upsert: boolean): Promise<Response> {
      requests.set(req, { g, upsert })
      return serverFor(g.project.ref).server.handleWeb(req as never)
    },
  }
}
