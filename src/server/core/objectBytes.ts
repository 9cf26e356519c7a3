/**
 * Where projects' stored objects keep their bytes: on the local disk (DATA_DIR/storage/<ref>/…) or in an
 * S3-compatible store (STORAGE_S3_URL), both in features/storage. One object version is one blob named by a random
 * id its row holds, so a move is a row update and a replaced object's old bytes go once the new row is committed.
 * Both stream: no write or read holds more than a few MB of an object in memory. The usage pages read the bytes a
 * project keeps through this, and a deleted project's bytes go through it.
 */
import type { Readable } from 'node:stream'
import type { DataStore } from '@tus/utils'

export interface Written {
  version: string
  size: number
  /** Quoted MD5 of the bytes, as the platform's eTag. */
  etag: string
}

export interface ObjectBytes {
  /** 'disk' or 's3', as the server says at start-up (never with credentials). */
  readonly kind: 'disk' | 's3'
  /**
   * Streams `source` into a new version, which exists only once every byte is in: a body cut off or past `limit`
   * bytes (413, refused while it streams) leaves nothing behind.
   */
  write(ref: string, source: Readable, limit: number): Promise<Written>
  /**
   * The TUS data store where a project's resumable uploads gather their bytes until they are complete: a folder of
   * this machine's disk, or the S3-compatible store itself (nothing of them on this disk).
   */
  resumableStore(ref: string): DataStore
  /** Takes a complete resumable upload (by its id) as a new version; the upload itself is gone afterwards. */
  adopt(ref: string, uploadId: string): Promise<Written>
  /** Removes a resumable upload, complete or not, and its bytes: one that could not become an object. */
  discard(ref: string, uploadId: string): Promise<void>
  /** A copy of a version under a new one. */
  copy(ref: string, from: string): Promise<string>
  /** The bytes of a version, or of `[start, end]` (inclusive) of it. */
  read(ref: string, version: string, range?: { start: number; end: number }): Promise<Readable>
  /** The size of a version; undefined when it is not stored. */
  size(ref: string, version: string): Promise<number | undefined>
  /** Removes versions (missing ones are no error). */
  remove(ref: string, versions: readonly string[]): Promise<void>
  /** Every version the project keeps, with its size (a paused project's included: pausing keeps them). */
  stored(ref: string): Promise<Array<{ version: string; size: number }>>
  /** Writes begun and not finished: what a crash or a write in flight leaves (disk: its temporary files). */
  unfinished(ref: string): Promise<string[]>
  /** Removes every byte the project stored (its objects, unfinished resumable uploads, temporary files): it is deleted. */
  removeProject(ref: string): Promise<void>
}

/** Bytes a project keeps: the usage pages' storage size. */
export async function projectStorageBytes(objects: ObjectBytes, ref: string): Promise<number> {
  return (await objects.stored(ref)).reduce((total, v) => total + v.size, 0)
}
