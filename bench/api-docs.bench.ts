/**
 * The API docs panel on a large database, in Chromium against the real server: a project with 1,000 tables, 100 views
 * and 200 functions (bench/support.ts largeSchemaSql). Each of RUNS openings: the nav's Project API entry opens the
 * panel, Tables & Views is chosen at once, and the page itself times
 *  - the REST schema's arrival (its response's end, from the browser's resource timing) and the list of 1,000+ tables
 *    on screen: the budget is 200 ms from the schema's arrival;
 *  - the requests the opening made (the schema must be one request, never one per table);
 *  - switching from one table's page to another's through the dropdown (input to the new columns on screen).
 * Medians over the runs. `npx tsx bench/api-docs.bench.ts` (RUNS, default 5).
 */
import { chromium, type Page } from '@playwright/test'
import { execSync } from 'node:child_process'
import { largeSchemaSql, median, removeDir, startServer } from './support'

const TABLES = 1_000
const FUNCTIONS = 200
const RUNS = Number(process.env.RUNS ?? 5)

execSync('npx vite build', { stdio: 'ignore' })
const server = await startServer({ PROJECT_DB_QUERY_TIMEOUT_MS: '600000' })
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})

/**
 * Resolves in the page when `selector` matches `count` elements or more: performance.now() then. (Source text, not a
 * function: the TypeScript loader would name the inner arrow with a helper the page does not have.)
 */
const waitInPage = (page: Page, selector: string, count = 1) =>
  page.evaluate<number>(
    `new Promise((resolve) => {
      const check = () => (document.querySelectorAll(${JSON.stringify(selector)}).length >= ${count} ? resolve(performance.now()) : requestAnimationFrame(check))
      check()
    })`,
  )

try {
  const context = await browser.newContext({ baseURL: server.url })
  const signIn = await context.request.post('/platform/auth/sign-in', { data: { email: 'owner@example.com', password: 'demo1234' } })
  if (!signIn.ok()) throw new Error(`sign-in failed: ${signIn.status()}`)
  const created = await context.request.post('/dev/projects', { data: { organization_slug: 'demo-pro', name: 'Docs bench', status: 'ACTIVE_HEALTHY' } })
  const { ref } = (await created.json()) as { ref: string }
  const started = performance.now()
  const made = await context.request.post(`/v1/projects/${ref}/database/query`, { data: { query: largeSchemaSql(TABLES, FUNCTIONS) }, timeout: 600_000 })
  if (!made.ok()) throw new Error(`schema failed: ${made.status()} ${await made.text()}`)
  console.log(`database with ${TABLES} tables, ${TABLES / 10} views, ${FUNCTIONS} functions made in ${((performance.now() - started) / 1000).toFixed(1)} s`)

  const page = await context.newPage()
  await page.addInitScript(() => localStorage.setItem('supabase-ui-feature-previews', JSON.stringify({ apiDocsPanel: true })))
  const listMs: number[] = []
  const schemaMs: number[] = []
  const switchMs: number[] = []
  const requestCounts: number[] = []
  for (let run = 0; run < RUNS; run++) {
    await page.goto(`/project/${ref}`)
    await page.getByRole('button', { name: 'API Docs' }).waitFor()
    await page.waitForLoadState('networkidle')
    const requests: string[] = []
    const onRequest = (r: { url(): string }) => requests.push(new URL(r.url()).pathname)
    page.on('request', onRequest)
    const opened = await page.evaluate(() => performance.now())
    await page.getByRole('button', { name: 'API Docs' }).click()
    await page.getByRole('dialog', { name: 'API Docs' }).getByRole('button', { name: 'Tables & Views' }).click()
    const listed = await waitInPage(page, 'ul[aria-label="Tables and views"] > li', TABLES + TABLES / 10)
    const schemaEnd = await page.evaluate(
      (ref) => (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((e) => e.name.includes(`/platform/projects/${ref}/api/rest`)).at(-1)?.responseEnd ?? NaN,
      ref,
    )
    schemaMs.push(schemaEnd - opened)
    listMs.push(listed - schemaEnd)
    page.off('request', onRequest)
    requestCounts.push(requests.filter((p) => p.endsWith('/api/rest')).length)

    // One table's page, then another's through the dropdown.
    await page.getByRole('list', { name: 'Tables and views' }).getByRole('button', { name: /^t1\b/ }).click()
    await waitInPage(page, 'table[aria-label="Columns of t1"]')
    await page.evaluate(() => {
      ;(window as unknown as { __switchStart: number }).__switchStart = performance.now()
    })
    await page.getByRole('dialog', { name: 'API Docs' }).getByRole('combobox', { name: 'Tables & Views' }).selectOption('t2')
    const shown = await waitInPage(page, 'table[aria-label="Columns of t2"]')
    switchMs.push(shown - (await page.evaluate(() => (window as unknown as { __switchStart: number }).__switchStart)))
    await page.keyboard.press('Escape')
  }
  const f = (n: number) => `${Math.round(n)} ms`
  console.log(`opening → REST schema arrived (4 MB document): median ${f(median(schemaMs))} (${schemaMs.map(f).join(', ')})`)
  console.log(`schema arrived → ${TABLES + TABLES / 10} tables and views listed: median ${f(median(listMs))} (${listMs.map(f).join(', ')}); budget 200 ms`)
  console.log(`REST schema requests per opening: ${requestCounts.join(', ')}`)
  console.log(`switching between two tables' pages: median ${f(median(switchMs))} (${switchMs.map(f).join(', ')})`)
} finally {
  await browser.close()
  await server.stop()
  removeDir(server.dataDir)
}
