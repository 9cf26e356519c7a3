/**
 * Pause and restore screens in the browser (Debian's Chromium, the built dashboard, the real server):
 *  1. requests per minute of the status poll of the pausing page (spec: every 2 s → 30/min) and the restoring
 *     page (every 4 s → 15/min) over a full minute, and after leaving the screen (must be 0);
 *  2. time from the server's transition (the project's status_changed_at) to the screen showing it, median over
 *     20 transitions each, against the poll interval.
 * `npx tsx bench/pause-restore.bench.ts` (add SKIP_BUILD=1 to reuse dist/).
 */
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { execSync } from 'node:child_process'
import { median, removeDir, startServer, type RunningServer } from './support'

const STATUS_PATH = /^\/platform\/projects\/([a-z]{20})\/status$/
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function signedInContext(browser: Browser, server: RunningServer): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.url })
  const res = await context.request.post('/platform/auth/sign-in', { data: { email: 'owner@example.com', password: 'demo1234' } })
  if (!res.ok()) throw new Error(`sign-in failed: ${res.status()}`)
  return context
}

async function devProject(context: BrowserContext, status: string, name: string) {
  const res = await context.request.post('/dev/projects', { data: { organization_slug: 'demo-pro', name, status } })
  if (!res.ok()) throw new Error(`dev create failed: ${res.status()} ${await res.text()}`)
  return (await res.json()) as { ref: string }
}

/** Status requests of one project, by time, as the page made them. */
function recordStatusRequests(page: Page, ref: string) {
  const times: number[] = []
  page.on('request', (request) => {
    const match = STATUS_PATH.exec(new URL(request.url()).pathname)
    if (match?.[1] === ref) times.push(Date.now())
  })
  return times
}

async function requestsPerMinute(browser: Browser) {
  // Long durations: both screens stay up for the whole measurement.
  const server = await startServer({ LIFECYCLE_GOING_DOWN_MS: '600000', LIFECYCLE_PAUSING_MS: '600000', LIFECYCLE_RESTORING_MS: '600000' })
  try {
    const context = await signedInContext(browser, server)
    const screens = [
      { label: 'pausing (2 s poll)', status: 'GOING_DOWN', heading: 'Pausing project', expected: 30 },
      { label: 'restoring (4 s poll)', status: 'RESTORING', heading: 'Restoration in progress', expected: 15 },
    ]
    const runs = await Promise.all(
      screens.map(async (screen) => {
        const { ref } = await devProject(context, screen.status, `Bench ${screen.status}`)
        const page = await context.newPage()
        const times = recordStatusRequests(page, ref)
        await page.goto(`/project/${ref}/editor`)
        await page.getByRole('heading', { level: 1, name: screen.heading }).waitFor()
        // One full minute from the second poll: the first goes out while the page is still busy loading (it can
        // leave a few hundred ms after its state was entered, which the timers count from).
        while (times.length < 2) await sleep(50)
        const first = times[1]
        await sleep(first + 60_000 - Date.now() + 200)
        const inMinute = times.filter((t) => t >= first && t < first + 60_000).length
        // Leave the screen for the project list: the poll must stop.
        // In-app navigation (no reload): the router unmounts the screen and its machine.
        await page.evaluate(() => {
          history.pushState({}, '', '/projects')
          dispatchEvent(new PopStateEvent('popstate'))
        })
        await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor()
        const leftAt = Date.now()
        await sleep(20_000)
        const after = times.filter((t) => t > leftAt + 100).length
        await page.close()
        const gaps = times.slice(1).map((t, i) => t - times[i])
        const steady = gaps.slice(1)
        const meanGap = steady.reduce((n, g) => n + g, 0) / steady.length
        return { ...screen, inMinute, after, gaps, meanGap }
      }),
    )
    for (const run of runs) {
      console.log(`requests per minute, ${run.label}: ${run.inMinute}/min (spec ${run.expected}/min) ${run.inMinute === run.expected ? 'OK' : 'MISMATCH'}, mean gap ${Math.round(run.meanGap)} ms; after leaving the screen: ${run.after} in 20 s`)
      if (run.inMinute !== run.expected) console.log(`  gaps between requests (ms): ${run.gaps.join(', ')}`)
    }
    await context.close()
  } finally {
    await server.stop()
    removeDir(server.dataDir)
  }
}

async function timeToScreen(browser: Browser) {
  const GOING_DOWN_MS = 3_000
  const PAUSING_MS = 5_000
  const RESTORING_MS = 6_000
  const server = await startServer({
    LIFECYCLE_GOING_DOWN_MS: String(GOING_DOWN_MS),
    LIFECYCLE_PAUSING_MS: String(PAUSING_MS),
    LIFECYCLE_RESTORING_MS: String(RESTORING_MS),
  })
  try {
    const context = await signedInContext(browser, server)
    const walks = [
      { label: 'pausing → paused page (2 s poll)', status: 'GOING_DOWN', shown: 'Project is paused', interval: 2_000 },
      { label: "restoring → 'Restoration complete!' (4 s poll)", status: 'RESTORING', shown: 'Restoration complete!', interval: 4_000 },
    ]
    for (const walk of walks) {
      const delays: number[] = []
      const CONCURRENCY = 5
      for (let round = 0; round < 20 / CONCURRENCY; round++) {
        const results = await Promise.all(
          Array.from({ length: CONCURRENCY }, async (_, i) => {
            const { ref } = await devProject(context, walk.status, `Latency ${walk.status} ${round}-${i}`)
            const page = await context.newPage()
            // A random phase between the poll and the transition, as a person opening the page at any moment.
            await sleep(Math.random() * walk.interval)
            await page.goto(`/project/${ref}/editor`)
            await page.getByRole('heading', { level: 1, name: walk.shown }).waitFor({ timeout: 60_000 })
            const shownAt = Date.now()
            const project = (await (await context.request.get(`/platform/projects/${ref}`)).json()) as { status_changed_at: string }
            await page.close()
            return shownAt - Date.parse(project.status_changed_at)
          }),
        )
        delays.push(...results)
      }
      const sorted = [...delays].sort((a, b) => a - b)
      console.log(
        `time from transition to screen, ${walk.label}: median ${Math.round(median(delays))} ms over ${delays.length} (min ${sorted[0]}, max ${sorted[sorted.length - 1]}); poll interval ${walk.interval} ms`,
      )
    }
    await context.close()
  } finally {
    await server.stop()
    removeDir(server.dataDir)
  }
}

// Its own build folder, so other work building dist/ at the same time does not interfere.
const DIST_DIR = `${process.cwd()}/.tmp/dist-pause`
process.env.DIST_DIR = DIST_DIR
if (!process.env.SKIP_BUILD) execSync(`npx vite build --outDir ${DIST_DIR}`, { stdio: 'ignore' })
const browser = await chromium.launch(launchOptions)
try {
  if (process.env.ONLY !== 'latency') await requestsPerMinute(browser)
  if (process.env.ONLY !== 'rate') await timeToScreen(browser)
} finally {
  await browser.close()
}
