/**
 * Object bytes on local disk: DATA_DIR/storage/<ref>/objects/<v[0..2]>/<version>, one file per object version (a
 * random id the object's row names), so a move is a row update and a replaced object's old bytes are removed once
 * the new row is committed. A write streams into DATA_DIR/storage/<ref>/tmp/ counting bytes and hashing (MD5, the
 * platform's eTag) and is renamed into place only when complete: a crash or a cut-off request never leaves half an
 * object, and a body past the limit is stopped while it streams, its temporary file removed.
 */
import { createHash, randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import fs from 'node:fs/promises'
import path from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { tooLarge } from './errors'

export interface Written {
  version: string
  size: number
  /** Quoted MD5 of the bytes, as the platform's eTag. */
  etag: string
}

export class DiskObjects {
  constructor(private readonly root: string) {}

  private projectDir(ref: string) {
    return path.join(this.root, ref)
  }

  /** The file of one object version. Versions are UUIDs we made: never a path a caller chose. */
  file(ref: string, version: string): string {
    if (!/^[0-9a-f-]{36}$/.test(version)) throw new Error('not an object version')
    return path.join(this.projectDir(ref), 'objects', version.slice(0, 2), version)
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

  /** Streams `source` into a new version; throws 413 (nothing left behind) past `limit` bytes. */
  async write(ref: string, source: Readable, limit: number): Promise<Written> {
    const version = randomUUID()
    const tmp = path.join(this.tmpDir(ref), `${version}.part`)
    await fs.mkdir(this.tmpDir(ref), { recursive: true })
    const hash = createHash('md5')
    let size = 0
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length
        if (size > limit) return done(tooLarge())
        hash.update(chunk)
        done(null, chunk)
      },
    })
    // Opened before the pipeline, not lazily by createWriteStream: with a multipart part refused in its first chunk,
    // a temporary file was seen to outlive the rm below (about 1 in 1,200 refusals on a loaded machine), i.e. it was
    // created after the cleanup. With the file existing first, the rm always finds it.
    const handle = await fs.open(tmp, 'wx')
    await this.fillThenPlace(ref, version, tmp, () => pipeline(source, counter, handle.createWriteStream()))
    return { version, size, etag: `"${hash.digest('hex')}"` }
  }

  /** Takes a finished file of the same disk (a resumable upload's) as a new version: hashed, then renamed into place. */
  async adopt(ref: string, file: string): Promise<Written> {
    const hash = createHash('md5')
    let size = 0
    for await (const chunk of createReadStream(file)) {
      size += (chunk as Buffer).length
      hash.update(chunk as Buffer)
    }
    const version = randomUUID()
    await this.place(ref, version, file)
    return { version, size, etag: `"${hash.digest('hex')}"` }
  }

  /** Where a project's resumable uploads gather their bytes until they are complete (same disk: adopt renames). */
  resumableDir(ref: string) {
    return path.join(this.projectDir(ref), 'resumable')
  }

  /** A copy of a version under a new one. */
  async copy(ref: string, from: string): Promise<string> {
    const version = randomUUID()
    const tmp = path.join(this.tmpDir(ref), `${version}.part`)
    await fs.mkdir(this.tmpDir(ref), { recursive: true })
    await this.fillThenPlace(ref, version, tmp, () => fs.copyFile(this.file(ref, from), tmp))
    return version
  }

  /** The bytes of a version, or of `[start, end]` (inclusive) of it. */
  read(ref: string, version: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.file(ref, version), range ? { start: range.start, end: range.end } : {})
  }

  async size(ref: string, version: string): Promise<number | undefined> {
    try {
      return (await fs.stat(this.file(ref, version))).size
    } catch {
      return undefined
    }
  }

  /** Removes versions (missing ones are no error). */
  async remove(ref: string, versions: readonly string[]): Promise<void> {
    await Promise.all(versions.map((v) => fs.rm(this.file(ref, v), { force: true })))
  }

  /** Temporary files of the project (writes in flight or left by a crash). */
  async tmpFiles(ref: string): Promise<string[]> {
    try {
      return await fs.readdir(this.tmpDir(ref))
    } catch {
      return []
    }
  }
}
