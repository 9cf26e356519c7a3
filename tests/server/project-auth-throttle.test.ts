/**
 * The auth service's rate limits are counted in the platform's store: a restart in the middle of a window does not
 * give a fresh allowance (per e-mail and per address), and two processes on one store count together.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AuthThrottle } from '../../src/server/features/auth/throttle'
import { createSeededStore, FakeClock, isPostgres, type TestStore } from './helpers'
import { startAuthServer, type AuthTestServer } from './project-auth-support'

let store: TestStore
let clock: FakeClock
let env: AuthTestServer | undefined

beforeAll(async () => {
  ;({ store, clock } = await createSeededStore())
  env = await startAuthServer('Recipe Box', {}, { store, clock })
  await env.settings({ mailer_autoconfirm: true })
}, 120_000)

afterAll(async () => {
  await env?.close({ destroy: false })
  await store?.destroy()
})

/** Stops the server and starts another on the same store and clock, as a restart of the process would. */
async function restart() {
  await env!.close({ destroy: false })
  env = undefined
  env = await startAuthServer('Recipe Box', {}, { store, clock })
}

const signIn = (email: string, password: string) =>
  fetch(`${env!.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: env!.keys.anon, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  })

async function expectRefusal(res: Response, status: number, errorCode: string) {
  expect(res.status).toBe(status)
  expect(await res.json()).toMatchObject({ code: status, error_code: errorCode })
}

describe('the sign-in throttle across a restart', () => {
  it('failed sign-ins for one e-mail counted before a restart still count after it, until the window ends', async () => {
    expect((await env!.client().auth.signUp({ email: 'guessed@example.com', password: 'the-right-one' })).error).toBeNull()
    for (let i = 0; i < 6; i++) await expectRefusal(await signIn('guessed@example.com', `wrong-${i}`), 400, 'invalid_credentials')
    await restart()
    for (let i = 6; i < 10; i++) await expectRefusal(await signIn('guessed@example.com', `wrong-${i}`), 400, 'invalid_credentials')
    const refused = await signIn('guessed@example.com', 'the-right-one')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    await expectRefusal(refused, 429, 'over_request_rate_limit')
    clock.advance(5 * 60_000)
    expect((await signIn('guessed@example.com', 'the-right-one')).status).toBe(200)
  }, 120_000)

  it("an address's allowance used up before a restart stays used up after it", async () => {
    clock.advance(5 * 60_000)
    await env!.settings({ rate_limit_verify: 4 })
    for (let i = 0; i < 3; i++) await expectRefusal(await signIn(`someone${i}@example.com`, 'not-it-at-all'), 400, 'invalid_credentials')
    await restart()
    await expectRefusal(await signIn('someone3@example.com', 'not-it-at-all'), 400, 'invalid_credentials')
    await expectRefusal(await signIn('guessed@example.com', 'the-right-one'), 429, 'over_request_rate_limit')
    // The counters are the project's: another project's service has its own allowance.
    const other = await env!.s.db.query<{ project_id: number }>(`select distinct project_id from project_auth_rate_limits`)
    expect(other.rows.map((r) => r.project_id)).toEqual([env!.project.id])
    clock.advance(5 * 60_000)
    expect((await signIn('guessed@example.com', 'the-right-one')).status).toBe(200)
    await env!.settings({ rate_limit_verify: 30 })
  }, 120_000)
})

describe('the counters of several processes on one store', () => {
  it('two processes counting on one store share one allowance, a burst included', async () => {
    // On PostgreSQL a second process has a pool of its own; a PGlite store has one process only, which shares it.
    const second = isPostgres ? await store.open() : env!.s.db
    const a = new AuthThrottle(env!.s.db, clock)
    const b = new AuthThrottle(second, clock)
    const id = env!.project.id
    const outcomes = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).take(id, 'verify:203.0.113.9', 8)))
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(8)
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult
    expect(refused.reason).toMatchObject({ status: 429, errorCode: 'over_request_rate_limit' })
    expect(await a.over(id, 'verify:203.0.113.9', 8)).toBe(true)
    await b.clear(id, 'verify:203.0.113.9')
    expect(await a.over(id, 'verify:203.0.113.9', 8)).toBe(false)
  })
})
