/**
 * Figures of the upgrading and connecting screens, measured in Chromium against the real server:
 *   1. requests per minute while each screen is up (spec: 12/min for the 5 s upgrade poll, 15/min for the 4 s
 *      connectivity test), and after leaving the screen by client-side navigation (must be 0);
 *   2. time from the server's transition to the screen showing it, median (and p90) over 20, against the poll interval.
 * Run: npx tsx bench/upgrade-connect.bench.ts   (BENCH_WINDOW_MS=60000 and BENCH_SAMPLES=20 by default)
 */
import { chromium, type BrowserContext, type Page } from '@playwright/test'
import { execSync } from 'node:child_process'
import { median, removeDir, startServer } from './support'

const WINDOW_MS = Number(process.env.BENCH_WINDOW_MS ?? 60_000)
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20)
const STEP_MS = 1_000
/** BENCH_PARTS=rates or latency runs one part only. */
const PARTS = process.env.BENCH_PARTS ?? 'rates,latency'
const outDir = '.tmp/dist-bench-upgrade'

execSync(`npx vite build --outDir ${outDir}`, { stdio: 'ignore' })
const server = await startServer({ DIST_DIR: `${process.cwd()}/${outDir}`, LIFECYCLE_UPGRADE_STEP_MS: String(STEP_MS), LIFECYCLE_TICK_MS: '50' })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const p90 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)]

async function newProject(context: BrowserContext, body: Record<string, string>) {
  const res = await context.request.post('/dev/projects', { data: { organization_slug: 'demo-pro', ...body } })
  return (await res.json()) as { ref: string }
}

function counter(page: Page, path: RegExp) {
  const at: number[] = []
  page.on('request', (r) => {
    if (path.test(new URL(r.url()).pathname)) at.push(Date.now())
  })
  return at
}

/** Leaves the screen the way a person does: a client-side navigation to the project list. */
async function leave(page: Page) {
  await page.evaluate(() => {
    history.pushState(null, '', '/projects')
    dispatchEvent(new PopStateEvent('popstate'))
  })
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor()
}

async function rate(page: Page, at: number[], label: string, expected: number) {
  await sleep(1_000)
  const from = Date.now()
  const before = at.length
  await sleep(WINDOW_MS)
  const perMinute = ((at.length - before) * 60_000) / (Date.now() - from)
  await leave(page)
  const left = at.length
  await sleep(Math.min(WINDOW_MS, 20_000))
  console.log(`${label}: ${perMinute.toFixed(1)} requests/min over ${WINDOW_MS / 1000} s (spec ${expected}/min); after leaving: ${at.length - left} in ${Math.min(WINDOW_MS, 20_000) / 1000} s`)
}

/** Epoch ms (browser clock, same machine) when the page first satisfies the predicate. */
async function shownAt(page: Page, text: string, present: boolean, timeout = 30_000): Promise<number> {
  const handle = await page.waitForFunction(
    ([t, p]) => (document.body.innerText.includes(t as string) === p ? Date.now() : false),
    [text, present] as const,
    { polling: 'raf', timeout },
  )
  return (await handle.jsonValue()) as number
}

try {
  const context = await browser.newContext({ baseURL: server.url })
  const signIn = await context.request.post('/platform/auth/sign-in', { data: { email: 'owner@example.com', password: 'demo1234' } })
  if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()}`)
  const page = await context.newPage()

  if (PARTS.includes('rates')) {
    // 1a. Upgrading screen: a project put UPGRADING by the dev control holds an upgrade that does not advance, so the
    // screen stays on 'Upgrading project' for the whole window.
    const slow = await newProject(context, { name: 'Bench held upgrade', status: 'UPGRADING' })
    const upgradePolls = counter(page, /\/v1\/projects\/[a-z]{20}\/upgrade\/status$/)
    await page.goto(`/project/${slow.ref}`)
    await page.getByRole('heading', { level: 1, name: 'Upgrading project' }).waitFor()
    await rate(page, upgradePolls, 'upgrading screen, GET /v1/projects/{ref}/upgrade/status', 12)

    // 1b. Connecting screen.
    const offline = await newProject(context, { name: 'Bench offline', postgrestStatus: 'OFFLINE' })
    const probes = counter(page, /\/platform\/projects\/[a-z]{20}\/(live|api\/rest)$/)
    await page.goto(`/project/${offline.ref}`)
    await page.getByRole('heading', { level: 1, name: 'Connecting to project' }).waitFor()
    await rate(page, probes, 'connecting screen, GET /platform/projects/{ref}/live', 15)
  }

  if (PARTS.includes('latency')) {
    // 2a. Upgrade completed: server time of the last step (latest_status_at) → 'Upgrade completed!' on screen.
    const upgradeLatency: number[] = []
    for (let i = 0; i < SAMPLES; i++) {
      const p = await newProject(context, { name: `Bench upgrade ${i}` })
      await context.request.post(`/v1/projects/${p.ref}/upgrade`, { data: { target_version: '17' } })
      // Open the screen at a random moment (0-5 s) of the 8 s upgrade, so the 5 s poll's phase against the
      // completion is uniform.
      await sleep(Math.random() * 5_000)
      await page.goto(`/project/${p.ref}`)
      const shown = await shownAt(page, 'Upgrade completed!', true)
      const status = (await (await context.request.get(`/v1/projects/${p.ref}/upgrade/status`)).json()) as {
        databaseUpgradeStatus: { latest_status_at: string }
      }
      upgradeLatency.push(shown - Date.parse(status.databaseUpgradeStatus.latest_status_at))
  }
  console.log(
    `upgrade upgraded → 'Upgrade completed!': median ${Math.round(median(upgradeLatency))} ms, p90 ${Math.round(p90(upgradeLatency))} ms, ` +
      `max ${Math.round(Math.max(...upgradeLatency))} ms over ${SAMPLES} (poll interval 5000 ms; expected median ≈ 2500 ms + request)`,
  )

  // 2b. Connecting: API server ONLINE (dev control answered) → the connecting screen gone.
  const connectLatency: number[] = []
  const p = await newProject(context, { name: 'Bench reconnect' })
  for (let i = 0; i < SAMPLES; i++) {
    await context.request.post(`/dev/projects/${p.ref}/postgrest`, { data: { postgrestStatus: 'OFFLINE' } })
    await page.goto(`/project/${p.ref}/editor`)
    await page.getByRole('heading', { level: 1, name: 'Connecting to project' }).waitFor()
    await sleep(Math.random() * 4_000)
    const res = await context.request.post(`/dev/projects/${p.ref}/postgrest`, { data: { postgrestStatus: 'ONLINE' } })
    const onlineAt = Date.now()
    if (!res.ok()) throw new Error('postgrest control failed')
    const shown = await shownAt(page, 'Connecting to project', false)
    connectLatency.push(shown - onlineAt)
  }
  console.log(
    `API server ONLINE → connecting screen gone: median ${Math.round(median(connectLatency))} ms, p90 ${Math.round(p90(connectLatency))} ms, ` +
      `max ${Math.round(Math.max(...connectLatency))} ms over ${SAMPLES} (poll interval 4000 ms; expected median ≈ 2000 ms + request + refetch)`,
  )
  }
} finally {
  await browser.close()
  await server.stop()
  removeDir(server.dataDir)
}
