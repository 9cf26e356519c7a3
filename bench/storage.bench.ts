/**
 * The storage service of a project (/p/{ref}/storage/v1) on a running server (PGlite store; bytes on disk, or with
 * BACKEND=s3 in an S3-compatible server, s3rver, that this bench runs in its own process on a free port):
 *  - a 200 MB file uploaded (raw body, streamed from disk) and downloaded (streamed, bytes counted, not kept):
 *    MB/s each way, and the server's resident memory (VmRSS) before and at its highest during each — streaming both
 *    ways, the growth stays a few MB whatever the file's size;
 *  - a folder of 10,000 objects listed (POST /object/list, limit 10,000; and the first page of 100): median ms of 5;
 *  - signed URLs made (POST /object/sign/{bucket}/{path}, service key): requests/s with 10 clients over LOAD_SECONDS.
 * `npx tsx bench/storage.bench.ts` — FILE_MB (default 200), LOAD_SECONDS (default 5), BACKEND (disk or s3).
 */
import autocannon from 'autocannon'
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, statSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import S3rver from 's3rver'
import { insertObjectRows, loadLine, medianListMs, removeDir, startServer, storageBucket } from './support'

const FILE_MB = Number(process.env.FILE_MB ?? 200)
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 5)
const OBJECTS = 10_000

const rssMb = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024
}

/** Samples the server's RSS every 20 ms while `fn` runs; its result, the time it took and the highest RSS seen. */
async function watched<T>(pid: number, fn: () => Promise<T>): Promise<{ result: T; ms: number; peakMb: number }> {
  let peakMb = rssMb(pid)
  const timer = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 20)
  const started = performance.now()
  try {
    const result = await fn()
    return { result, ms: performance.now() - started, peakMb: Math.max(peakMb, rssMb(pid)) }
  } finally {
    clearInterval(timer)
  }
}

const work = mkdtempSync(join(tmpdir(), 'storage-bench-'))
const BACKEND = process.env.BACKEND ?? 'disk'
if (BACKEND !== 'disk' && BACKEND !== 's3') throw new Error(`BACKEND is disk or s3, not ${BACKEND}`)
// s3rver's default key pair; its bucket made at start.
const s3 = BACKEND === 's3' ? new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: join(work, 's3'), configureBuckets: [{ name: 'bench-objects', configs: [] }] }) : undefined
const s3Url = s3 ? `http://S3RVER:S3RVER@127.0.0.1:${(await s3.run()).port}/bench-objects` : undefined
const server = await startServer({ PROJECT_DB_QUERY_TIMEOUT_MS: '600000', ...(s3Url ? { STORAGE_S3_URL: s3Url } : {}) })
console.log(`bytes ${BACKEND === 's3' ? 'in s3rver (an S3-compatible server in the bench process)' : 'on disk'}`)
const pid = server.process.pid!
try {
  const storage = await storageBucket(server.url, 'bench')
  const { ref, base, auth, json } = storage

  // The file, written once to disk so the upload streams from a file as a client would.
  const file = join(work, 'big.bin')
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(file)
    const chunk = randomBytes(1024 * 1024)
    let i = 0
    const write = () => {
      while (i < FILE_MB) {
        i++
        if (!out.write(chunk)) return void out.once('drain', write)
      }
      out.end(resolve)
    }
    out.on('error', reject)
    write()
  })
  const bytes = statSync(file).size

  // A warm-up request, so the project's database is open before the memory baseline.
  await fetch(`${base}/object/list/bench`, { method: 'POST', headers: json, body: '{}' })
  const baseline = rssMb(pid)
  const up = await watched(pid, () =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(`${base}/object/bench/big.bin`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/octet-stream', 'content-length': String(bytes) },
      })
      req.on('response', (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 0))
      })
      req.on('error', reject)
      createReadStream(file).pipe(req)
    }),
  )
  if (up.result !== 200) throw new Error(`upload answered ${up.result}`)
  const beforeDown = rssMb(pid)
  const down = await watched(pid, async () => {
    const res = await fetch(`${base}/object/bench/big.bin`, { headers: auth })
    let n = 0
    for await (const chunk of res.body!) n += (chunk as Uint8Array).length
    return n
  })
  if (down.result !== bytes) throw new Error(`downloaded ${down.result} of ${bytes} bytes`)
  const mb = bytes / 1024 / 1024
  console.log(`upload ${FILE_MB} MB: ${(mb / (up.ms / 1000)).toFixed(1)} MB/s (${Math.round(up.ms)} ms); server RSS ${baseline.toFixed(0)} MB before, ${up.peakMb.toFixed(0)} MB at most (+${(up.peakMb - baseline).toFixed(1)} MB)`)
  console.log(`download ${FILE_MB} MB: ${(mb / (down.ms / 1000)).toFixed(1)} MB/s (${Math.round(down.ms)} ms); server RSS ${beforeDown.toFixed(0)} MB before, ${down.peakMb.toFixed(0)} MB at most (+${(down.peakMb - beforeDown).toFixed(1)} MB)`)

  // 10,000 objects' rows in one folder (the listing reads rows only).
  await insertObjectRows(server, ref, 'bench', OBJECTS, 'many/')
  for (const limit of [OBJECTS, 100]) {
    console.log(`list a folder of ${OBJECTS} objects, limit ${limit}: median ${(await medianListMs(storage, 'bench', 'many', limit)).toFixed(1)} ms`)
  }

  await fetch(`${base}/object/bench/small.txt`, { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: 'small' })
  const result = await autocannon({
    url: `${base}/object/sign/bench/small.txt`,
    method: 'POST',
    headers: json,
    body: JSON.stringify({ expiresIn: 60 }),
    connections: 10,
    duration: LOAD_SECONDS,
  })
  console.log(
    `signed URLs: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx} of ${result.requests.total}`,
  )
  console.log(loadLine())
} finally {
  await server.stop()
  await s3?.close()
  removeDir(server.dataDir)
  removeDir(work)
}
