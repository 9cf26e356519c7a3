/**
 * Object bytes in an S3-compatible store (STORAGE_S3_URL), through the AWS SDK v3: one S3 object per object
 * version, `<prefix><ref>/<version>`. A write streams through @aws-sdk/lib-storage's Upload, which sends a body of
 * up to one part as one PutObject and a larger one as a multipart upload, one part at a time: at most one part
 * (PART_BYTES) of it is in memory. S3 makes an object visible only once its PutObject or its multipart upload is
 * complete, so a body cut off or refused past its limit never shows as an object; the Upload aborts the multipart
 * upload it began. Reads are GetObject's body streamed as it arrives, Range passed on; a copy is the store's own
 * CopyObject. Resumable uploads are multipart uploads of the store itself (s3Resumable.ts), under
 * `<prefix><ref>/resumable/` until their last byte makes them the object version their id names: nothing of them is
 * on this machine's disk. The secret key is only ever handed to the SDK's client.
 */
import { randomUUID } from 'node:crypto'
import { PassThrough, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import type { S3Settings } from '../../config'
import type { ObjectBytes, Written } from '../../core/objectBytes'
import { checkVersion } from './disk'
import { objectNotFound, StorageError } from './errors'
import { metered } from './metered'
import { S3ResumableStore } from './s3Resumable'

/** The size of one part of a multipart upload: S3's smallest (every part but the last must be at least 5 MiB). */
export const PART_BYTES = 5 * 1024 * 1024
/** Keys one DeleteObjects may name (S3's limit). */
const DELETE_BATCH = 1000

/** An error of the store, in storage's shape: its code said, nothing of the request (which carries credentials). */
function storeError(err: unknown): never {
  if (err instanceof StorageError) throw err
  const code = err instanceof S3ServiceException ? err.name : err instanceof Error ? err.name : 'Error'
  throw new StorageError(503, 'Service unavailable', `The object store did not take the request (${code})`)
}

const isMissing = (err: unknown) => err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404)

/** A key's last segment names an object version (a UUID), not a resumable upload's state under `resumable/`. */
const VERSION = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

export class S3Objects implements ObjectBytes {
  readonly kind = 's3'
  /** The SDK's client: every request to the store goes through it (tests watch its middleware stack). */
  readonly client: S3Client
  /** Writes under way, by project: what `unfinished` reports. */
  private readonly writing = new Map<string, Set<string>>()

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // The SDK's default retries: a request whose body is a stream is not retried (its bytes are gone).
    })
  }

  private projectPrefix(ref: string) {
    return `${this.settings.prefix}${ref}/`
  }

  private key(ref: string, version: string) {
    return `${this.projectPrefix(ref)}${checkVersion(version)}`
  }

  /** Streams `source` to a new version through `meter`; nothing is visible in the store unless every byte went. */
  private async send(ref: string, source: Readable, limit: number): Promise<Written> {
    const version = randomUUID()
    const meter = metered(limit)
    const body = new PassThrough({ highWaterMark: 64 * 1024 })
    const inFlight = this.writing.get(ref) ?? new Set<string>()
    this.writing.set(ref, inFlight.add(version))
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: this.key(ref, version), Body: body },
      partSize: PART_BYTES,
      queueSize: 1,
      leavePartsOnError: false,
    })
    // Whichever fails first decides the answer: the source (cut off, past the limit: nothing is stored) or the store.
    // Either failure stops the other side: the pipeline destroys the body the upload reads, and a failed upload
    // destroys the body so the source stops being read.
    const failed: { first?: { from: 'source' | 'store'; err: unknown } } = {}
    const fed = pipeline(source, meter.stream, body).catch((err: unknown) => {
      failed.first ??= { from: 'source', err }
    })
    const sent = upload.done().catch((err: unknown) => {
      failed.first ??= { from: 'store', err }
      body.destroy()
    })
    try {
      await Promise.all([fed, sent])
    } finally {
      inFlight.delete(version)
      if (inFlight.size === 0) this.writing.delete(ref)
    }
    if (failed.first) {
      await upload.abort().catch(() => {})
      if (failed.first.from === 'source') throw failed.first.err
      storeError(failed.first.err)
    }
    return meter.written(version)
  }

  write(ref: string, source: Readable, limit: number): Promise<Written> {
    return this.send(ref, source, limit)
  }

  private resumablePrefix(ref: string) {
    return `${this.projectPrefix(ref)}resumable/`
  }

  resumableStore(ref: string): S3ResumableStore {
    return new S3ResumableStore(
      this.client,
      this.settings.bucket,
      (id) => this.key(ref, id),
      (id) => `${this.resumablePrefix(ref)}${id}`,
      PART_BYTES,
    )
  }

  /** The upload's bytes are already the object version its id names: only its state goes. */
  async adopt(ref: string, uploadId: string): Promise<Written> {
    try {
      const { size, etag } = await this.resumableStore(ref).adopt(uploadId)
      return { version: checkVersion(uploadId), size, etag }
    } catch (err) {
      return storeError(err)
    }
  }

  async discard(ref: string, uploadId: string): Promise<void> {
    try {
      await this.resumableStore(ref).remove(uploadId)
    } catch (err) {
      // Anything but the store's own error is the library's 404: the state is gone, the bytes may still be an object.
      if (err instanceof S3ServiceException) storeError(err)
    }
    await this.remove(ref, [checkVersion(uploadId)])
  }

  async copy(ref: string, from: string): Promise<string> {
    const version = randomUUID()
    const source = this.key(ref, from).split('/').map(encodeURIComponent).join('/')
    try {
      await this.client.send(new CopyObjectCommand({ Bucket: this.settings.bucket, Key: this.key(ref, version), CopySource: `${this.settings.bucket}/${source}` }))
    } catch (err) {
      if (isMissing(err)) throw objectNotFound()
      storeError(err)
    }
    return version
  }

  async read(ref: string, version: string, range?: { start: number; end: number }): Promise<Readable> {
    try {
      const got = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(ref, version), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      )
      return got.Body as Readable
    } catch (err) {
      if (isMissing(err)) throw objectNotFound()
      return storeError(err)
    }
  }

  async size(ref: string, version: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: this.key(ref, version) }))
      return head.ContentLength
    } catch (err) {
      if (isMissing(err)) return undefined
      return storeError(err)
    }
  }

  private async deleteKeys(keys: string[]) {
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH)
      try {
        const done = await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.settings.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
        )
        if (done.Errors?.length) storeError(new Error(done.Errors[0].Code ?? 'DeleteObjects'))
      } catch (err) {
        storeError(err)
      }
    }
  }

  async remove(ref: string, versions: readonly string[]): Promise<void> {
    await this.deleteKeys(versions.map((v) => this.key(ref, v)))
  }

  /** Every S3 object under the project's prefix (or `prefix`). */
  private async list(ref: string, prefix = this.projectPrefix(ref)): Promise<Array<{ key: string; size: number }>> {
    const out: Array<{ key: string; size: number }> = []
    let token: string | undefined
    do {
      let page
      try {
        page = await this.client.send(new ListObjectsV2Command({ Bucket: this.settings.bucket, Prefix: prefix, ContinuationToken: token }))
      } catch (err) {
        return storeError(err)
      }
      for (const o of page.Contents ?? []) if (o.Key) out.push({ key: o.Key, size: o.Size ?? 0 })
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
    return out
  }

  async stored(ref: string): Promise<Array<{ version: string; size: number }>> {
    const prefix = this.projectPrefix(ref)
    return (await this.list(ref)).map((o) => ({ version: o.key.slice(prefix.length), size: o.size })).filter((o) => VERSION.test(o.version))
  }

  /** The writes of this process still sending bytes (the store shows none of them as objects until complete). */
  async unfinished(ref: string): Promise<string[]> {
    return [...(this.writing.get(ref) ?? [])]
  }

  /** Its unfinished resumable uploads aborted first (their parts are no objects: a listing does not find them). */
  async removeProject(ref: string): Promise<void> {
    const store = this.resumableStore(ref)
    const states = (await this.list(ref, this.resumablePrefix(ref))).map((o) => o.key.slice(this.resumablePrefix(ref).length)).filter((name) => name.endsWith('.info'))
    for (const name of states) {
      try {
        await store.remove(name.slice(0, -'.info'.length))
      } catch (err) {
        if (err instanceof S3ServiceException) storeError(err)
      }
    }
    await this.deleteKeys((await this.list(ref)).map((o) => o.key))
  }
}
