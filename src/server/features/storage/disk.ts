/**
 * Object bytes on local disk: DATA_DIR/storage/<ref>/objects/<v[0..2]>/<version>, one file per object version. A
 * write streams into DATA_DIR/storage/<ref>/tmp/ and is renamed into place only when complete: a crash or a cut-off
 * request never leaves half an object, and a body past the limit is stopped while it streams, its temporary file
 * removed. Resumable uploads gather their bytes in DATA_DIR/storage/<ref>/resumable (@tus/file-store), and a complete
 * one is renamed into place.
 */
import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { FileStore } from '@tus/file-store'
import type { ObjectBytes, Written } from '../../core/objectBytes'
import { metered } from './metered'

export const storageRoot = (dataDir: string) => path.join(dataDir, 'storage')

/** Versions are UUIDs we made: never a path a caller chose. */
export function checkVersion(version: string): string {
  if (!/^[0-9a-f-]{36}$/.test(version)) throw new Error('not an object version')
  return version
}

export class DiskObjects implements ObjectBytes {
  readonly kind = 'disk'
  constructor(private readonly root: string) {}

  private projectDir(ref: string) {
    return path.join(this.root, ref)
  }

  /** The file of one object version. */
  file(ref: string, version: string): string {
    return path.join(this.projectDir(ref), 'objects', version.slice(0, 2), checkVersion(version))
  }

  tmpDir(ref: string) {
    return path.join(this.projectDir(ref), 'tmp')
  }

  /** Renames a finished file (same disk) to be the file of `version`. */
  private async place(ref: string, version: string, file: string) {
    const final = this.file(ref, version)
    await fs.mkdir(path.dirname(final), { recursive: true })
    await fs.rename(file, final)
  }

  /** Fills the temporary file `tmp`, then places it as `version`; when either fails, nothing is left behind. */
  private async fillThenPlace(ref: string, version: string, tmp: string, fill: () => Promise<unknown>) {
    try {
      await fill()
      await this.place(ref, version, tmp)
    } catch (err) {
      await fs.rm(tmp, { force: true })
      throw err
    }
  }

  async write(ref: string, source: Readable, limit: number): Promise<Written> {
    const version = randomUUID()
    const tmp = path.join(this.tmpDir(ref), `${version}.part`)
    await fs.mkdir(this.tmpDir(ref), { recursive: true })
    const meter = metered(limit)
    // Opened before the pipeline, not lazily by createWriteStream: with a multipart part refused in its first chunk,
    // a temporary file was seen to outlive the rm below (about 1 in 1,200 refusals on a loaded machine), i.e. it was
    // created after the cleanup. With the file existing first, the rm always finds it.
    const handle = await fs.open(tmp, 'wx')
    await this.fillThenPlace(ref, version, tmp, () => pipeline(source, meter.stream, handle.createWriteStream()))
    return meter.written(version)
  }

  private resumableDir(ref: string) {
    return path.join(this.projectDir(ref), 'resumable')
  }

  resumableStore(ref: string) {
    return new FileStore({ directory: this.resumableDir(ref) })
  }

  /** An upload's file in resumableDir, its id checked (the store's own ids: UUIDs). */
  private uploadFile(ref: string, uploadId: string) {
    return path.join(this.resumableDir(ref), checkVersion(uploadId))
  }

  async adopt(ref: string, uploadId: string): Promise<Written> {
    const file = this.uploadFile(ref, uploadId)
    const meter = metered(Number.POSITIVE_INFINITY)
    await pipeline(createReadStream(file), meter.stream, async (chunks: AsyncIterable<Buffer>) => {
      for await (const _ of chunks);
    })
    const version = randomUUID()
    await this.place(ref, version, file)
    await fs.rm(`${file}.json`, { force: true })
    return meter.written(version)
  }

  async discard(ref: string, uploadId: string): Promise<void> {
    const file = this.uploadFile(ref, uploadId)
    await fs.rm(file, { force: true })
    await fs.rm(`${file}.json`, { force: true })
  }

  async copy(ref: string, from: string): Promise<string> {
    const version = randomUUID()
    const tmp = path.join(this.tmpDir(ref), `${version}.part`)
    await fs.mkdir(this.tmpDir(ref), { recursive: true })
    await this.fillThenPlace(ref, version, tmp, () => fs.copyFile(this.file(ref, from), tmp))
    return version
  }

  async read(ref: string, version: string, range?: { start: number; end: number }): Promise<Readable> {
    return createReadStream(this.file(ref, version), range ? { start: range.start, end: range.end } : {})
  }

  async size(ref: string, version: string): Promise<number | undefined> {
    try {
      return (await fs.stat(this.file(ref, version))).size
    } catch {
      return undefined
    }
  }

  async remove(ref: string, versions: readonly string[]): Promise<void> {
    await Promise.all(versions.map((v) => fs.rm(this.file(ref, v), { force: true })))
  }

  async stored(ref: string): Promise<Array<{ version: string; size: number }>> {
    const dir = path.join(this.projectDir(ref), 'objects')
    let shards: string[]
    try {
      shards = await fs.readdir(dir)
    } catch {
      return []
    }
    const out: Array<{ version: string; size: number }> = []
    for (const shard of shards) {
      for (const version of await fs.readdir(path.join(dir, shard))) out.push({ version, size: (await fs.stat(path.join(dir, shard, version))).size })
    }
    return out
  }

  /** The temporary files of the project (writes in flight or left by a crash). */
  async unfinished(ref: string): Promise<string[]> {
    try {
      return await fs.readdir(this.tmpDir(ref))
    } catch {
      return []
    }
  }

  async removeProject(ref: string): Promise<void> {
    await fs.rm(this.projectDir(ref), { recursive: true, force: true })
  }
}
