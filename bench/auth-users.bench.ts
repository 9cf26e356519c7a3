/**
 * The Authentication → Users page's reads with 10,000 users, on a real server process (PGlite store): the calls the
 * page makes (`GET /platform/auth/{ref}/users?page&per_page=50&keywords`, which the platform forwards to the project's
 * `GET /auth/v1/admin/users`), closed loop with BENCH_CLIENTS clients (default 4) for LOAD_SECONDS each (default 5):
 *  - the first page (newest first), what the page shows on opening;
 *  - the last page (offset 9,950), the deepest a member can page to;
 *  - a search that finds one user (an e-mail's distinctive part);
 *  - a search that matches every user (the domain), so the count covers all 10,000.
 * Then the page itself in Chromium (the built dashboard), PAGE_RUNS times (default 10) after one warm-up: from the
 * moment the users answer has arrived (its resource timing's responseEnd) to the first rows in the document and to
 * the frame that shows them (the second animation frame after they were added: the first one's paint is done by
 * then) — on opening the page, and after 'Next page'. Median and worst of the runs.
 * The users are written in batches of 1,000 through the Management API's SQL endpoint (no password: a hash each would
 * make the set-up minutes long and is not what is read). `npx vite build && npx tsx bench/auth-users.bench.ts`
 * (AUTH_USERS_BENCH=page for the page's figures only).
 */
import { chromium, type Page } from '@playwright/test'
import { demoProjectKeys, formatFigures, loadFigures, loadLine, median, removeDir, startServer } from './support'

const USERS = 10_000
const PER_PAGE = 50
const BATCH = 1_000
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4)
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 5)
const PAGE_RUNS = Number(process.env.PAGE_RUNS ?? 10)
const PARTS = (process.env.AUTH_USERS_BENCH ?? 'reads,page').split(',').map((p) => p.trim())

/**
 * Installed in the page before its scripts: each time the first row of the users table changes, when it entered the
 * document and the start of the second animation frame after that (the frame that painted it has been presented).
 */
function watchFirstRow() {
  const w = window as unknown as { firstRows: { email: string; dom: number; frame: number }[] }
  w.firstRows = []
  let shown = ''
  new MutationObserver(() => {
    const email = document.querySelector('table[aria-label="Users"] tbody tr th')?.textContent ?? ''
    if (!email || email === shown) return
    shown = email
    const dom = performance.now()
    requestAnimationFrame(() => requestAnimationFrame((frame) => w.firstRows.push({ email, dom, frame })))
  }).observe(document, { subtree: true, childList: true, characterData: true })
}

/** The newest users answer's arrival and the first rows it put on screen, in the page's clock. */
async function lastShowing(page: Page, email: string) {
  await page.waitForFunction((e) => (window as unknown as { firstRows: { email: string }[] }).firstRows.some((r) => r.email === e), email, { timeout: 60_000 })
  return page.evaluate((e) => {
    const row = (window as unknown as { firstRows: { email: string; dom: number; frame: number }[] }).firstRows.find((r) => r.email === e)!
    const answers = performance.getEntriesByType('resource').filter((r) => /\/platform\/auth\/[a-z]+\/users\?/.test(r.name)) as PerformanceResourceTiming[]
    const answer = answers.filter((a) => a.responseEnd <= row.dom).at(-1)
    if (!answer) throw new Error('no users answer before the rows')
    return { toDom: row.dom - answer.responseEnd, toFrame: row.frame - answer.responseEnd }
  }, email)
}

async function pageFigures(url: string, ref: string, total: number, newest: string, second: string) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  try {
    const context = await browser.newContext({ baseURL: url })
    const signedIn = await context.request.post('/platform/auth/sign-in', { data: { email: 'owner@example.com', password: 'demo1234' } })
    if (!signedIn.ok()) throw new Error(`sign-in answered ${signedIn.status()}`)
    await context.addInitScript(watchFirstRow)
    const page = await context.newPage()
    const opening: { toDom: number; toFrame: number }[] = []
    const next: { toDom: number; toFrame: number }[] = []
    for (let run = 0; run <= PAGE_RUNS; run++) {
      await page.goto(`/project/${ref}/auth/users`)
      const opened = await lastShowing(page, newest)
      await page.getByRole('button', { name: 'Next page' }).click()
      const paged = await lastShowing(page, second)
      if (run === 0) continue // the warm-up: the page's code fetched and compiled
      opening.push(opened)
      next.push(paged)
    }
    const line = (label: string, runs: { toDom: number; toFrame: number }[]) => {
      const dom = runs.map((r) => r.toDom)
      const frame = runs.map((r) => r.toFrame)
      return `  ${label}: first rows in the document ${median(dom).toFixed(1)} ms after the answer (worst ${Math.max(...dom).toFixed(1)}), on screen ${median(frame).toFixed(1)} ms (worst ${Math.max(...frame).toFixed(1)})`
    }
    console.log(`Authentication → Users with ${total} users in Chromium, ${PAGE_RUNS} runs, median from the users answer's arrival:`)
    console.log(line('opening the page', opening))
    console.log(line('next page', next))
  } finally {
    await browser.close()
  }
}

const server = await startServer()
try {
  const { ref, cookie } = await demoProjectKeys(server.url)
  // In batches: one statement for all 10,000 can pass the endpoint's time-out on a busy machine.
  for (let from = 1; from <= USERS; from += BATCH) {
    const to = Math.min(USERS, from + BATCH - 1)
    const made = await fetch(`${server.url}/v1/projects/${ref}/database/query`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({
        query: `
          with made as (
            insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at, raw_app_meta_data, raw_user_meta_data,
                                    created_at, updated_at, last_sign_in_at, is_sso_user, is_anonymous)
            select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated',
                   'user-' || lpad(g::text, 5, '0') || '@example.com', now(), '{"provider": "email", "providers": ["email"]}', '{}',
                   now() - g * interval '1 minute', now(), now() - g * interval '1 second', false, false
              from generate_series(${from}, ${to}) g
            returning id, email, created_at)
          insert into auth.identities (provider_id, user_id, identity_data, provider, created_at, updated_at)
          select id::text, id, jsonb_build_object('sub', id::text, 'email', email), 'email', created_at, created_at from made;`,
      }),
    })
    if (!made.ok) throw new Error(`the SQL endpoint answered ${made.status}: ${await made.text()}`)
  }

  const users = (query: string) => `${server.url}/platform/auth/${ref}/users?${query}`
  const first = await fetch(users(`page=1&per_page=${PER_PAGE}`), { headers: { cookie } })
  const firstBody = (await first.json()) as { users: unknown[]; total: number }
  if (!first.ok || firstBody.users.length !== PER_PAGE || firstBody.total < USERS) {
    throw new Error(`the first page answered ${first.status} with ${firstBody.users?.length} users of ${firstBody.total}`)
  }
  const lastPage = Math.ceil(firstBody.total / PER_PAGE)
  if (PARTS.includes('reads')) {
    const cases: [string, string][] = [
      ['first page', `page=1&per_page=${PER_PAGE}`],
      [`last page (${lastPage})`, `page=${lastPage}&per_page=${PER_PAGE}`],
      ['search finding one user', `page=1&per_page=${PER_PAGE}&keywords=user-04242`],
      [`search matching all ${USERS}`, `page=1&per_page=${PER_PAGE}&keywords=example.com`],
    ]
    // A short pass of each first, so the first case measured does not pay alone for the warm-up (compiled code, the
    // project database's caches).
    for (const [, query] of cases) await loadFigures({ url: users(query), connections: 1, duration: 1, timeout: 20, headers: { cookie } })
    console.log(`${firstBody.total} users; GET /platform/auth/{ref}/users, ${CLIENTS} clients, ${LOAD_SECONDS} s each:`)
    for (const [label, query] of cases) {
      const figures = await loadFigures({ url: users(query), connections: CLIENTS, duration: LOAD_SECONDS, timeout: 20, headers: { cookie } })
      console.log(`  ${label}: ${formatFigures(figures)}`)
    }
  }
  if (PARTS.includes('page')) {
    // The first user of each page, as the page will show them.
    const firstOf = async (n: number) => {
      const body = (await (await fetch(users(`page=${n}&per_page=${PER_PAGE}`), { headers: { cookie } })).json()) as { users: { email: string }[] }
      return body.users[0].email
    }
    await pageFigures(server.url, ref, firstBody.total, await firstOf(1), await firstOf(2))
  }
  console.log(loadLine())
} finally {
  await server.stop()
  removeDir(server.dataDir)
}
