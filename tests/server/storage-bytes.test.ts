/**
 * Object bytes in their store, without a server: on disk (server-pglite) or in the run's S3-compatible server
 * (server-s3, s3.globalSetup.ts). The same behaviour either way: a version exists only once all of it is in, Range
 * reads, copies, removals, and a deleted project leaves nothing.
 */
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { s3SettingsOf } from '../../src/server/config'
import type { ObjectBytes } from '../../src/server/core/objectBytes'
import { DiskObjects } from '../../src/server/features/storage/disk'
import { PART_BYTES, S3Objects } from '../../src/server/features/storage/s3'
import { recordCommands } from './s3Commands'

let root: string
let objects: ObjectBytes
const ref = 'abcdefghijklmnopqrst'

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'storage-bytes-'))
  const s3Url = inject('storageS3Url')
  objects = s3Url ? new S3Objects(s3SettingsOf(`${s3Url.replace("?", `/bytes-${randomUUID()}?`)}`)) : new DiskObjects(root)
})
afterAll(() => rm(root, { recursive: true, force: true }))

/** A body that yields `chunks` and then fails, as a request cut off by its client does. */
function cutOff(chunks: Buffer[]): Readable {
  return Readable.from(
    (async function* () {
      for (const c of chunks) yield c
      throw new Error('aborted')
    })(),
  )
}

describe(`object bytes (${inject('storageS3Url') ? 'an S3-compatible store' : 'disk'})`, () => {
  it('a body refused in its first chunk leaves nothing once the write has rejected', async () => {
    for (let i = 0; i < 20; i++) {
      await expect(objects.write(ref, Readable.from([Buffer.alloc(64)]), 10)).rejects.toMatchObject({ status: 413 })
      expect(await objects.unfinished(ref)).toEqual([])
    }
    expect(await objects.stored(ref)).toEqual([])
  })

  it('a body within the limit becomes one version with its size and MD5 eTag, and nothing unfinished', async () => {
    const written = await objects.write(ref, Readable.from([Buffer.from('hello')]), 10)
    expect(written).toMatchObject({ size: 5, etag: '"5d41402abc4b2a76b9719d911017c592"' })
    expect(await objects.size(ref, written.version)).toBe(5)
    expect(await objects.unfinished(ref)).toEqual([])
    expect(await objects.stored(ref)).toEqual([{ version: written.version, size: 5 }])
    await objects.remove(ref, [written.version])
  })

  it('a body of several parts cut off half-way, or past its limit after the first part, stores nothing', async () => {
    const part = Buffer.alloc(PART_BYTES, 1)
    await expect(objects.write(ref, cutOff([part, part.subarray(0, 1000)]), 3 * PART_BYTES)).rejects.toThrow('aborted')
    await expect(objects.write(ref, Readable.from([part, part]), PART_BYTES + 10)).rejects.toMatchObject({ status: 413 })
    expect(await objects.unfinished(ref)).toEqual([])
    expect(await objects.stored(ref)).toEqual([])
  })

  if (inject('storageS3Url')) {
    it('a body cut off, or past its limit, once a part was sent: the client aborts the multipart upload it began', async () => {
      const s3 = objects as S3Objects
      const part = Buffer.alloc(PART_BYTES, 2)
      const recorder = recordCommands(s3.client)
      /** Two parts, then, once the store was sent a part of this write, `last` (a failure, or bytes past the limit). */
      const afterAPart = (last: () => Buffer) => {
        const from = recorder.sent.length
        const sentAPart = () => recorder.sent.slice(from).some((c) => c.command === 'UploadPartCommand')
        return Readable.from(
          (async function* () {
            yield part
            yield part
            const until = Date.now() + 20_000
            while (!sentAPart() && Date.now() < until) await new Promise((r) => setTimeout(r, 10))
            yield last()
          })(),
        )
      }
      try {
        await expect(
          s3.write(
            ref,
            afterAPart(() => {
              throw new Error('aborted')
            }),
            4 * PART_BYTES,
          ),
        ).rejects.toThrow('aborted')
        const firstParts = recorder.sent.length
        await expect(s3.write(ref, afterAPart(() => part), 2 * PART_BYTES + 10)).rejects.toMatchObject({ status: 413 })
        expect(recorder.sent.slice(firstParts).some((c) => c.command === 'UploadPartCommand')).toBe(true)
      } finally {
        recorder.stop()
      }
      const begun = recorder.sent.filter((c) => c.command === 'CreateMultipartUploadCommand')
      expect(begun).toHaveLength(2)
      // Each write's multipart upload is aborted by its own key and the UploadId its parts were sent with
      // (s3rver answers the abort 405 and keeps the parts in its folder: the request is what this side owes).
      const aborted = recorder.sent.filter((c) => c.command === 'AbortMultipartUploadCommand').map((c) => c.input)
      expect(aborted.map((a) => a.Key)).toEqual(begun.map((c) => c.input.Key))
      for (const a of aborted) {
        const parts = recorder.sent.filter((c) => c.command === 'UploadPartCommand' && c.input.Key === a.Key)
        expect(parts.length).toBeGreaterThan(0)
        for (const p of parts) expect(p.input.UploadId).toBe(a.UploadId)
      }
      expect(recorder.sent.map((c) => c.command)).not.toContain('CompleteMultipartUploadCommand')
      expect(await s3.unfinished(ref)).toEqual([])
      expect(await s3.stored(ref)).toEqual([])
    })
  }

  it('streams a body of several parts in, and reads it back whole and by Range', async () => {
    const body = Buffer.alloc(2 * PART_BYTES + 12_345)
    for (let i = 0; i < body.length; i += 4096) body.writeUInt32BE(i, i)
    const chunks = Array.from({ length: Math.ceil(body.length / 65_536) }, (_, i) => body.subarray(i * 65_536, (i + 1) * 65_536))
    const written = await objects.write(ref, Readable.from(chunks), 3 * PART_BYTES)
    expect(written.size).toBe(body.length)
    expect(await objects.size(ref, written.version)).toBe(body.length)
    expect((await buffer(await objects.read(ref, written.version))).equals(body)).toBe(true)
    const start = PART_BYTES - 10
    const end = PART_BYTES + 4_000
    expect((await buffer(await objects.read(ref, written.version, { start, end }))).equals(body.subarray(start, end + 1))).toBe(true)
    await objects.remove(ref, [written.version])
  })

  it('copies a version under a new one, removes versions, and a missing one has no size', async () => {
    const written = await objects.write(ref, Readable.from([Buffer.from('copied bytes')]), 100)
    const copy = await objects.copy(ref, written.version)
    expect(copy).not.toBe(written.version)
    expect((await buffer(await objects.read(ref, copy))).toString()).toBe('copied bytes')
    await objects.remove(ref, [written.version, randomUUID()])
    expect(await objects.size(ref, written.version)).toBeUndefined()
    expect((await objects.stored(ref)).map((v) => v.version)).toEqual([copy])
    await objects.remove(ref, [copy])
  })

  it('removing a project removes every version it stored, and no other project’s', async () => {
    const other = 'tsrqponmlkjihgfedcba'
    const kept = await objects.write(other, Readable.from([Buffer.from('other')]), 100)
    for (let i = 0; i < 3; i++) await objects.write(ref, Readable.from([Buffer.from(`object ${i}`)]), 100)
    expect(await objects.stored(ref)).toHaveLength(3)
    await objects.removeProject(ref)
    expect(await objects.stored(ref)).toEqual([])
    expect(await objects.stored(other)).toEqual([{ version: kept.version, size: 5 }])
    await objects.removeProject(other)
  })
})
