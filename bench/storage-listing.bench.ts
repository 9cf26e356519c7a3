/**
 * A folder of 10,000 objects (their rows written with SQL: a listing reads rows only), on a running platform (PGlite):
 *  - the storage API: POST /object/list with limit 10,000 (what the file browser asks for) and 100, median ms of 5;
 *  - the file browser in Chromium: ms from navigation to the first row shown, the rows in the document then (the
 *    list is virtualised), 300 frames of the list still (what the machine's load alone makes of a frame), scrolled
 *    120 px a frame, and flung top to bottom (frame times from requestAnimationFrame, the share under 16.7 ms); and End
 *    from the first row to the last focused.
 * `npx vite build && npx tsx bench/storage-listing.bench.ts`
 */
import { frameFigures, insertObjectRows, launchChromium, loadLine, medianListMs, removeDir, scrollFrameTimes, startServer, storageBucket, waitUntil } from './support'

const OBJECTS = 10_000
const LAST = `${String(OBJECTS).padStart(5, '0')}.txt`
/** The file browser's scroll container: the element around its table. */
const FILES = 'div:has(> table[aria-label="Files"])'

const server = await startServer({ PROJECT_DB_QUERY_TIMEOUT_MS: '600000' })
try {
  const storage = await storageBucket(server.url, 'many')
  const { ref } = storage
  await insertObjectRows(server, ref, 'many', OBJECTS)
  for (const limit of [OBJECTS, 100]) {
    const ms = await medianListMs(storage, 'many', '', limit)
    console.log(`storage API: list a folder of ${OBJECTS.toLocaleString('en-US')} objects, limit ${limit}: median ${ms.toFixed(1)} ms`)
  }

  const browser = await launchChromium()
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

    for (const [label, step] of [
      ['still', 0],
      ['scrolled 120 px a frame (a fast wheel: 3 rows a frame)', 120],
      ['flung top to bottom in 300 frames', 'fling'],
    ] as const) {
      const frames = await scrollFrameTimes(page, FILES, step)
      const rowsAtEnd = await page.locator('table[aria-label="Files"] tbody tr[aria-rowindex]').count()
      console.log(`file browser ${label}: ${frameFigures(frames)}; ${rowsAtEnd} rows in the document at the end`)
    }

    await page.evaluate((files) => document.querySelector(files)!.scrollTo({ top: 0 }), FILES)
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
