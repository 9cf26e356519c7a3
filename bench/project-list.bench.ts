/**
 * The project list at 1,000 projects, against the real server and in Chromium: PROJECTS projects (default 1,000, made
 * with the development controls, alternating between the two demo organizations, on top of the demo's own) and
 *  (a) the list API: GET /platform/projects as the Owner, the median of CALLS calls (the budget is 100 ms);
 *  (b) the page: from the navigation to /projects to its cards on screen — the cards rendered fill the page's scrolling
 *      area (or every card is rendered, when they are fewer than a screenful), timed by the page itself from its
 *      navigation start (the budget is 500 ms);
 *  (c) a search: from the search box's input to the filtered result on screen — the cards rendered are exactly the
 *      matching ones (the budget is 50 ms).
 * Medians over RUNS runs (default 7). `npx tsx bench/project-list.bench.ts` (or `npm run bench -- project-list`);
 * DIST_DIR=<folder> measures a dashboard built there instead of building this one.
 */
import { chromium } from '@playwright/test'
import { execSync } from 'node:child_process'
import { isHealthy, loadLine, median, ownerCookie, removeDir, startServer, waitForIdle, waitUntil } from './support'

const PROJECTS = Number(process.env.PROJECTS ?? 1_000)
const RUNS = Number(process.env.RUNS ?? 7)
const CALLS = Number(process.env.CALLS ?? 21)

// DIST_DIR: a dashboard built beforehand (another version's, to compare); otherwise this one, built now.
if (!process.env.DIST_DIR) execSync('npx vite build', { stdio: 'ignore' })
const server = await startServer()
// A fresh data folder makes the demo data and the project database template first: on a busy machine that outlasts
// startServer's minute.
for (let waited = 0; !(await isHealthy(server.url)); waited += 1) {
  if (waited > 300) throw new Error('the server did not start within 5 minutes')
  await new Promise((r) => setTimeout(r, 1_000))
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
})

const name = (i: number) => `Bench project ${String(i).padStart(4, '0')}`
/** The cards of the list: links to a project inside an organization's section. */
const CARDS = 'main section a[href^="/project/"]'

/** The cards rendered reach the bottom of the scrolling area, or every one of `total` cards is rendered. */
const cardsOnScreen = (total: number) => `(() => {
  const cards = document.querySelectorAll(${JSON.stringify(CARDS)})
  if (cards.length === 0) return false
  if (cards.length >= ${total}) return true
  const main = document.querySelector('main')
  return cards[cards.length - 1].getBoundingClientRect().bottom >= main.getBoundingClientRect().bottom
})()`

/** Exactly the `expected` matching cards are rendered, and nothing else. */
const onlyMatches = (query: string, expected: number) => `(() => {
  const cards = [...document.querySelectorAll(${JSON.stringify(CARDS)})]
  return cards.length === ${expected} && cards.every((card) => card.textContent.toLowerCase().includes(${JSON.stringify(query)}))
})()`

try {
  await waitForIdle(server.process.pid!)
  const cookie = await ownerCookie(server.url)
  const started = performance.now()
  const orgs = ['demo-pro', 'demo-free']
  for (let i = 0; i < PROJECTS; i += 8) {
    await Promise.all(
      Array.from({ length: Math.min(8, PROJECTS - i) }, async (_, k) => {
        const res = await fetch(`${server.url}/dev/projects`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ organization_slug: orgs[(i + k) % 2], name: name(i + k), status: 'ACTIVE_HEALTHY' }),
        })
        if (!res.ok) throw new Error(`creating a project answered ${res.status}: ${await res.text()}`)
      }),
    )
  }
  console.log(`${PROJECTS} projects made in ${((performance.now() - started) / 1000).toFixed(1)} s`)

  // (a) The list API.
  const apiMs: number[] = []
  let total = 0
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now()
    const res = await fetch(`${server.url}/platform/projects`, { headers: { cookie } })
    const list = (await res.json()) as unknown[]
    apiMs.push(performance.now() - t0)
    total = list.length
  }

  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } })
  const signedIn = await context.request.post('/platform/auth/sign-in', { data: { email: 'owner@example.com', password: 'demo1234' } })
  if (!signedIn.ok()) throw new Error(`sign-in failed: ${signedIn.status()}`)
  const page = await context.newPage()

  // A query that matches ten projects: 'Bench project 0420' … 'Bench project 0429' (refs are letters only).
  const query = 'project 042'
  const matching = Array.from({ length: PROJECTS }, (_, i) => name(i).toLowerCase()).filter((n) => n.includes(query)).length
  const pageMs: number[] = []
  const searchMs: number[] = []
  const clearMs: number[] = []
  for (let run = 0; run < RUNS; run++) {
    await page.goto('/projects', { waitUntil: 'commit' })
    pageMs.push(await waitUntil(page, cardsOnScreen(total)))
    await page.getByRole('searchbox', { name: 'Search for a project' }).waitFor()
    await page.waitForTimeout(300)

    // Typed at once (as a paste): React reads the input event; the time runs from the event to the result on screen.
    const typeAt = (text: string) =>
      page.evaluate((text) => {
        const input = document.querySelector<HTMLInputElement>('input[type="search"]')!
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, text)
        const at = performance.now()
        input.dispatchEvent(new Event('input', { bubbles: true }))
        return at
      }, text)
    const typed = await typeAt(query)
    searchMs.push((await waitUntil(page, onlyMatches(query, matching))) - typed)
    await page.waitForTimeout(100)
    const cleared = await typeAt('')
    clearMs.push((await waitUntil(page, cardsOnScreen(total))) - cleared)
  }
  const rendered = await page.locator(CARDS).count()

  const f = (n: number) => `${Math.round(n)} ms`
  const list = (values: number[]) => values.map(f).join(', ')
  console.log(`(a) GET /platform/projects (${total} projects): median ${f(median(apiMs))} over ${CALLS} calls (${list(apiMs)}); budget 100 ms`)
  console.log(`(b) /projects, navigation → its cards on screen: median ${f(median(pageMs))} (${list(pageMs)}); budget 500 ms`)
  console.log(`(c) search '${query}' → the ${matching} matching cards alone on screen: median ${f(median(searchMs))} (${list(searchMs)}); budget 50 ms`)
  console.log(`    clearing the search → the cards on screen again: median ${f(median(clearMs))} (${list(clearMs)})`)
  console.log(`cards in the document with the whole list shown: ${rendered} of ${total}`)
  console.log(loadLine())
} finally {
  await browser.close()
  await server.stop()
  removeDir(server.dataDir)
}
