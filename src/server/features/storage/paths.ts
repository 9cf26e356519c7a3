/**
 * Object keys and bucket names as the storage service accepts them. A key is the object's path in its bucket; it
 * names a row, never a file (bytes are stored under a random version id), so a `..` could not escape the data folder
 * anyway — it is refused because the platform refuses it and because `a/../b` would be two names for one thing.
 */
import { invalidKey, invalidRequest } from './errors'

/** Bytes of a key at most (the platform's limit). */
export const MAX_KEY_BYTES = 1024

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/

/** The key as given, or throws InvalidKey. Leading and doubled slashes are folded as storage-js does. */
export function checkKey(key: string): string {
  if (key === '') throw invalidKey(key, 'the key is empty')
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) throw invalidKey(key, `the key is longer than ${MAX_KEY_BYTES} bytes`)
  if (CONTROL.test(key)) throw invalidKey(key, 'the key contains a control character')
  if (key.includes('\\')) throw invalidKey(key, 'the key contains a backslash')
  const segments = key.split('/')
  if (segments.some((s) => s === '..' || s === '.')) throw invalidKey(key, "a segment of the key is '.' or '..'")
  if (segments.some((s) => s === '')) throw invalidKey(key, 'the key has an empty segment (a leading, trailing or doubled slash)')
  return key
}

/** A bucket name: 1–100 characters, no slash, no control character, not '.' or '..', no leading or trailing space. */
export function checkBucketName(name: unknown): string {
  if (typeof name !== 'string' || name === '') throw invalidRequest('Bucket name invalid: a name is required')
  if (name.length > 100) throw invalidRequest('Bucket name invalid: at most 100 characters')
  if (name.includes('/') || name.includes('\\')) throw invalidRequest('Bucket name invalid: it cannot contain a slash or a backslash')
  if (CONTROL.test(name)) throw invalidRequest('Bucket name invalid: it cannot contain a control character')
  if (name === '.' || name === '..') throw invalidRequest("Bucket name invalid: it cannot be '.' or '..'")
  if (name.trim() !== name) throw invalidRequest('Bucket name invalid: it cannot start or end with spaces')
  return name
}

/** Decodes one percent-encoded path (storage-js sends keys as fetch encodes them); a bad escape is a bad key. */
export function decodePath(raw: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    throw invalidKey(raw, 'the path is not valid percent-encoding')
  }
}

/** Whether a MIME type is allowed by a bucket's list (null or empty: any); `image/*` allows every image type. */
export function mimeAllowed(mime: string, allowed: string[] | null): boolean {
  // As the platform's service: no list, or an empty one, restricts nothing.
  if (allowed === null || allowed.length === 0) return true
  const type = mime.split(';')[0].trim().toLowerCase()
  return allowed.some((a) => {
    const rule = a.trim().toLowerCase()
    return rule.endsWith('/*') ? type.startsWith(rule.slice(0, -1)) : type === rule
  })
}

const UNITS: Record<string, number> = { b: 1, kb: 1000, mb: 1000 ** 2, gb: 1000 ** 3, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 }

/** A bucket's file_size_limit as storage-js sends it: bytes, or a string such as '50MB' / '1.5 GiB'; null: none. */
export function parseSizeLimit(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value
  if (typeof value === 'string') {
    const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]i?b|b)?\s*$/i.exec(value)
    if (m) {
      const bytes = Math.floor(Number(m[1]) * UNITS[(m[2] ?? 'b').toLowerCase()])
      if (Number.isSafeInteger(bytes) && bytes > 0) return bytes
    }
  }
  throw invalidRequest(`file_size_limit is not a size: ${JSON.stringify(value)} (bytes, or a number with B, KB, MB or GB)`)
}
