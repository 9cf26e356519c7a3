/**
 * What every write of object bytes does on the way, whichever store takes them: counts the bytes, refusing the body
 * (413) as soon as it passes the limit, and hashes them (MD5, the platform's eTag).
 */
import { createHash } from 'node:crypto'
import { Transform } from 'node:stream'
import type { Written } from '../../core/objectBytes'
import { tooLarge } from './errors'

export function metered(limit: number) {
  const hash = createHash('md5')
  let size = 0
  const stream = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length
      if (size > limit) return done(tooLarge())
      hash.update(chunk)
      done(null, chunk)
    },
  })
  return { stream, written: (version: string): Written => ({ version, size, etag: `"${hash.digest('hex')}"` }) }
}
