import { mkdtemp, readdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DiskObjects } from '../../src/server/features/storage/disk'

let root: string
let disk: DiskObjects

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'storage-disk-'))
  disk = new DiskObjects(root)
})
afterAll(() => rm(root, { recursive: true, force: true }))

describe('object bytes on disk', () => {
  it('a body refused in its first chunk leaves no temporary file once the write has rejected', async () => {
    for (let i = 0; i < 20; i++) {
      await expect(disk.write('ref', Readable.from([Buffer.alloc(64)]), 10)).rejects.toMatchObject({ status: 413 })
      expect(await readdir(disk.tmpDir('ref'))).toEqual([])
    }
  })

  it('a body within the limit becomes one version with its size and MD5 eTag, and no temporary file', async () => {
    const written = await disk.write('ref', Readable.from([Buffer.from('hello')]), 10)
    expect(written).toMatchObject({ size: 5, etag: '"5d41402abc4b2a76b9719d911017c592"' })
    expect(await disk.size('ref', written.version)).toBe(5)
    expect(await readdir(disk.tmpDir('ref'))).toEqual([])
  })
})
