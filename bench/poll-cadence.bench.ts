/**
 * Poll cadence of every waiting screen in the browser (Debian's Chromium, the built dashboard, the real server):
 * the gaps between the starts of consecutive poll requests, with the server answering at once and with every
 * answer slowed by 1.5 s (inside each screen's time-out). A fixed beat keeps the gap at the spec's interval
 * whatever the answer time; a wait after each answer drifts by the answer time.
 * `npx tsx bench/poll-cadence.bench.ts` (SKIP_BUILD=1 reuses the build; SECONDS_PER_PHASE=30 by default).
 */
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { execSync } from 'node:child_process'
import { median, removeDir, startServer, type RunningServer } from './support'

const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const SECONDS = Number(process.env.SECONDS_PER_PHASE ?? 30)
const SLOW_MS = 1_500

interface Screen {
  label: string
  status: string
  postgrestStatus?: string
  heading: string
  /** The poll request's path, with the project ref in place of {ref}. */
  poll: string
  interval: number
}

const screens: Screen[] = [
  { label: 'building', status: 'COMING_UP', heading: 'Setting up project', poll: '/platform/projects/{ref}/status', interval: 4_000 },
  { label: 'pausing', status: 'GOING_DOWN', heading: 'Pausing project', poll: '/platform/projects/{ref}/status', interval: 2_000 },
  { label: 'restoring', status: 'RESTORING', heading: 'Restoration in progress', poll: '/platform/projects/{ref}/status', interval: 4_000 },
  { label: 'upgrading', status: 'UPGRADING', heading: 'Upgrading project', poll: '/v1/projects/{ref}/upgrade/status', interval: 5_000 },
  {
    label: 'connecting',
    status: 'ACTIVE_HEALTHY',
    postgrestStatus: 'OFFLINE',
    heading: 'Connecting to project',
    poll: '/platform/projects/{ref}/live',
    interval: 4_000,
  },
]

async function signedInContext(browser: Browser, server: RunningServer): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.url })
  const res = await context.request.post('/platform/auth/sign-in', { data: { email: 'owner@example.com', password: 'demo1234' } })
  if (!res.ok()) throw new Error(`sign-in failed: ${res.status()}`)
  return context
}

function recordRequests(page: Page, path: string) {
  const times: number[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) times.push(Date.now())
  })
  return times
}

async function phase(browser: Browser, server: RunningServer, latencyMs: number) {
  const context = await signedInContext(browser, server)
  const latency = await context.request.post('/dev/latency', { data: { ms: latencyMs } })
  if (!latency.ok()) throw new Error(`latency control failed: ${latency.status()}`)
  const results = await Promise.all(
    screens.map(async (screen) => {
      const created = await context.request.post('/dev/projects', {
        data: { organization_slug: 'demo-pro', name: `Cadence ${screen.label}`, status: screen.status, postgrestStatus: screen.postgrestStatus ?? 'ONLINE' },
      })
      if (!created.ok()) throw new Error(`dev create failed: ${created.status()} ${await created.text()}`)
      const { ref } = (await created.json()) as { ref: string }
      const page = await context.newPage()
      const times = recordRequests(page, screen.poll.replace('{ref}', ref))
      await page.goto(`/project/${ref}`)
      await page.getByRole('heading', { name: screen.heading }).first().waitFor({ timeout: 30_000 })
      await sleep(SECONDS * 1_000)
      await page.close()
      // The first gap includes the page still loading; the steady beat is what follows.
      const gaps = times.slice(1).map((t, i) => t - times[i]).slice(1)
      return { screen, gaps }
    }),
  )
  await context.request.post('/dev/latency', { data: { ms: 0 } })
  await context.close()
  for (const { screen, gaps } of results) {
    if (gaps.length === 0) {
      console.log(`  ${screen.label.padEnd(10)} no steady gaps measured`)
      continue
    }
    const sorted = [...gaps].sort((a, b) => a - b)
    const m = median(gaps)
    console.log(
      `  ${screen.label.padEnd(10)} every ${screen.interval} ms: median gap ${Math.round(m)} ms (${(m / screen.interval).toFixed(3)}× the interval), min ${sorted[0]}, max ${sorted[sorted.length - 1]}, ${gaps.length} gaps`,
    )
  }
}

const DIST_DIR = `${process.cwd()}/.tmp/dist-cadence`
if (!process.env.SKIP_BUILD) execSync(`npx vite build --outDir ${DIST_DIR}`, { stdio: 'ignore' })
const server = await startServer({
  DIST_DIR,
  LIFECYCLE_COMING_UP_MS: '600000',
  LIFECYCLE_GOING_DOWN_MS: '600000',
  LIFECYCLE_PAUSING_MS: '600000',
  LIFECYCLE_RESTORING_MS: '600000',
})
const browser = await chromium.launch(launchOptions)
try {
  console.log(`poll cadence, answers at once (${SECONDS} s per screen, all screens at the same time):`)
  await phase(browser, server, 0)
  console.log(`poll cadence, every answer ${SLOW_MS} ms late (inside each screen's time-out):`)
  await phase(browser, server, SLOW_MS)
} finally {
  await browser.close()
  await server.stop()
  removeDir(server.dataDir)
}
