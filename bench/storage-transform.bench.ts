/**
 * Image transformations of the storage service on a running server (PGlite store, bytes on disk), all in the same
 * process and on the same 1,600 × 1,200 JPEG photo (about 0.5 MB):
 *  - first transform: a width the cache has never seen (x-cache: MISS), one request at a time, WIDTHS of them;
 *  - cached: the same transformation asked again (x-cache: HIT), ROUNDS times;
 *  - the original served as it is (GET /object/{bucket}/{path}), ROUNDS times, for comparison;
 * each as p50 and p99 in ms, through both forms (/render/image/authenticated/… and /object/…?width=), which share
 * one code path and one cache. `npx tsx bench/storage-transform.bench.ts` — ROUNDS (default 200), WIDTHS (default 40).
 */
import sharp from 'sharp'
import { demoProjectKeys, loadLine, removeDir, startServer } from './support'

const ROUNDS = Number(process.env.ROUNDS ?? 200)
const WIDTHS = Number(process.env.WIDTHS ?? 40)

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}
const figures = (values: number[]) => `p50 ${percentile(values, 50).toFixed(2)} ms, p99 ${percentile(values, 99).toFixed(2)} ms (${values.length} requests)`

/** A photo-like JPEG: smooth gradients with fine detail, so decoding and resizing do real work. */
async function photo() {
  const [width, height] = [1600, 1200]
  const raw = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) raw.set([(x * 255) / width, (y * 255) / height, ((x ^ y) * 7) % 256], (y * width + x) * 3)
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 85 }).toBuffer()
}

const server = await startServer()
try {
  const { ref, service } = await demoProjectKeys(server.url)
  const base = `${server.url}/p/${ref}/storage/v1`
  const auth = { authorization: `Bearer ${service}` }
  const made = await fetch(`${base}/bucket`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench' }) })
  if (!made.ok) throw new Error(`bucket: ${made.status} ${await made.text()}`)
  const image = await photo()
  const stored = await fetch(`${base}/object/bench/photo.jpg`, { method: 'POST', headers: { ...auth, 'content-type': 'image/jpeg' }, body: image })
  if (!stored.ok) throw new Error(`upload: ${stored.status} ${await stored.text()}`)
  console.log(`photo: 1600 × 1200 JPEG, ${(image.length / 1024).toFixed(0)} kB`)

  /** One GET, its body read to the end: ms, and the cache's word. */
  async function timed(path: string) {
    const started = performance.now()
    const res = await fetch(`${base}${path}`, { headers: auth })
    const body = await res.arrayBuffer()
    const ms = performance.now() - started
    if (res.status !== 200 || body.byteLength === 0) throw new Error(`${path}: ${res.status}`)
    return { ms, cache: res.headers.get('x-cache') }
  }

  // A warm-up: the project's database open, sharp loaded, the first connection made.
  await timed('/object/bench/photo.jpg')
  await timed('/render/image/authenticated/bench/photo.jpg?width=17')

  for (const [form, path] of [
    ['/render/image/authenticated', (q: string) => `/render/image/authenticated/bench/photo.jpg?${q}`],
    ['/object?width=', (q: string) => `/object/bench/photo.jpg?${q}`],
  ] as const) {
    const first: number[] = []
    // Widths apart for each form, so every first request is a miss.
    const offset = form === '/object?width=' ? 1000 : 100
    for (let i = 0; i < WIDTHS; i++) {
      const got = await timed(path(`width=${offset + i * 10}&quality=80`))
      if (got.cache !== 'MISS') throw new Error(`first transform answered x-cache ${got.cache}`)
      first.push(got.ms)
    }
    const cached: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      const got = await timed(path(`width=${offset}&quality=80`))
      if (got.cache !== 'HIT') throw new Error(`cached transform answered x-cache ${got.cache}`)
      cached.push(got.ms)
    }
    console.log(`${form}: first transform (resize to width, JPEG q80) ${figures(first)}`)
    console.log(`${form}: cached ${figures(cached)}`)
  }
  const original: number[] = []
  for (let i = 0; i < ROUNDS; i++) original.push((await timed('/object/bench/photo.jpg')).ms)
  console.log(`original served as it is: ${figures(original)}`)
  console.log(loadLine())
} finally {
  await server.stop()
  removeDir(server.dataDir)
}
