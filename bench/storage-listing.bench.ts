/**
 * A folder of 10,000 objects (their rows written with SQL: a listing reads rows only), on a running platform (PGlite):
 *  - the storage API: POST /object/list with limit 10,000 (what the file browser asks for) and 100, median ms of 5;
 *  - the file browser in Chromium: ms from navigation to the first row shown, the rows in the document then (the
 *    list is virtualised), 300 frames of the list still (what the machine's load alone makes of a frame), scrolled
 *    120 px a frame, and flung top to bottom (frame times from requestAnimationFrame, the share under 16.7 ms); and End
 *    from the first row to the last focused.
 * `npx vite build && npx tsx bench/storage-listing.bench.ts`
 */
import { chromium } from '@playwright/test'
import { demoProjectKeys, loadLine, median, ownerAccessToken, removeDir, startServer, waitUntil } from './support'

const OBJECTS = 10_000
const LAST = `${String(OBJECTS).padStart(5, '0')}.txt`

const server = await startServer({ PROJECT_DB_QUERY_TIMEOUT_MS: '600000' })
try {
  const { ref, service } = await demoProjectKeys(server.url)
  const base = `${server.url}/p/${ref}/storage/v1`
  const json = { authorization: `Bearer ${service}`, 'content-type': 'application/json' }
  const made = await fetch(`${base}/bucket`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'many' }) })
  if (!made.ok) throw new Error(`bucket: ${made.status} ${await made.text()}`)
  const sql = `insert into storage.objects (bucket_id, name, version, metadata)
    select 'many', lpad(i::text, 5, '0') || '.txt', gen_random_uuid()::text,
      jsonb_build_object('size', i, 'mimetype', 'text/plain', 'eTag', '"x"', 'cacheControl', 'no-cache', 'lastModified', now(), 'contentLength', i, 'httpStatusCode', 200)
    from generate_series(1, ${OBJECTS}) i`
  const inserted = await fetch(`${server.url}/v1/projects/${ref}/database/query`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ownerAccessToken(server.dataDir)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: sql }),
  })
  if (!inserted.ok) throw new Error(`inserting rows: ${inserted.status} ${await inserted.text()}`)

  for (const limit of [OBJECTS, 100]) {
    const times: number[] = []
    for (let run = 0; run < 5; run++) {
      const started = performance.now()
      const res = await fetch(`${base}/object/list/many`, { method: 'POST', headers: json, body: JSON.stringify({ prefix: '', limit }) })
      const listed = (await res.json()) as unknown[]
      times.push(performance.now() - started)
      if (listed.length !== limit) throw new Error(`listed ${listed.length} of ${limit}`)
    }
    console.log(`storage API: list a folder of ${OBJECTS.toLocaleString('en-US')} objects, limit ${limit}: median ${median(times).toFixed(1)} ms`)
  }

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  try {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } })
    await context.request.post('/platform/auth/sign-in', { data: { email: 'owner@example.com', password: 'demo1234' } })
    const page = await context.newPage()
    // A first visit loads the app's code; the second is the one measured.
    await page.goto(`/project/${ref}/storage/buckets/many`)
    await page.getByRole('button', { name: '00001.txt', exact: true }).waitFor({ timeout: 120_000 })
    await page.goto(`/project/${ref}/storage/buckets/many`)
    const shownAt = await waitUntil(page, `[...document.querySelectorAll('table[aria-label="Files"] button')].some((b) => b.textContent === '00001.txt')`)
    const rows = await page.locator('table[aria-label="Files"] tbody tr[aria-rowindex]').count()
    console.log(`file browser: first row shown ${shownAt.toFixed(0)} ms after navigation; ${rows} of ${OBJECTS.toLocaleString('en-US')} rows in the document`)

    /**
     * 300 frames, each moving the list by `step` px from the top (`step` 0: the list still, what the machine's load
     * alone makes of a frame; 'fling': top to bottom in 300 frames, about 33 rows a frame, every row new each frame).
     */
    const frameTimes = (step: number | 'fling') =>
      page.evaluate(async (step) => {
        const scroller = document.querySelector('table[aria-label="Files"]')!.parentElement as HTMLElement
        scroller.scrollTop = 0
        const times: number[] = []
        let last = performance.now()
        const steps = 300
        for (let i = 1; i <= steps; i++) {
          await new Promise<void>((resolve) =>
            requestAnimationFrame(() => {
              scroller.scrollTop = step === 'fling' ? (scroller.scrollHeight * i) / steps : step * i
              const now = performance.now()
              times.push(now - last)
              last = now
              resolve()
            }),
          )
        }
        return times.slice(1)
      }, step)
    for (const [label, step] of [
      ['still', 0],
      ['scrolled 120 px a frame (a fast wheel: 3 rows a frame)', 120],
      ['flung top to bottom in 300 frames', 'fling'],
    ] as const) {
      const frames = await frameTimes(step)
      const sorted = [...frames].sort((a, b) => a - b)
      const under = frames.filter((t) => t < 16.7).length
      const rowsAtEnd = await page.locator('table[aria-label="Files"] tbody tr[aria-rowindex]').count()
      console.log(
        `file browser ${label}: ${frames.length} frames, ${((under / frames.length) * 100).toFixed(1)}% under 16.7 ms, ` +
          `median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, p95 ${sorted[Math.floor(sorted.length * 0.95)].toFixed(1)} ms; ${rowsAtEnd} rows in the document at the end`,
      )
    }

    await page.evaluate(() => (document.querySelector('table[aria-label="Files"]')!.parentElement as HTMLElement).scrollTo({ top: 0 }))
    await page.getByRole('button', { name: '00001.txt', exact: true }).focus()
    const pressed = await page.evaluate(() => performance.now())
    await page.keyboard.press('End')
    const focusedAt = await waitUntil(page, `document.activeElement?.textContent === ${JSON.stringify(LAST)}`)
    console.log(`file browser: End from the first row to the last focused in ${(focusedAt - pressed).toFixed(0)} ms`)
  } finally {
    await browser.close()
  }
  console.log(loadLine())
} finally {
  await server.stop()
  removeDir(server.dataDir)
}
