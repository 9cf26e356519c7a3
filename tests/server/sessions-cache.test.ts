/**
 * Sessions and members' projects are read from memory (src/server/core/cache.ts). Every test here first warms the
 * cache with a read, then changes the row behind it, and checks the very next read shows the change: a cache must
 * never answer with a permission or a status the store no longer has. Also the session items:
 * the idle timeout, the sweep of ended sessions, `Secure` behind a TLS proxy only when TRUST_PROXY says so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/server/app'
import { PlatformCache } from '../../src/server/core/cache'
import type { MemberProjectRow } from '../../src/server/features/projects/store'
import { sha256 } from '../../src/server/core/secrets'
import { SESSION_TOUCH_MS, sweepSessions } from '../../src/server/features/session/auth'
import {
  OWNER,
  DEVELOPER,
  READONLY,
  FakeClock,
  cookieFrom,
  createTestStore,
  isPostgres,
  json,
  startTestServer,
  testConfig,
  type TestServer,
} from './helpers'

const HOUR = 60 * 60 * 1000

let s: TestServer
beforeAll(async () => {
  s = await startTestServer({ config: { sessionIdleTimeoutMs: 24 * HOUR } })
})
afterAll(() => s?.close())

async function activeProject() {
  const { rows } = await s.db.query<{ id: number; ref: string }>(
    `select id, ref from projects where status = 'ACTIVE_HEALTHY' order by id limit 1`,
  )
  return rows[0]
}

const statusOf = async (ref: string, cookie: string) => {
  const res = await s.request(`/platform/projects/${ref}/status`, { headers: { cookie } })
  return { code: res.status, body: (await res.json()) as { status?: string } }
}

describe('a cached session', () => {
  it('sign-out: the old cookie answers 401 on the next request', async () => {
    const cookie = await s.signIn(OWNER)
    expect((await s.request('/platform/profile', { headers: { cookie } })).status).toBe(200)
    expect((await s.request('/platform/profile', { headers: { cookie } })).status).toBe(200)
    const out = await s.request('/platform/auth/sign-out', { method: 'POST', headers: { cookie } })
    expect(out.status).toBe(204)
    expect((await s.request('/platform/profile', { headers: { cookie } })).status).toBe(401)
  })

  it('a session deleted in the store (another process signing it out) is refused on the next request', async () => {
    const cookie = await s.signIn(OWNER)
    expect((await s.request('/platform/profile', { headers: { cookie } })).status).toBe(200)
    await s.db.query('delete from sessions where account_id = (select id from accounts where primary_email = $1)', [OWNER])
    expect((await s.request('/platform/profile', { headers: { cookie } })).status).toBe(401)
  })

  it('expiry: past expires_at the session is refused', async () => {
    const cookie = await s.signIn(OWNER)
    expect((await s.request('/platform/profile', { headers: { cookie } })).status).toBe(200)
    await s.db.query(`update sessions set expires_at = $1 where account_id = (select id from accounts where primary_email = $2)`, [
      s.clock.now().toISOString(),
      OWNER,
    ])
    expect((await s.request('/platform/profile', { headers: { cookie } })).status).toBe(401)
  })
})

describe('idle timeout', () => {
  it('a session unused for the idle timeout ends, and its row is deleted', async () => {
    const cookie = await s.signIn(DEVELOPER)
    expect((await s.request('/platform/profile', { headers: { cookie } })).status).toBe(200)
    s.clock.advance(24 * HOUR)
    expect((await s.request('/platform/profile', { headers: { cookie } })).status).toBe(401)
    const { rows } = await s.db.query('select 1 from sessions where token_hash = $1', [sha256(cookie.split('=')[1])])
    expect(rows).toHaveLength(0)
  })

  it('a session in use stays: its last use is recorded (at most once a minute), so the timeout counts from it', async () => {
    const cookie = await s.signIn(DEVELOPER)
    for (let i = 0; i < 3; i++) {
      s.clock.advance(20 * HOUR)
      expect((await s.request('/platform/profile', { headers: { cookie } })).status).toBe(200)
    }
  })

  it('requests within a minute of the recorded last use do not write it again', async () => {
    const cookie = await s.signIn(DEVELOPER)
    const lastUse = async () =>
      (
        await s.db.query<{ last_used_at: Date | string }>(
          `select last_used_at from sessions order by id desc limit 1`,
        )
      ).rows[0].last_used_at
    const before = new Date(await lastUse()).getTime()
    s.clock.advance(SESSION_TOUCH_MS - 1)
    expect((await s.request('/platform/profile', { headers: { cookie } })).status).toBe(200)
    expect(new Date(await lastUse()).getTime()).toBe(before)
    s.clock.advance(1)
    expect((await s.request('/platform/profile', { headers: { cookie } })).status).toBe(200)
    expect(new Date(await lastUse()).getTime()).toBe(before + SESSION_TOUCH_MS)
  })

  it('the sweep deletes expired and idle sessions and keeps live ones', async () => {
    await s.db.query('delete from sessions')
    const live = await s.signIn(OWNER)
    s.clock.advance(25 * HOUR)
    await s.signIn(DEVELOPER) // live: just signed in
    // OWNER's session is idle now; one more, expired outright:
    await s.db.query(
      `insert into sessions (account_id, token_hash, created_at, expires_at, last_used_at)
       select id, 'expired-one', $1, $1, $1 from accounts where primary_email = $2`,
      [s.clock.now().toISOString(), OWNER],
    )
    expect(await sweepSessions(s.db, s.clock.now(), 24 * HOUR)).toBe(2)
    const { rows } = await s.db.query<{ primary_email: string }>(
      'select a.primary_email from sessions join accounts a on a.id = account_id',
    )
    expect(rows.map((r) => r.primary_email)).toEqual([DEVELOPER])
    expect((await s.request('/platform/profile', { headers: { cookie: live } })).status).toBe(401)
  })
})

describe('a cached member project', () => {
  it('a status set through the lifecycle is shown by the next status read', async () => {
    const cookie = await s.signIn(OWNER)
    const p = await activeProject()
    expect((await statusOf(p.ref, cookie)).body.status).toBe('ACTIVE_HEALTHY')
    await s.db.transaction((tx) => s.lifecycle.move(tx, p.id, { from: 'any', to: 'INACTIVE', run: 'entry' }, s.clock.now()))
    expect((await statusOf(p.ref, cookie)).body.status).toBe('INACTIVE')
    await s.db.transaction((tx) => s.lifecycle.move(tx, p.id, { from: 'any', to: 'ACTIVE_HEALTHY', run: 'entry' }, s.clock.now()))
    expect((await statusOf(p.ref, cookie)).body.status).toBe('ACTIVE_HEALTHY')
  })

  it('a transition applied by the engine is shown by the next status read', async () => {
    const cookie = await s.signIn(OWNER)
    const p = await activeProject()
    expect((await statusOf(p.ref, cookie)).body.status).toBe('ACTIVE_HEALTHY')
    const pause = await s.request(`/v1/projects/${p.ref}/pause`, json({}, { cookie }))
    expect(pause.status).toBeLessThan(300)
    expect((await statusOf(p.ref, cookie)).body.status).toBe('GOING_DOWN')
    s.clock.advance(s.config.lifecycle.goingDownMs)
    await s.engine.runDue()
    expect((await statusOf(p.ref, cookie)).body.status).toBe('PAUSING')
    s.clock.advance(s.config.lifecycle.pausingMs)
    await s.engine.runDue()
    expect((await statusOf(p.ref, cookie)).body.status).toBe('INACTIVE')
    await s.db.transaction((tx) => s.lifecycle.move(tx, p.id, { from: 'any', to: 'ACTIVE_HEALTHY', run: 'entry' }, s.clock.now()))
  })

  it('a rename is shown by the next read of the project', async () => {
    const cookie = await s.signIn(OWNER)
    const p = await activeProject()
    expect((await s.request(`/platform/projects/${p.ref}`, { headers: { cookie } })).status).toBe(200)
    const renamed = await s.request(`/platform/projects/${p.ref}`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Renamed while cached' }),
    })
    expect(renamed.status).toBe(200)
    const read = await s.request(`/platform/projects/${p.ref}`, { headers: { cookie } })
    expect(((await read.json()) as { name: string }).name).toBe('Renamed while cached')
  })

  it('a membership removed: 404 on the next request; a role changed: the next request has the new role', async () => {
    const cookie = await s.signIn(READONLY)
    const p = await activeProject()
    const { rows } = await s.db.query<{ organization_id: number; account_id: number; role: string }>(
      `select m.organization_id, m.account_id, m.role from members m join projects p on p.organization_id = m.organization_id
       join accounts a on a.id = m.account_id where p.id = $1 and a.primary_email = $2`,
      [p.id, READONLY],
    )
    const member = rows[0]
    expect(member.role).toBe('Read-only')
    // Read-only may not rename (403); as Owner the same request passes.
    const rename = () =>
      s.request(`/platform/projects/${p.ref}`, {
        method: 'PATCH',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Renamed by the reader' }),
      })
    expect((await statusOf(p.ref, cookie)).code).toBe(200)
    expect((await rename()).status).toBe(403)
    await s.db.query(`update members set role = 'Owner' where organization_id = $1 and account_id = $2`, [
      member.organization_id,
      member.account_id,
    ])
    expect((await rename()).status).toBe(200)
    await s.db.query(`update members set role = 'Read-only' where organization_id = $1 and account_id = $2`, [
      member.organization_id,
      member.account_id,
    ])
    expect((await rename()).status).toBe(403)
    await s.db.query('delete from members where organization_id = $1 and account_id = $2', [
      member.organization_id,
      member.account_id,
    ])
    expect((await statusOf(p.ref, cookie)).code).toBe(404)
    await s.db.query('insert into members (organization_id, account_id, role) values ($1, $2, $3)', [
      member.organization_id,
      member.account_id,
      member.role,
    ])
    expect((await statusOf(p.ref, cookie)).code).toBe(200)
  })
})

describe('the session cookie behind a TLS proxy', () => {
  const signInVia = (server: TestServer, headers: Record<string, string>) =>
    server.request('/platform/auth/sign-in', json({ email: OWNER, password: 'demo1234' }, headers))

  it('X-Forwarded-Proto: https is ignored without TRUST_PROXY (anyone can send it)', async () => {
    const res = await signInVia(s, { 'x-forwarded-proto': 'https' })
    expect(res.status).toBe(200)
    expect(res.headers.get('set-cookie')).not.toMatch(/;\s*Secure/i)
  })

  it('with TRUST_PROXY=1 the cookie is Secure when the proxy says https, and not when it says http', async () => {
    const proxied = await startTestServer({ config: { trustProxy: true } })
    try {
      const https = await signInVia(proxied, { 'x-forwarded-proto': 'https' })
      expect(https.headers.get('set-cookie')).toMatch(/;\s*Secure/i)
      const http = await signInVia(proxied, { 'x-forwarded-proto': 'http' })
      expect(http.headers.get('set-cookie')).not.toMatch(/;\s*Secure/i)
    } finally {
      await proxied.close()
    }
  })
})

describe('the cache itself', () => {
  it('a fill that read before an invalidation is not kept', async () => {
    const cache = new PlatformCache()
    cache.setListening(true)
    const row = { id: 1, organization_id: 1, ref: 'abcdefghijklmnopqrst', status: 'ACTIVE_HEALTHY' } as MemberProjectRow
    let release: (r: MemberProjectRow) => void = () => {}
    const slow = cache.loadMemberProject(7, row.ref, () => new Promise((r) => (release = r)))
    cache.apply('p:1') // the change commits while the old row is on its way
    release(row)
    expect(await slow).toBe(row)
    let loads = 0
    const fresh = { ...row, status: 'INACTIVE' } as MemberProjectRow
    expect(await cache.loadMemberProject(7, row.ref, async () => (loads++, fresh))).toEqual(fresh)
    expect(loads).toBe(1)
  })
})

// On PostgreSQL two store handles, as two processes would have (each its own cache, told by the notifications); on
// PGlite, one process by nature, two apps on one handle (one cache, told by the same notifications).
describe('two app instances on one database', () => {
  it('a change made through one is seen by the other after the notification', async () => {
    const store = await createTestStore()
    const dbA = await store.open()
    const dbB = isPostgres ? await store.open() : dbA
    const clock = new FakeClock()
    const a = await createApp({ db: dbA, config: testConfig(), clock })
    const b = await createApp({ db: dbB, config: testConfig(), clock, seed: false })
    try {
      const signIn = await a.app.request('/platform/auth/sign-in', json({ email: OWNER, password: 'demo1234' }))
      const cookie = cookieFrom(signIn)
      const { rows } = await dbA.query<{ id: number; ref: string }>(
        `select id, ref from projects where status = 'ACTIVE_HEALTHY' order by id limit 1`,
      )
      const p = rows[0]
      const statusOnB = async () => {
        const res = await b.app.request(`/platform/projects/${p.ref}/status`, { headers: { cookie } })
        return res.status === 200 ? ((await res.json()) as { status: string }).status : res.status
      }
      // Warm B's cache (twice: the first read may come before B listens).
      expect(await statusOnB()).toBe('ACTIVE_HEALTHY')
      expect(await statusOnB()).toBe('ACTIVE_HEALTHY')

      // B's cache hears each notification before this listener does (it subscribed first).
      const heard = (payload: string) =>
        new Promise<void>((resolve) => {
          const stop = dbB.listen({
            payload: (p) => {
              if (p === payload) {
                void stop.then((f) => f())
                resolve()
              }
            },
          })
        })

      const statusChanged = heard(`p:${p.id}`)
      await dbA.transaction((tx) => a.lifecycle.move(tx, p.id, { from: 'any', to: 'INACTIVE', run: 'entry' }, clock.now()))
      await statusChanged
      expect(await statusOnB()).toBe('INACTIVE')

      const signedOut = heard(`s:${sha256(cookie.split('=')[1])}`)
      const out = await a.app.request('/platform/auth/sign-out', { method: 'POST', headers: { cookie } })
      expect(out.status).toBe(204)
      await signedOut
      expect(await statusOnB()).toBe(401)
    } finally {
      await a.close()
      await b.close()
      await store.destroy()
    }
  })
})

describe('sessions are looked up by hash', () => {
  it('a sign-in writes last_used_at with the session', async () => {
    const res = await s.request('/platform/auth/sign-in', json({ email: OWNER, password: 'demo1234' }))
    expect(res.status).toBe(200)
    const { rows } = await s.db.query<{ created_at: Date | string; last_used_at: Date | string }>(
      'select created_at, last_used_at from sessions order by id desc limit 1',
    )
    expect(new Date(rows[0].last_used_at).getTime()).toBe(new Date(rows[0].created_at).getTime())
  })
})
