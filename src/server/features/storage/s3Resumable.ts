/**
 * Resumable uploads kept in the S3-compatible store itself: a TUS data store (for @tus/server) whose partial uploads
 * are an S3 multipart upload, so nothing of them is on this machine's disk and any server process sharing the store
 * can resume them.
 *
 * @tus/s3-store does the same, but it reads an upload's offset back with ListParts, which s3rver (the S3-compatible
 * server the tests run in this process) does not have; this store remembers its parts itself instead. Per upload:
 *  - the multipart upload, at the key of the object version the upload becomes (its id is that version), so the last
 *    byte leaves the object in place, with no copy;
 *  - `<project>/resumable/<id>.info`: the upload's TUS fields, the multipart upload's id and its parts (number, ETag,
 *    size), written after every part: what the offset is read from;
 *  - `<project>/resumable/<id>.pending`: the bytes past the last part, fewer than a part (S3 takes parts of at least
 *    5 MiB but the last), which the next PATCH puts in front of its own. `.info` says how many of its bytes count.
 * A PATCH holds at most one part (PART_BYTES) of bytes in memory and writes no temporary file.
 */
import type { Readable } from 'node:stream'
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3ServiceException,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3'
import { DataStore, ERRORS, Upload } from '@tus/utils'

interface Part {
  number: number
  etag: string
  size: number
}

/** What `.info` holds. */
interface State {
  upload: { id: string; size?: number; metadata?: Record<string, string | null>; creation_date?: string }
  multipartId: string
  parts: Part[]
  /** Bytes of `.pending` that belong to the upload (the object may hold more, written before a crash). */
  pending: number
  /** The object's ETag once the multipart upload is complete. */
  etag?: string
}

const isMissing = (err: unknown) => err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404)

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const partsBytes = (parts: Part[]) => parts.reduce((total, p) => total + p.size, 0)

/** Concatenated chunks, taken from the front a part at a time. */
class Gathered {
  private chunks: Buffer[] = []
  length = 0
  push(chunk: Buffer) {
    this.chunks.push(chunk)
    this.length += chunk.length
  }
  /** The first `n` bytes, removed. */
  take(n: number): Buffer {
    const all = Buffer.concat(this.chunks, this.length)
    const head = all.subarray(0, n)
    const rest = all.subarray(n)
    this.chunks = rest.length ? [Buffer.from(rest)] : []
    this.length = rest.length
    return head
  }
}

export class S3ResumableStore extends DataStore {
  /**
   * `objectKey(id)`: the key of the object version the upload becomes; `stateKey(id)`: where its `.info` and
   * `.pending` go (`stateKey(id) + '.info'`); `partBytes`: the size of every part but the last.
   */
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly objectKey: (id: string) => string,
    private readonly stateKey: (id: string) => string,
    private readonly partBytes: number,
  ) {
    super()
    // No deferred length (the service refuses it) and no expiry here: a project's unfinished uploads go with it.
    this.extensions = ['creation', 'creation-with-upload', 'termination']
  }

  private async readState(id: string): Promise<State> {
    // Ids are the UUIDs the server made; anything else in a URL names no upload.
    if (!UUID.test(id)) throw ERRORS.FILE_NOT_FOUND
    let body: string
    try {
      const got = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: `${this.stateKey(id)}.info` }))
      body = await got.Body!.transformToString()
    } catch (err) {
      if (isMissing(err)) throw ERRORS.FILE_NOT_FOUND
      throw err
    }
    return JSON.parse(body) as State
  }

  private async saveState(state: State) {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: `${this.stateKey(state.upload.id)}.info`, Body: JSON.stringify(state), ContentType: 'application/json' }),
    )
  }

  private async readPending(state: State): Promise<Buffer> {
    if (state.pending === 0) return Buffer.alloc(0)
    const got = await this.client.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: `${this.stateKey(state.upload.id)}.pending`, Range: `bytes=0-${state.pending - 1}` }),
    )
    const bytes = Buffer.from(await got.Body!.transformToByteArray())
    if (bytes.length !== state.pending) throw new Error(`a resumable upload's pending bytes are ${bytes.length}, not ${state.pending}`)
    return bytes
  }

  private toUpload(state: State): Upload {
    return new Upload({ ...state.upload, offset: partsBytes(state.parts) + state.pending, storage: { type: 's3', path: this.objectKey(state.upload.id), bucket: this.bucket } })
  }

  override async create(upload: Upload): Promise<Upload> {
    upload.creation_date = new Date().toISOString()
    const made = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: this.objectKey(upload.id) }))
    const state: State = {
      upload: { id: upload.id, size: upload.size, metadata: upload.metadata, creation_date: upload.creation_date },
      multipartId: made.UploadId!,
      parts: [],
      pending: 0,
    }
    try {
      await this.saveState(state)
    } catch (err) {
      await this.abort(state)
      throw err
    }
    if (upload.size === 0) await this.complete(state, Buffer.alloc(0))
    return this.toUpload(state)
  }

  override async getUpload(id: string): Promise<Upload> {
    return this.toUpload(await this.readState(id))
  }

  private async sendPart(state: State, body: Buffer) {
    const number = state.parts.length + 1
    const sent = await this.client.send(
      new UploadPartCommand({ Bucket: this.bucket, Key: this.objectKey(state.upload.id), UploadId: state.multipartId, PartNumber: number, Body: body, ContentLength: body.length }),
    )
    state.parts.push({ number, etag: sent.ETag!, size: body.length })
  }

  /** Sends the last part (S3 needs one part even for no bytes) and completes the multipart upload. */
  private async complete(state: State, last: Buffer) {
    if (last.length > 0 || state.parts.length === 0) await this.sendPart(state, last)
    const done = await this.client.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.bucket,
        Key: this.objectKey(state.upload.id),
        UploadId: state.multipartId,
        MultipartUpload: { Parts: state.parts.map((p) => ({ PartNumber: p.number, ETag: p.etag })) },
      }),
    )
    state.pending = 0
    state.etag = done.ETag
    await this.saveState(state)
  }

  /**
   * Takes the request's bytes from `offset` (the upload's offset: the server checked it). Every full part goes to the
   * store as it fills, `.info` saved after it; what is left when the request ends (or is cut off: the server then ends
   * the stream) becomes `.pending`, or the last part when the upload is complete.
   */
  override async write(source: Readable, id: string, offset: number): Promise<number> {
    const state = await this.readState(id)
    const size = state.upload.size ?? Number.POSITIVE_INFINITY
    if (offset !== partsBytes(state.parts) + state.pending) throw ERRORS.INVALID_OFFSET
    const gathered = new Gathered()
    const pendingBefore = state.pending
    if (pendingBefore > 0) gathered.push(await this.readPending(state))
    let received = 0
    for await (const chunk of source as AsyncIterable<Buffer>) {
      received += chunk.length
      if (offset + received > size) throw ERRORS.ERR_SIZE_EXCEEDED
      gathered.push(chunk)
      while (gathered.length >= this.partBytes) {
        await this.sendPart(state, gathered.take(this.partBytes))
        // The pending bytes went into that part: .info no longer counts them.
        state.pending = 0
        await this.saveState(state)
      }
    }
    const reached = partsBytes(state.parts) + gathered.length
    if (reached === size) {
      await this.complete(state, gathered.take(gathered.length))
    } else if (received > 0 && gathered.length > 0) {
      const rest = gathered.take(gathered.length)
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: `${this.stateKey(id)}.pending`, Body: rest, ContentLength: rest.length }))
      state.pending = rest.length
      await this.saveState(state)
    }
    return reached
  }

  /** Sends AbortMultipartUpload; a store that cannot (s3rver answers 405) keeps the parts, which is said, not thrown. */
  private async abort(state: State) {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: this.objectKey(state.upload.id), UploadId: state.multipartId }))
    } catch (err) {
      if (isMissing(err)) return
      const code = err instanceof Error ? err.name : 'Error'
      console.warn(`storage: the object store did not abort a resumable upload's multipart upload (${code}); its parts stay until the store expires them`)
    }
  }

  private async removeState(id: string) {
    const key = this.stateKey(id)
    await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: [{ Key: `${key}.info` }, { Key: `${key}.pending` }], Quiet: true } }))
  }

  /** TUS termination, and a project's unfinished uploads when it is deleted: the parts aborted, the state removed. */
  override async remove(id: string): Promise<void> {
    const state = await this.readState(id)
    if (state.etag === undefined) await this.abort(state)
    await this.removeState(id)
  }

  /** A complete upload's bytes as the object version `id`; its state removed. */
  async adopt(id: string): Promise<{ size: number; etag: string }> {
    const state = await this.readState(id)
    if (state.etag === undefined) throw new Error('a resumable upload adopted before its last byte')
    await this.removeState(id)
    return { size: partsBytes(state.parts), etag: state.etag }
  }
}
