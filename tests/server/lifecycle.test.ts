import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { Project } from '../../src/contracts/projects'
import { createEngine, scheduleTransition } from '../../src/server/engine/lifecycle'
import {
  OWNER,
  createSeededStore,
  json,
  projectByName,
  startTestServer,
  type TestServer,
} from './helpers'

const COMING_UP_MS = 15_000

async function status(s: TestServer, ref: string, cookie: string): Promise<string> {
  const res = await s.request(`/platform/projects/${ref}/status`, { headers: { cookie } })
  expect(res.status).toBe(200)
  return ((await res.json()) as { status: string }).status
}

async function devCreate(s: TestServer, body: object) {
  const res = await s.request('/dev/projects', json(body))
  expect(res.status).toBe(201)
  return Project.parse(await res.json())
}

describe('COMING_UP → ACTIVE_HEALTHY', () => {
  let s: TestServer
  let cookie: string
  beforeAll(async () => {
    s = await startTestServer({ config: { lifecycle: { comingUpMs: COMING_UP_MS, tickMs: 10 } } })
    cookie = await s.signIn(OWNER)
  })
  afterAll(() => s?.close())

  it('happens at its due time and not before', async () => {
    const p = await devCreate(s, { organization_slug: 'demo-free', name: 'Fresh', status: 'COMING_UP' })
    s.clock.advance(COMING_UP_MS - 1)
    await s.engine.runDue()
    expect(await status(s, p.ref, cookie)).toBe('COMING_UP')
    s.clock.advance(1)
    await s.engine.runDue()
    expect(await status(s, p.ref, cookie)).toBe('ACTIVE_HEALTHY')
  })

  it('the seeded COMING_UP project has its transition too', async () => {
    const { ref } = await projectByName(s, 'Habit Tracker')
    // The clock has moved past the seed time + COMING_UP_MS in the test above.
    await s.engine.runDue()
    expect(await status(s, ref, cookie)).toBe('ACTIVE_HEALTHY')
  })

  it('setting the status by dev control cancels the pending transition', async () => {
    const p = await devCreate(s, { organization_slug: 'demo-pro', status: 'COMING_UP' })
    const set = await s.request(`/dev/projects/${p.ref}/status`, json({ status: 'INACTIVE' }))
    expect(set.status).toBe(200)
    s.clock.advance(COMING_UP_MS)
    expect(await s.engine.runDue()).toBe(0)
    expect(await status(s, p.ref, cookie)).toBe('INACTIVE')
    const { rows } = await s.db.query<{ outcome: string }>(
      'select t.outcome from lifecycle_transitions t join projects p on p.id = t.project_id where p.ref = $1',
      [p.ref],
    )
    expect(rows.map((r) => r.outcome)).toEqual(['cancelled'])
  })

  it('setting COMING_UP again schedules a new transition from now', async () => {
    const p = await devCreate(s, { organization_slug: 'demo-pro', status: 'ACTIVE_HEALTHY' })
    await s.request(`/dev/projects/${p.ref}/status`, json({ status: 'COMING_UP' }))
    s.clock.advance(COMING_UP_MS / 2)
    await s.engine.runDue()
    expect(await status(s, p.ref, cookie)).toBe('COMING_UP')
    s.clock.advance(COMING_UP_MS / 2)
    await s.engine.runDue()
    expect(await status(s, p.ref, cookie)).toBe('ACTIVE_HEALTHY')
  })

  // Coming up opens the project's database, seconds of work under load: the wait is for that, not a speed claim.
  it('the running engine applies due transitions on its own', { timeout: 90_000 }, async () => {
    const p = await devCreate(s, { organization_slug: 'demo-free', status: 'COMING_UP' })
    s.engine.start()
    try {
      s.clock.advance(COMING_UP_MS)
      await vi.waitFor(async () => expect(await status(s, p.ref, cookie)).toBe('ACTIVE_HEALTHY'), {
        timeout: 60_000,
        interval: 20,
      })
    } finally {
      await s.engine.stop()
    }
  })

  it('two engines on one database apply each transition once', async () => {
    const ids: number[] = []
    const now = s.clock.now()
    for (let i = 0; i < 6; i++) {
      const p = await devCreate(s, { organization_slug: 'demo-pro', status: 'ACTIVE_HEALTHY' })
      const { id } = await projectByName(s, p.name)
      ids.push(id)
      await s.db.query(`update projects set status = 'COMING_UP' where id = $1`, [id])
      await s.db.transaction((tx) =>
        scheduleTransition(tx, id, 'project.status', { from: 'COMING_UP', to: 'ACTIVE_HEALTHY' }, now, now),
      )
    }
    const other = createEngine({ db: s.db, clock: s.clock, tickMs: 10, lifecycle: s.lifecycle })
    const [a, b] = await Promise.all([s.engine.runDue(), other.runDue()])
    expect(a + b).toBe(6)
    const { rows } = await s.db.query<{ outcome: string }>(
      'select outcome from lifecycle_transitions where project_id = any($1::int[])',
      [ids],
    )
    expect(rows.map((r) => r.outcome)).toEqual(Array(6).fill('applied'))
  })
})

describe('restart durability', () => {
  it('a project coming up when the server stops still becomes healthy after a restart; nothing else changes', async () => {
    const config = { lifecycle: { comingUpMs: COMING_UP_MS, tickMs: 10 } }
    const { store, clock } = await createSeededStore(config)
    try {
      const first = await startTestServer({ store, clock, config })
      const p = await devCreate(first, { organization_slug: 'demo-pro', name: 'Survivor', status: 'COMING_UP' })
      clock.advance(COMING_UP_MS / 2)
      await first.engine.runDue()
      const snapshot = async (srv: TestServer) =>
        (
          await srv.db.query<{ ref: string; name: string; status: string; postgrest_status: string }>(
            'select ref, name, status, postgrest_status from projects order by id',
          )
        ).rows
      const before = await snapshot(first)
      expect(before.find((r) => r.ref === p.ref)?.status).toBe('COMING_UP')
      await first.close({ destroy: false })

      clock.advance(COMING_UP_MS / 2)
      const second = await startTestServer({ store, clock, config })
      const { rows: accounts } = await second.db.query<{ n: number }>('select count(*)::int as n from accounts')
      expect(accounts[0].n).toBe(3) // not seeded again
      await second.engine.runDue()
      const after = await snapshot(second)
      const expected = before.map((r) =>
        r.status === 'COMING_UP' ? { ...r, status: 'ACTIVE_HEALTHY' } : r,
      )
      expect(after).toEqual(expected)
      expect(after.find((r) => r.ref === p.ref)?.status).toBe('ACTIVE_HEALTHY')
      await second.close({ destroy: false })
    } finally {
      await store.destroy()
    }
  })
})
