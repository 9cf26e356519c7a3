/**
 * The free project limit under concurrent restores. Four paused free projects of one member,
 * limit 2 with one active: four restores sent at once over a real port may start exactly one (limit − active), the
 * others answer 409 free_project_limit. Several rounds, because on PostgreSQL an unserialized check lets them all
 * through most of the time, not every time. The same file runs on PGlite and on PostgreSQL 15.
 */
import { serve, type ServerType } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Project } from '../../src/contracts/projects'
import { OWNER, json, startTestServer, type TestServer } from './helpers'

const LIMIT = 2
const PARALLEL = 4
const ROUNDS = 8

let s: TestServer
let http: ServerType
let base: string
let cookie: string
let ownerId: number
let freeOrgId: number

beforeAll(async () => {
  // Long durations: nothing moves on its own while a round is checked.
  s = await startTestServer({ config: { freeProjectLimit: LIMIT, lifecycle: { restoringMs: 600_000 } } })
  cookie = await s.signIn(OWNER)
  ownerId = (await s.db.query<{ id: number }>('select id from accounts where primary_email = $1', [OWNER])).rows[0].id
  freeOrgId = (await s.db.query<{ id: number }>(`select id from organizations where slug = 'demo-free'`)).rows[0].id
  http = await new Promise<ServerType>((resolve) => {
    const server = serve({ fetch: s.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server))
  })
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => (http ? http.close(resolve) : resolve(undefined)))
  await s?.close()
})

/** The Owner's free projects: every one paused, then one active and PARALLEL new paused ones it owns. */
async function setUpRound(round: number): Promise<string[]> {
  await s.db.query(
    `update projects set status = 'INACTIVE' where created_by = $1
     and organization_id in (select id from organizations where plan_id = 'free')`,
    [ownerId],
  )
  const { rows } = await s.db.query<{ id: number }>(
    `select id from projects where created_by = $1 and organization_id = $2 order by id limit 1`,
    [ownerId, freeOrgId],
  )
  await s.db.query(`update projects set status = 'ACTIVE_HEALTHY' where id = $1`, [rows[0].id])
  const refs: string[] = []
  for (let i = 0; i < PARALLEL; i++) {
    const res = await s.request('/dev/projects', json({ organization_slug: 'demo-free', name: `Race ${round}-${i}`, status: 'INACTIVE' }))
    expect(res.status).toBe(201)
    const { ref } = Project.parse(await res.json())
    await s.db.query('update projects set created_by = $1 where ref = $2', [ownerId, ref])
    refs.push(ref)
  }
  return refs
}

async function activeFreeProjects() {
  const { rows } = await s.db.query<{ n: number }>(
    `select count(*)::int as n from projects p join organizations o on o.id = p.organization_id
     where p.created_by = $1 and o.plan_id = 'free' and p.status <> 'INACTIVE'`,
    [ownerId],
  )
  return rows[0].n
}

describe('concurrent restores and the free project limit', () => {
  it(`of ${PARALLEL} parallel restores exactly limit − active start, the others answer 409 free_project_limit (${ROUNDS} rounds)`, async () => {
    const outcomes: string[] = []
    for (let round = 0; round < ROUNDS; round++) {
      const refs = await setUpRound(round)
      expect(await activeFreeProjects()).toBe(1)
      const answers = await Promise.all(
        refs.map(async (ref) => {
          const res = await fetch(`${base}/v1/projects/${ref}/restore`, { method: 'POST', headers: { cookie } })
          const body = res.status === 200 ? null : ((await res.json()) as { code?: string; message: string })
          return { status: res.status, code: body?.code }
        }),
      )
      outcomes.push(answers.map((a) => a.status).join(','))
      expect(answers.filter((a) => a.status === 200)).toHaveLength(LIMIT - 1)
      expect(answers.filter((a) => a.status === 409 && a.code === 'free_project_limit')).toHaveLength(PARALLEL - (LIMIT - 1))
      // The store agrees: the member is at the limit, not past it.
      expect(await activeFreeProjects()).toBe(LIMIT)
    }
    expect(outcomes).toHaveLength(ROUNDS)
  })

  it('a project of a member at the limit in another free organization counts too (the lock is per member)', async () => {
    // A second free organization with the Owner as a member: restores in both organizations at once.
    const { rows: org } = await s.db.query<{ id: number }>(
      `insert into organizations (slug, name, plan_id) values ('second-free', 'Second Free', 'free') returning id`,
    )
    await s.db.query(
      `insert into members (organization_id, account_id, role)
       select $1, account_id, role from members where organization_id = $2 and account_id = $3`,
      [org[0].id, freeOrgId, ownerId],
    )
    for (let round = 0; round < ROUNDS; round++) {
      const [a, b] = await setUpRound(100 + round)
      const res = await s.request('/dev/projects', json({ organization_slug: 'second-free', name: `Other ${round}`, status: 'INACTIVE' }))
      const { ref: other } = Project.parse(await res.json())
      await s.db.query('update projects set created_by = $1 where ref = $2', [ownerId, other])
      const statuses = await Promise.all(
        [a, other, b].map(async (ref) => (await fetch(`${base}/v1/projects/${ref}/restore`, { method: 'POST', headers: { cookie } })).status),
      )
      expect(statuses.filter((n) => n === 200)).toHaveLength(LIMIT - 1)
      expect(await activeFreeProjects()).toBe(LIMIT)
    }
  })
})
