/**
 * The SQL Editor page: the JS it loads beyond the first load (gzip, level 6, as a server sends it: the page's chunk
 * with CodeMirror, the editor's machine with the formatter, the saved queries' machine), and its time to interactive
 * (navigation from the project's home to the editor accepting text, median of 5 visits in a warm browser).
 */
import { chromium } from '@playwright/test'
import { execSync } from 'node:child_process'
import { gzipSync } from 'node:zlib'
import { median, removeDir, startServer } from './support'

execSync('npx vite build', { stdio: 'ignore' })
const server = await startServer()
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})
try {
  const context = await browser.newContext({ baseURL: server.url })
  const signIn = await context.request.post('/platform/auth/sign-in', { data: { email: 'owner@example.com', password: 'demo1234' } })
  if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()}`)
  const projects = (await (await context.request.get('/platform/projects')).json()) as Array<{ ref: string; status: string; postgrestStatus: string }>
  const project = projects.find((p) => p.status === 'ACTIVE_HEALTHY' && p.postgrestStatus === 'ONLINE')
  if (!project) throw new Error('no healthy demo project')

  const page = await context.newPage()
  // What the first load fetches: each visit below navigates afresh and fetches it again, so it is left out by name.
  const firstLoad = new Set<string>()
  const listenFirstLoad = (response: { url(): string }) => void firstLoad.add(new URL(response.url()).pathname)
  page.on('response', listenFirstLoad)
  await page.goto(`/project/${project.ref}`)
  await page.waitForLoadState('networkidle')
  page.off('response', listenFirstLoad)
  // Every other script fetched from here on is what the SQL Editor adds to the first load.
  const assets: Array<{ url: string; gzip: number }> = []
  const pending: Array<Promise<void>> = []
  page.on('response', (response) => {
    const url = new URL(response.url())
    if (!url.pathname.endsWith('.js') || url.origin !== server.url || firstLoad.has(url.pathname)) return
    pending.push(response.body().then((body) => void assets.push({ url: url.pathname, gzip: gzipSync(body, { level: 6 }).length })))
  })
  const times: number[] = []
  for (let visit = 0; visit < 5; visit += 1) {
    await page.goto(`/project/${project.ref}`)
    await page.waitForLoadState('networkidle')
    const started = Date.now()
    await page.goto(`/project/${project.ref}/sql/new`)
    const editor = page.getByRole('textbox', { name: 'SQL query' })
    await editor.click()
    await page.keyboard.type('s')
    await page.getByRole('button', { name: 'Run' }).waitFor({ state: 'visible' })
    await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent?.includes('s'))
    times.push(Date.now() - started)
    await page.keyboard.press('Backspace')
  }
  await Promise.all(pending)
  const first = new Map<string, number>()
  for (const asset of assets) if (!first.has(asset.url)) first.set(asset.url, asset.gzip)
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`
  const total = [...first.values()].reduce((n, b) => n + b, 0)
  for (const [url, gzip] of [...first].sort((a, b) => b[1] - a[1])) console.log(`  ${url}: ${kb(gzip)} gzip`)
  console.log(`SQL Editor chunks beyond the first load: ${kb(total)} gzip over ${first.size} files`)
  console.log(`SQL Editor time to interactive (full navigation, editor takes text): median ${median(times)} ms, min ${Math.min(...times)} ms, max ${Math.max(...times)} ms`)
} finally {
  await browser.close()
  await server.stop()
  removeDir(server.dataDir)
}
