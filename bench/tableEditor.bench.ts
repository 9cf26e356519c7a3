/**
 * The Table Editor's figures on a running platform (PGlite project database):
 *  - CSV import of 100,000 rows: seconds from the first byte sent to the answer, and the server's peak RSS growth
 *    (read from /proc while the import runs; the project's database worker is a process of its own, also read);
 *  - grid scroll: the grid page opened on the imported table at 1,000 rows a page (the most a page holds), scrolled
 *    top to bottom in Chromium; frame times from requestAnimationFrame, the share of frames under 16 ms.
 * `npx vite build && npx tsx bench/tableEditor.bench.ts`
 */
import { readFileSync, readdirSync } from 'node:fs'
import { frameFigures, launchChromium, ownerCookie, removeDir, scrollFrameTimes, startServer } from './support'

const ROWS = 100_000

/** RSS in kB of a process and its descendants (the server and its database workers). */
function treeRssKb(pid: number): number {
  let total = 0
  const children = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)])
    } catch {
      // gone meanwhile
    }
  }
  const walk = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8')
      total += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
    } catch {
      // gone meanwhile
    }
    for (const child of children.get(p) ?? []) walk(child)
  }
  walk(pid)
  return total
}

const server = await startServer()
try {
  const cookie = await ownerCookie(server.url)
  const projects = (await (await fetch(`${server.url}/platform/projects`, { headers: { cookie } })).json()) as Array<{ ref: string; status: string }>
  const ref = projects.find((p) => p.status === 'ACTIVE_HEALTHY')!.ref
  const api = `${server.url}/platform/projects/${ref}/table-editor/tables`
  const table = `bench rows ${Date.now().toString(36)}`
  const made = await fetch(api, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({
      run: true,
      definition: {
        name: table,
        columns: [
          { name: 'id', type: 'bigint', primary_key: true },
          { name: 'title', type: 'text' },
          { name: 'amount', type: 'numeric(10,2)' },
          { name: 'at', type: 'timestamp with time zone' },
        ],
      },
    }),
  })
  if (made.status !== 201) throw new Error(`create table answered ${made.status}: ${await made.text()}`)

  const lines = ['id,title,amount,at']
  for (let i = 1; i <= ROWS; i++) lines.push(`${i},"row ${i}, imported",${(i % 1000) / 10},2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`)
  const csv = lines.join('\n')
  const pid = server.process.pid!
  const before = treeRssKb(pid)
  let peak = before
  const sampler = setInterval(() => {
    peak = Math.max(peak, treeRssKb(pid))
  }, 100)
  const started = performance.now()
  const res = await fetch(`${api}/${encodeURIComponent(table)}/import`, { method: 'POST', headers: { cookie, 'content-type': 'text/csv' }, body: csv })
  const body = await res.text()
  const seconds = (performance.now() - started) / 1000
  clearInterval(sampler)
  if (res.status !== 201) throw new Error(`import answered ${res.status}: ${body}`)
  console.log(`CSV import of ${ROWS.toLocaleString('en-US')} rows (${(csv.length / 1024 / 1024).toFixed(1)} MB): ${seconds.toFixed(2)} s, ` +
    `server+workers RSS ${Math.round(before / 1024)} MB before, peak ${Math.round(peak / 1024)} MB (+${Math.round((peak - before) / 1024)} MB)`)

  const browser = await launchChromium()
  try {
    const context = await browser.newContext({ baseURL: server.url })
    await context.request.post('/platform/auth/sign-in', { data: { email: 'owner@example.com', password: 'demo1234' } })
    const page = await context.newPage()
    await page.goto(`/project/${ref}/editor/table/${encodeURIComponent(table)}?size=1000`)
    await page.getByRole('grid', { name: `Rows of ${table}` }).getByText('row 1, imported', { exact: true }).waitFor({ timeout: 60_000 })
    const frames = await scrollFrameTimes(page, '[data-testid="grid-scroller"]', 'fling')
    console.log(`grid scroll over a 1,000-row page of ${ROWS.toLocaleString('en-US')} rows: ${frameFigures(frames)}`)
  } finally {
    await browser.close()
  }
} finally {
  await server.stop()
  removeDir(server.dataDir)
}
