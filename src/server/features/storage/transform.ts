/**
 * Image transformations as the platform's storage serves them, on
 *   GET HEAD /render/image/authenticated/{bucket}/{path}   as the caller (row level security decides)
 *   GET HEAD /render/image/public/{bucket}/{path}          a public bucket's image, no key needed
 *   GET HEAD /render/image/sign/{bucket}/{path}?token=     a signed URL made with `transform` (the token carries it)
 * with `width`, `height` (1–2,500 px), `resize` (cover, the default; contain; fill), `quality` (20–100, 80 by default)
 * and `format` (`origin` keeps the stored format; without it the image keeps its format too unless the request
 * accepts WebP, which it is then sent as, as the platform does). Done by sharp (libvips). An image larger than
 * `maxBytes`, or of more than `maxPixels` pixels, is refused (413) rather than decoded; an object that is not an image
 * sharp reads is refused 422. Results are kept in a small in-memory cache keyed by the object's version (a new upload
 * is a new version, so an entry is never stale), bounded in bytes.
 */
import sharp, { type FormatEnum } from 'sharp'
import * as z from 'zod'
import type { Context } from 'hono'
import { buffer } from 'node:stream/consumers'
import type { ObjectBytes } from '../../core/objectBytes'
import { objectNotFound, StorageError } from './errors'
import type { ObjectRow } from './store'

export interface ImageLimits {
  /** The largest stored image transformed, in bytes. */
  maxBytes: number
  /** The most pixels (width × height) a stored image may have to be transformed. */
  maxPixels: number
  /** Bytes of transformed images kept in memory. */
  cacheBytes: number
}

/** The platform's limits: 25 MB and 50 megapixels; 32 MB of results kept. */
export const DEFAULT_IMAGE_LIMITS: ImageLimits = { maxBytes: 25 * 1024 ** 2, maxPixels: 50_000_000, cacheBytes: 32 * 1024 ** 2 }

/** The largest width or height asked for, in pixels (the platform's). */
export const MAX_DIMENSION = 2500

const Dimension = z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(MAX_DIMENSION, `must be at most ${MAX_DIMENSION}`)

/** The query of a transformation; anything else in it (download, cacheNonce, token) is not the transformation's. */
export const TransformQuery = z.object({
  width: Dimension.optional(),
  height: Dimension.optional(),
  resize: z.enum(['cover', 'contain', 'fill']).default('cover'),
  quality: z.coerce.number().int('must be a whole number').min(20, 'must be at least 20').max(100, 'must be at most 100').default(80),
  format: z.enum(['origin', 'webp']).optional(),
})
export type Transform = z.infer<typeof TransformQuery>

/** The options of a transformation, as they appear in a query string. */
const TRANSFORM_KEYS = ['width', 'height', 'resize', 'quality', 'format'] as const

/** The transformation a query asks for, or a 400 in storage's shape naming what is wrong. */
export function transformOf(query: Record<string, string | undefined>): Transform {
  const picked = Object.fromEntries(TRANSFORM_KEYS.filter((k) => query[k] !== undefined && query[k] !== '').map((k) => [k, query[k]]))
  const parsed = TransformQuery.safeParse(picked)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new StorageError(400, 'InvalidRequest', `Invalid transformation: ${issue.path.join('.')} ${issue.message}`)
  }
  return parsed.data
}

/**
 * The transformation an object URL's query asks for (`/object/…?width=`), or undefined when it names none of the
 * options, so that the URL serves the stored bytes as they are; a bad option is a 400, as on /render/image.
 */
export function transformAsked(query: Record<string, string | undefined>): Transform | undefined {
  return TRANSFORM_KEYS.some((k) => query[k] !== undefined && query[k] !== '') ? transformOf(query) : undefined
}

/** A transformation as the query string of a signed URL's token (the order fixed, so equal ones compare equal). */
export function transformQueryString(t: Partial<Transform>): string {
  const q = new URLSearchParams()
  for (const key of TRANSFORM_KEYS) if (t[key] !== undefined) q.set(key, String(t[key]))
  return q.toString()
}

const OUTPUT_MIME: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  heif: 'image/avif',
  tiff: 'image/tiff',
}

interface Rendered {
  body: Buffer
  mime: string
}

/** Transformed images by object version and transformation, the least recently used dropped past the byte budget. */
export class RenderCache {
  private readonly entries = new Map<string, Rendered>()
  private bytes = 0
  constructor(private readonly budget: number) {}

  get(key: string): Rendered | undefined {
    const hit = this.entries.get(key)
    if (hit) {
      this.entries.delete(key)
      this.entries.set(key, hit)
    }
    return hit
  }

  set(key: string, value: Rendered) {
    if (value.body.length > this.budget) return
    this.entries.set(key, value)
    this.bytes += value.body.length
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.budget) break
      this.entries.delete(k)
      this.bytes -= v.body.length
    }
  }

  get size() {
    return this.entries.size
  }
}

/** The image of `row` transformed as `t` asks (HEAD: its headers only). */
export async function renderImage(
  c: Context,
  objects: ObjectBytes,
  row: ObjectRow | undefined,
  ref: string,
  t: Transform,
  limits: ImageLimits,
  cache: RenderCache,
): Promise<Response> {
  if (!row) throw objectNotFound()
  const size = await objects.size(ref, row.version)
  if (size === undefined) throw objectNotFound()
  if (size > limits.maxBytes) {
    throw new StorageError(413, 'Payload too large', `The image is ${size} bytes: images over ${limits.maxBytes} bytes are not transformed`)
  }
  const webp = t.format === 'webp' || (t.format === undefined && (c.req.header('accept') ?? '').includes('image/webp'))
  const key = `${ref}/${row.version}?${transformQueryString({ ...t, format: webp ? 'webp' : 'origin' })}`
  let rendered = cache.get(key)
  const hit = rendered !== undefined
  if (!rendered) {
    // Read whole: sharp decodes the whole image anyway, and it is at most maxBytes.
    rendered = await transformImage(await buffer(await objects.read(ref, row.version)), t, webp, limits)
    cache.set(key, rendered)
  }
  const headers: Record<string, string> = {
    'content-type': rendered.mime,
    'content-length': String(rendered.body.length),
    'cache-control': row.metadata.cacheControl ?? 'no-cache',
    vary: 'Accept',
    // Whether this answer came from the cache: what a CDN in front would say, and what shows the cache is shared.
    'x-cache': hit ? 'HIT' : 'MISS',
  }
  if (row.metadata.lastModified) headers['last-modified'] = new Date(row.metadata.lastModified).toUTCString()
  const download = c.req.query('download')
  if (download !== undefined) {
    const name = download || row.name.split('/').pop() || 'download'
    headers['content-disposition'] = `attachment; filename*=UTF-8''${encodeURIComponent(name)}`
  }
  if (c.req.method === 'HEAD') return new Response(null, { headers })
  return new Response(new Uint8Array(rendered.body), { headers })
}

async function transformImage(input: Buffer, t: Transform, webp: boolean, limits: ImageLimits): Promise<Rendered> {
  try {
    // limitInputPixels refuses an image of too many pixels from its header, before decoding it.
    let image = sharp(input, { limitInputPixels: limits.maxPixels, failOn: 'error' }).rotate()
    const { format } = await image.metadata()
    if (!format || !(format in OUTPUT_MIME)) throw notAnImage()
    // The platform's contain fits the image inside the box, keeping its ratio, with no padding: sharp's 'inside'.
    if (t.width !== undefined || t.height !== undefined) image = image.resize({ width: t.width, height: t.height, fit: t.resize === 'contain' ? 'inside' : t.resize })
    // The formats OUTPUT_MIME names are all ones sharp writes (HEIF as AVIF, its default compression).
    const out = (webp ? 'webp' : format) as keyof FormatEnum
    image = image.toFormat(out, out === 'jpeg' || out === 'webp' || out === 'heif' ? { quality: t.quality } : {})
    return { body: await image.toBuffer(), mime: OUTPUT_MIME[out] }
  } catch (err) {
    if (err instanceof StorageError) throw err
    const message = err instanceof Error ? err.message : ''
    if (/pixel limit/i.test(message)) {
      throw new StorageError(413, 'Payload too large', `The image has more than ${limits.maxPixels} pixels: it is not transformed`)
    }
    throw notAnImage()
  }
}

const notAnImage = () => new StorageError(422, 'InvalidImage', 'The object is not an image that can be transformed')
