/**
 * The limits against a real server over HTTP (TRUST_PROXY=1, so each request names its client address in
 * X-Forwarded-For): 10 project creations in a row and 10 at once in a free organization (FREE_PROJECT_LIMIT 2),
 * 120 support tickets at once (50 a day), 25 sign-ups in a row from one address (5 per window), and whether the demo
 * Owner still signs in after a stranger's 5 wrong guesses. Prints what was accepted and refused.
 * `npx tsx bench/limits.bench.ts` (PGlite in a fresh folder; with DATABASE_URL set, on that PostgreSQL)
 */
import { isHealthy, loadLine, removeDir, startServer } from './support'

const server = await startServer({ TRUST_PROXY: '1', ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}) })
// A first start on a loaded machine may take longer than startServer waits (initdb of the store and the template).
for (const deadline = Date.now() + 180_000; !(await isHealthy(server.url)); ) {
  if (Date.now() > deadline) throw new Error('the server did not come up')
  await new Promise((r) => setTimeout(r, 250))
}
const post = (path: string, body: unknown, address: string, cookie?: string) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  })

const tally = (statuses: number[]) => {
  const counts = new Map<number, number>()
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1)
  return [...counts].sort(([a], [b]) => a - b).map(([s, n]) => `${n}×${s}`).join(', ')
}

let people = 0
async function newPerson() {
  const n = ++people
  const res = await post('/platform/auth/sign-up', { email: `bench-${n}-${Date.now()}@example.com`, password: 'long enough' }, `198.18.0.${n}`)
  if (res.status !== 201) throw new Error(`sign-up answered ${res.status}`)
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]
  const orgs = (await (await fetch(`${server.url}/platform/organizations`, { headers: { cookie } })).json()) as Array<{ slug: string }>
  return { cookie, slug: orgs[0].slug, address: `198.18.0.${n}` }
}

const timed = async <T>(work: () => Promise<T>) => {
  const start = performance.now()
  const result = await work()
  return { result, ms: Math.round(performance.now() - start) }
}

try {
  const a = await newPerson()
  const seq = await timed(async () => {
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) statuses.push((await post('/v1/projects', { name: `Seq ${i}`, organization_slug: a.slug }, a.address, a.cookie)).status)
    return statuses
  })
  console.log(`10 project creations in a row, free organization: ${tally(seq.result)} (${seq.ms} ms)`)

  const b = await newPerson()
  const par = await timed(() =>
    Promise.all(Array.from({ length: 10 }, (_, i) => post('/v1/projects', { name: `Par ${i}`, organization_slug: b.slug }, b.address, b.cookie).then((r) => r.status))),
  )
  console.log(`10 project creations at once, free organization: ${tally(par.result)} (${par.ms} ms)`)

  const c = await newPerson()
  const tickets = await timed(() =>
    Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        post('/platform/support/tickets', { category: 'Problem', subject: `Ticket ${i}`, message: 'Help' }, c.address, c.cookie).then((r) => r.status),
      ),
    ),
  )
  console.log(`120 support tickets at once: ${tally(tickets.result)} (${tickets.ms} ms)`)

  const signUps = await timed(async () => {
    const statuses: number[] = []
    for (let i = 0; i < 25; i++) {
      statuses.push((await post('/platform/auth/sign-up', { email: `burst-${i}-${Date.now()}@example.com`, password: 'long enough' }, '198.18.1.1')).status)
    }
    return statuses
  })
  console.log(`25 sign-ups in a row from one address: ${tally(signUps.result)} (${signUps.ms} ms)`)

  const guesses: number[] = []
  for (let i = 0; i < 6; i++) guesses.push((await post('/platform/auth/sign-in', { email: 'owner@example.com', password: 'wrong' }, '198.18.2.1')).status)
  const owner = (await post('/platform/auth/sign-in', { email: 'owner@example.com', password: 'demo1234' }, '198.18.3.1')).status
  console.log(`a stranger's 6 wrong guesses for the Owner: ${tally(guesses)}; the Owner from their own address then: ${owner}`)
  console.log(loadLine())
} finally {
  await server.stop()
  if (!process.env.DATABASE_URL) removeDir(server.dataDir)
}
