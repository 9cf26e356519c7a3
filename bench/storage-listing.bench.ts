/**
 * A folder of 10,000 objects (their rows written with SQL: a listing reads rows only), on a running platform (PGlite):
 *  - the storage API: POST /object/list with limit 10,000 (what the file browser asks for) and 100, median ms of 5;
 *  - the file browser in Chromium: ms from navigation to the first row shown, the rows in the document then (the
 *    list is virtualised), 300 frames of the list still (what the machine's load alone makes of a frame), scrolled
 *    120 px a frame, and flung top to bottom (frame times from requestAnimationFrame, the share under 16.7 ms); and End
 *    from the first row to the last focused.
 * With REFERENCE_DIST=<folder of another build> (e.g. the main branch's, `npx vite build --outDir <folder>`), the fling
 * is also measured with that build's page, the same server and rows, the two builds taking turns (5 rounds of 300
 * frames each), and both medians printed: a reference measured under the same load. With BENCH_TRACE=1, Chromium's
 * performance trace of one fling tells where the renderer's main thread spent its time (self time by trace event).
 * `npx vite build && npx tsx bench/storage-listing.bench.ts`
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from '@playwright/test'
import { frameFigures, insertObjectRows, launchChromium, loadLine, median, medianListMs, removeDir, scrollFrameTimes, startServer, storageBucket, waitUntil } from './support'

const OBJECTS = 10_000
const LAST = `${String(OBJECTS).padStart(5, '0')}.txt`
/** The file browser's scroll container: the element around its table. */
const FILES = 'div:has(> table[aria-label="Files"])'
const ROUNDS = 5

/** A signed-in browser context; with `dist`, its pages and their scripts come from that build folder instead. */
async function signedIn(browser: Browser, url: string, dist?: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 900 } })
  await context.request.post('/platform/auth/sign-in', { data: { email: 'owner@example.com', password: 'demo1234' } })
  if (dist) {
    await context.route(
      (u) => u.pathname.startsWith('/assets/') || u.pathname.startsWith('/project/'),
      (route, request) => {
        const { pathname } = new URL(request.url())
        const file = pathname.startsWith('/assets/') ? path.join(dist, pathname) : path.join(dist, 'index.html')
        const type = file.endsWith('.js') ? 'text/javascript' : file.endsWith('.css') ? 'text/css' : file.endsWith('.html') ? 'text/html' : 'application/octet-stream'
        return route.fulfill({ status: 200, contentType: type, body: readFileSync(file) })
      },
    )
  }
  return context
}

/** The bucket's page opened twice (the first visit loads the code), its first row shown. */
async function openBucket(context: BrowserContext, ref: string): Promise<Page> {
  const page = await context.newPage()
  await page.goto(`/project/${ref}/storage/buckets/many`)
  await page.getByRole('button', { name: '00001.txt', exact: true }).waitFor({ timeout: 120_000 })
  return page
}

/**
 * One fling traced: the renderer main thread's CPU time per frame (ms: the self CPU time of its trace events over the
 * frames; the trace's own cost included, the same for any build), and its self CPU time by event name, the top ones.
 */
async function traceFling(browser: Browser, page: Page): Promise<{ busyPerFrame: number; top: string }> {
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink', 'v8.execute'] })
  const frames = await scrollFrameTimes(page, FILES, 'fling')
  const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: Array<{ name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string } }> }
  const events = trace.traceEvents
  // Every open page has a renderer: the traced one is the renderer main thread that ran the fling's scripts.
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
  const scripted = (m: { pid: number; tid: number }) =>
    events.filter((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'FunctionCall').reduce((total, e) => total + (e.dur ?? 0), 0)
  const main = mains.sort((a, b) => scripted(b) - scripted(a))[0]
  // CPU time (tdur), not wall time: on a loaded machine the thread waits for a core inside its events.
  const onMain = events
    .filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined && e.tdur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)
  const self = new Map<string, number>()
  const stack: Array<{ name: string; end: number; cpu: number }> = []
  const done = () => {
    const top = stack.pop()!
    self.set(top.name, (self.get(top.name) ?? 0) + Math.max(0, top.cpu))
  }
  for (const e of onMain) {
    while (stack.length && stack[stack.length - 1].end <= e.ts) done()
    if (stack.length) stack[stack.length - 1].cpu -= e.tdur!
    stack.push({ name: e.name, end: e.ts + e.dur!, cpu: e.tdur! })
  }
  while (stack.length) done()
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  const top = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([name, us]) => `${name} ${(us / 1000).toFixed(0)} ms (${((us / total) * 100).toFixed(0)}%)`)
    .join(', ')
  return { busyPerFrame: total / 1000 / frames.length, top }
}

/** Heights (px) of the file rows drawn. */
const rowHeights = (page: Page) =>
  page.evaluate(() => [...new Set([...document.querySelectorAll('table[aria-label="Files"] tbody tr[aria-rowindex]')].map((r) => r.getBoundingClientRect().height))])

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
    // A first visit loads the app's code; the second is the one measured.
    const page = await openBucket(await signedIn(browser, server.url), ref)
    await page.goto(`/project/${ref}/storage/buckets/many`)
    const shownAt = await waitUntil(page, `[...document.querySelectorAll('table[aria-label="Files"] button')].some((b) => b.textContent === '00001.txt')`)
    const rows = await page.locator('table[aria-label="Files"] tbody tr[aria-rowindex]').count()
    // The virtualiser places rows by the height it is given: the rows drawn must have it.
    console.log(`file browser: first row shown ${shownAt.toFixed(0)} ms after navigation; ${rows} of ${OBJECTS.toLocaleString('en-US')} rows in the document, ${(await rowHeights(page)).join(', ')} px high`)

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

    const traced = process.env.BENCH_TRACE ? await traceFling(browser, page) : undefined
    if (traced) console.log(`file browser fling traced: main thread CPU ${traced.busyPerFrame.toFixed(1)} ms a frame; self CPU time ${traced.top}`)

    const reference = process.env.REFERENCE_DIST
    if (reference) {
      const referencePage = await openBucket(await signedIn(browser, server.url, path.resolve(reference)), ref)
      console.log(`reference build: ${(await rowHeights(referencePage)).join(', ')} px high rows`)
      if (traced) console.log(`reference build's fling traced: self CPU time ${(await traceFling(browser, referencePage)).top}`)
      const ours: number[] = []
      const theirs: number[] = []
      const busy = { ours: [] as number[], theirs: [] as number[] }
      for (let round = 0; round < ROUNDS; round++) {
        theirs.push(...(await scrollFrameTimes(referencePage, FILES, 'fling')))
        ours.push(...(await scrollFrameTimes(page, FILES, 'fling')))
        if (traced) {
          busy.theirs.push((await traceFling(browser, referencePage)).busyPerFrame)
          busy.ours.push((await traceFling(browser, page)).busyPerFrame)
        }
      }
      console.log(`fling, the builds taking turns (${ROUNDS} × 300 frames each): reference ${frameFigures(theirs)}`)
      console.log(`fling, the builds taking turns (${ROUNDS} × 300 frames each): this build ${frameFigures(ours)}`)
      console.log(`fling median frame: this build / reference = ${(median(ours) / median(theirs)).toFixed(2)}`)
      if (traced) {
        const ms = (values: number[]) => values.map((v) => v.toFixed(1)).join(', ')
        console.log(`fling traced, main thread CPU a frame (ms, one traced fling per turn): reference ${ms(busy.theirs)}; this build ${ms(busy.ours)}`)
        console.log(`fling traced, median CPU a frame: this build / reference = ${(median(busy.ours) / median(busy.theirs)).toFixed(2)}`)
      }
    }
  } finally {
    await browser.close()
  }
  console.log(loadLine())
} finally {
  await server.stop()
  removeDir(server.dataDir)
}
