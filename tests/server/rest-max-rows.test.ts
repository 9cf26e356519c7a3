/**
 * REST_MAX_ROWS (PostgREST's db-max-rows) on a table of 1,000,000 rows: an anon read answers at most the cap, as a
 * LIMIT in the SQL whatever limit or Range asks; Content-Range tells the capped range and, with Prefer: count=exact,
 * the total (206 then); smaller pages and later offsets work as before; set-returning functions are capped too. The
 * server's RSS is sampled during four concurrent reads of the whole table (the figure against a real server process:
 * bench/rest-max-rows.bench.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { projectByName, startTestServer, type TestServer } from './helpers'

const ROWS = 1_000_000
const CAP = 1_000

let s: TestServer
let ref: string
let anon: string

const get = (path: string, headers: Record<string, string> = {}) =>
  s.request(`/p/${ref}/rest/v1/${path}`, { headers: { apikey: anon, ...headers } })

beforeAll(async () => {
  s = await startTestServer()
  expect(s.config.restMaxRows).toBe(CAP) // the default
  const project = await projectByName(s, 'Recipe Box')
  ref = project.ref
  anon = (await findProjectKeys(s.db, project.id))!.anon_key
  await s.projectDbs.transaction(ref, { timeoutMs: 600_000 }, (tx) =>
    tx.exec(`
      create table big (id int primary key, label text not null);
      insert into big select g, 'row number ' || g from generate_series(1, ${ROWS}) g;
      create function big_from(first int) returns setof big language sql stable as 'select * from big where id >= first order by id';
    `),
  )
}, 600_000)

afterAll(async () => {
  await s?.close()
})

describe('REST_MAX_ROWS', () => {
  it('an anon read of a 1M-row table answers the first max rows, Content-Range telling the range', async () => {
    const res = await get('big?select=id')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-range')).toBe(`0-${CAP - 1}/*`)
    const rows = (await res.json()) as { id: number }[]
    expect(rows).toHaveLength(CAP)
  }, 120_000)

  it('with Prefer: count=exact the total is still told, and the capped page is a 206', async () => {
    const res = await get('big?select=id&order=id', { prefer: 'count=exact' })
    expect(res.status).toBe(206)
    expect(res.headers.get('content-range')).toBe(`0-${CAP - 1}/${ROWS}`)
    const rows = (await res.json()) as { id: number }[]
    expect(rows.map((r) => r.id)).toEqual(Array.from({ length: CAP }, (_, i) => i + 1))
  }, 120_000)

  it('a larger limit or Range is capped; a smaller page and a later offset are answered as asked', async () => {
    const limited = await get('big?select=id&order=id&limit=5000')
    expect(limited.headers.get('content-range')).toBe(`0-${CAP - 1}/*`)
    expect(await limited.json()).toHaveLength(CAP)

    const ranged = await get('big?select=id&order=id', { range: '10-4999' })
    expect(ranged.headers.get('content-range')).toBe(`10-${10 + CAP - 1}/*`)
    expect(((await ranged.json()) as { id: number }[])[0]).toEqual({ id: 11 })

    const small = await get('big?select=id&order=id&limit=3&offset=999995')
    expect(small.headers.get('content-range')).toBe('999995-999997/*')
    expect(await small.json()).toEqual([{ id: 999996 }, { id: 999997 }, { id: 999998 }])

    const last = await get('big?select=id&order=id.desc&limit=2')
    expect(await last.json()).toEqual([{ id: ROWS }, { id: ROWS - 1 }])
  }, 120_000)

  it('a set-returning function is capped the same way', async () => {
    const res = await get('rpc/big_from?first=1&select=id', { prefer: 'count=exact' })
    expect(res.status).toBe(206)
    expect(res.headers.get('content-range')).toBe(`0-${CAP - 1}/${ROWS}`)
    expect(await res.json()).toHaveLength(CAP)
  }, 120_000)

  it("four concurrent reads of the whole table keep the server's memory within 300 MB of where it was", async () => {
    const rss = () => process.memoryUsage.rss()
    const before = rss()
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, rss())), 20)
    try {
      const answers = await Promise.all(Array.from({ length: 4 }, () => get('big')))
      for (const res of answers) {
        expect(res.status).toBe(200)
        expect(await res.json()).toHaveLength(CAP)
      }
    } finally {
      clearInterval(sampler)
    }
    peak = Math.max(peak, rss())
    expect((peak - before) / 2 ** 20).toBeLessThan(300)
  }, 300_000)
})
