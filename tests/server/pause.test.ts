/**
 * Pause and restore on the local platform: every transition at its due time, every refusal, the development
 * control that fails a restore, the free project limit, and durability across a restart mid-pause and mid-restore.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ErrorBody } from '../../src/contracts/common'
import { MembersReachedFreeProjectLimit, RestoreResponse, RestoreStatusResponse } from '../../src/contracts/pause'
import { Project } from '../../src/contracts/projects'
import { RESTORE_FAILURE_MESSAGE } from '../../src/server/features/pause/transitions'
import {
  DEVELOPER,
  OWNER,
  READONLY,
  createSeededStore,
  insertForeignOrganization,
  json,
  projectByName,
  startTestServer,
  type TestServer,
} from './helpers'

const GOING_DOWN_MS = 3_000
const PAUSING_MS = 4_000
const RESTORING_MS = 8_000
const lifecycle = { goingDownMs: GOING_DOWN_MS, pausingMs: PAUSING_MS, restoringMs: RESTORING_MS, tickMs: 10 }

async function devCreate(s: TestServer, status: string, org = 'demo-pro') {
  const res = await s.request('/dev/projects', json({ organization_slug: org, status }))
  expect(res.status).toBe(201)
  return Project.parse(await res.json())
}

const post = (cookie: string, body?: string): RequestInit => ({
  method: 'POST',
  headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
  ...(body === undefined ? {} : { body }),
})

async function statusOf(s: TestServer, ref: string, cookie: string) {
  const res = await s.request(`/platform/projects/${ref}/status`, { headers: { cookie } })
  return ((await res.json()) as { status: string }).status
}

async function projectOf(s: TestServer, ref: string, cookie: string) {
  return Project.parse(await (await s.request(`/platform/projects/${ref}`, { headers: { cookie } })).json())
}

/** Moves the fake clock and lets the engine apply what is due. */
async function advance(s: TestServer, ms: number) {
  s.clock.advance(ms)
  await s.engine.runDue()
}

let s: TestServer
let owner: string
let developer: string
let readonly: string
beforeAll(async () => {
  s = await startTestServer({ config: { lifecycle } })
  owner = await s.signIn(OWNER)
  developer = await s.signIn(DEVELOPER)
  readonly = await s.signIn(READONLY)
})
afterAll(() => s?.close())

describe('pause: ACTIVE_HEALTHY → GOING_DOWN → PAUSING → INACTIVE', () => {
  it('each step happens at its due time and not before, and moves status_changed_at', async () => {
    const p = await devCreate(s, 'ACTIVE_HEALTHY')
    const started = s.clock.now().toISOString()
    const res = await s.request(`/v1/projects/${p.ref}/pause`, post(owner))
    expect(res.status).toBe(200)
    expect(await res.text()).toBe('')
    expect(await projectOf(s, p.ref, owner)).toMatchObject({ status: 'GOING_DOWN', status_changed_at: started })

    await advance(s, GOING_DOWN_MS - 1)
    expect(await statusOf(s, p.ref, owner)).toBe('GOING_DOWN')
    await advance(s, 1)
    expect(await projectOf(s, p.ref, owner)).toMatchObject({ status: 'PAUSING', status_changed_at: s.clock.now().toISOString() })
    await advance(s, PAUSING_MS - 1)
    expect(await statusOf(s, p.ref, owner)).toBe('PAUSING')
    await advance(s, 1)
    expect(await statusOf(s, p.ref, owner)).toBe('INACTIVE')
    await advance(s, 60_000)
    expect(await statusOf(s, p.ref, owner)).toBe('INACTIVE')
  })

  it('accepts a personal access token and an empty JSON body, as the Management API does', async () => {
    const p = await devCreate(s, 'ACTIVE_HEALTHY')
    const created = await s.request('/platform/profile/access-tokens', {
      method: 'POST',
      headers: { cookie: owner, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'pause test' }),
    })
    const { token } = (await created.json()) as { token: string }
    const res = await s.request(`/v1/projects/${p.ref}/pause`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(res.status).toBe(200)
    expect(await statusOf(s, p.ref, owner)).toBe('GOING_DOWN')
  })

  it('a Developer may pause (projects:write)', async () => {
    const p = await devCreate(s, 'ACTIVE_HEALTHY')
    expect((await s.request(`/v1/projects/${p.ref}/pause`, post(developer))).status).toBe(200)
  })

  it('a project set GOING_DOWN or PAUSING from outside goes on to INACTIVE too', async () => {
    const going = await devCreate(s, 'GOING_DOWN')
    const pausing = await devCreate(s, 'PAUSING')
    await advance(s, GOING_DOWN_MS + PAUSING_MS)
    expect(await statusOf(s, going.ref, owner)).toBe('INACTIVE')
    expect(await statusOf(s, pausing.ref, owner)).toBe('INACTIVE')
  })
})

describe('pause refusals', () => {
  it.each(['INACTIVE', 'GOING_DOWN', 'PAUSING', 'RESTORING', 'COMING_UP', 'UPGRADING', 'RESTORATION_FAILED'])(
    'a project %s answers 409 naming its status, and nothing changes',
    async (status) => {
      const p = await devCreate(s, status)
      const res = await s.request(`/v1/projects/${p.ref}/pause`, post(owner))
      expect(res.status).toBe(409)
      const body = ErrorBody.parse(await res.json())
      expect(body.message).toContain(status)
      expect(body.code).toBe('invalid_transition')
      expect(await statusOf(s, p.ref, owner)).toBe(status)
    },
  )

  it('Read-only answers 403 and nothing changes', async () => {
    const p = await devCreate(s, 'ACTIVE_HEALTHY')
    const res = await s.request(`/v1/projects/${p.ref}/pause`, post(readonly))
    expect(res.status).toBe(403)
    expect(ErrorBody.parse(await res.json()).message).toMatch(/permission/)
    expect(await statusOf(s, p.ref, owner)).toBe('ACTIVE_HEALTHY')
  })

  it('a project of another organization is 404, as elsewhere; no session is 401', async () => {
    const foreign = await insertForeignOrganization(s.db)
    expect((await s.request(`/v1/projects/${foreign.ref}/pause`, post(owner))).status).toBe(404)
    expect((await s.request(`/platform/projects/${foreign.ref}/restore`, post(owner))).status).toBe(404)
    expect((await s.request(`/platform/projects/${foreign.ref}/restore/status`, { headers: { cookie: owner } })).status).toBe(404)
    expect((await s.request(`/v1/projects/${foreign.ref}/pause`, { method: 'POST' })).status).toBe(401)
  })

  it('a body other than {} or nothing is 400; a bad ref is 400', async () => {
    const p = await devCreate(s, 'ACTIVE_HEALTHY')
    for (const body of ['{"now":true}', 'not json', '[]']) {
      const res = await s.request(`/v1/projects/${p.ref}/pause`, post(owner, body))
      expect(res.status, body).toBe(400)
      ErrorBody.parse(await res.json())
    }
    expect((await s.request('/v1/projects/NOT-A-REF/pause', post(owner))).status).toBe(400)
    expect(await statusOf(s, p.ref, owner)).toBe('ACTIVE_HEALTHY')
  })
})

describe('restore: INACTIVE → RESTORING → ACTIVE_HEALTHY', () => {
  it('answers the project RESTORING, then it is healthy at its due time', async () => {
    const p = await devCreate(s, 'INACTIVE')
    const res = await s.request(`/platform/projects/${p.ref}/restore`, post(owner))
    expect(res.status).toBe(200)
    const restored = RestoreResponse.parse(await res.json())
    expect(restored).toMatchObject({ ref: p.ref, status: 'RESTORING', status_changed_at: s.clock.now().toISOString() })
    await advance(s, RESTORING_MS - 1)
    expect(await statusOf(s, p.ref, owner)).toBe('RESTORING')
    await advance(s, 1)
    expect(await statusOf(s, p.ref, owner)).toBe('ACTIVE_HEALTHY')
  })

  it('the empty body of the dashboard ({}) and the Management API path work too', async () => {
    const a = await devCreate(s, 'INACTIVE')
    expect((await s.request(`/platform/projects/${a.ref}/restore`, post(owner, '{}'))).status).toBe(200)
    const b = await devCreate(s, 'INACTIVE')
    const v1 = await s.request(`/v1/projects/${b.ref}/restore`, post(owner))
    expect(v1.status).toBe(200)
    expect(await v1.text()).toBe('')
    expect(await statusOf(s, b.ref, owner)).toBe('RESTORING')
  })

  it('the whole round trip: pause, then restore', async () => {
    const p = await devCreate(s, 'ACTIVE_HEALTHY')
    await s.request(`/v1/projects/${p.ref}/pause`, post(owner))
    await advance(s, GOING_DOWN_MS + PAUSING_MS)
    expect(await statusOf(s, p.ref, owner)).toBe('INACTIVE')
    expect((await s.request(`/platform/projects/${p.ref}/restore`, post(owner))).status).toBe(200)
    await advance(s, RESTORING_MS)
    expect(await statusOf(s, p.ref, owner)).toBe('ACTIVE_HEALTHY')
  })

  it('fails when the development control says so, records the message, and the switch is used up', async () => {
    const p = await devCreate(s, 'INACTIVE')
    const fail = await s.request(`/dev/projects/${p.ref}/fail-next-restore`, json({ fail: true }))
    expect(await fail.json()).toEqual({ ref: p.ref, fail_next_restore: true })
    await s.request(`/platform/projects/${p.ref}/restore`, post(owner))
    const during = RestoreStatusResponse.parse(await (await s.request(`/platform/projects/${p.ref}/restore/status`, { headers: { cookie: owner } })).json())
    expect(during).toEqual({ status: 'RESTORING', error: null })
    await advance(s, RESTORING_MS)
    const after = RestoreStatusResponse.parse(await (await s.request(`/platform/projects/${p.ref}/restore/status`, { headers: { cookie: owner } })).json())
    expect(after).toEqual({ status: 'RESTORATION_FAILED', error: RESTORE_FAILURE_MESSAGE })

    // A failed restore cannot be restored again: 409 naming the status.
    const again = await s.request(`/platform/projects/${p.ref}/restore`, post(owner))
    expect(again.status).toBe(409)
    expect(ErrorBody.parse(await again.json()).message).toContain('RESTORATION_FAILED')

    // Paused again by hand, the next restore succeeds and the old error is gone.
    await s.request(`/dev/projects/${p.ref}/status`, json({ status: 'INACTIVE' }))
    await s.request(`/platform/projects/${p.ref}/restore`, post(owner))
    await advance(s, RESTORING_MS)
    const healthy = RestoreStatusResponse.parse(await (await s.request(`/platform/projects/${p.ref}/restore/status`, { headers: { cookie: owner } })).json())
    expect(healthy).toEqual({ status: 'ACTIVE_HEALTHY', error: null })
  })

  it('the switch can be turned off again; unknown projects are 404', async () => {
    const p = await devCreate(s, 'INACTIVE')
    await s.request(`/dev/projects/${p.ref}/fail-next-restore`, json({ fail: true }))
    await s.request(`/dev/projects/${p.ref}/fail-next-restore`, json({ fail: false }))
    await s.request(`/platform/projects/${p.ref}/restore`, post(owner))
    await advance(s, RESTORING_MS)
    expect(await statusOf(s, p.ref, owner)).toBe('ACTIVE_HEALTHY')
    expect((await s.request('/dev/projects/zzzzzzzzzzzzzzzzzzzy/fail-next-restore', json({ fail: true }))).status).toBe(404)
    expect((await s.request(`/dev/projects/${p.ref}/fail-next-restore`, json({ fail: 'yes' }))).status).toBe(400)
  })

  it('two restores at once: one starts it, the other is refused with 409', async () => {
    const p = await devCreate(s, 'INACTIVE')
    const answers = await Promise.all([
      s.request(`/platform/projects/${p.ref}/restore`, post(owner)),
      s.request(`/platform/projects/${p.ref}/restore`, post(owner)),
    ])
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409])
    const { rows } = await s.db.query<{ n: number }>(
      `select count(*)::int as n from lifecycle_transitions t join projects p on p.id = t.project_id
       where p.ref = $1 and t.kind = 'project.restore' and t.cancelled_at is null`,
      [p.ref],
    )
    expect(rows[0].n).toBe(1)
  })
})

describe('restore refusals', () => {
  it.each(['ACTIVE_HEALTHY', 'GOING_DOWN', 'PAUSING', 'RESTORING', 'COMING_UP', 'UPGRADING', 'UNKNOWN'])(
    'a project %s answers 409 naming its status, and nothing changes',
    async (status) => {
      const p = await devCreate(s, status)
      for (const path of [`/platform/projects/${p.ref}/restore`, `/v1/projects/${p.ref}/restore`]) {
        const res = await s.request(path, post(owner))
        expect(res.status, path).toBe(409)
        expect(ErrorBody.parse(await res.json()).message).toContain(status)
      }
      expect(await statusOf(s, p.ref, owner)).toBe(status)
    },
  )

  it.each([
    ['Developer', () => developer],
    ['Read-only', () => readonly],
  ])('%s lacks infra-execute on project-initialize-or-resume: 403 with the spec message', async (_, cookie) => {
    const p = await devCreate(s, 'INACTIVE')
    for (const path of [`/platform/projects/${p.ref}/restore`, `/v1/projects/${p.ref}/restore`]) {
      const res = await s.request(path, post(cookie()))
      expect(res.status, path).toBe(403)
      expect(ErrorBody.parse(await res.json()).message).toBe('You do not have the required permissions to restore this project')
    }
    expect(await statusOf(s, p.ref, owner)).toBe('INACTIVE')
  })
})

describe('GET /platform/organizations/{slug}/members/reached-free-project-limit', () => {
  const url = (slug: string) => `/platform/organizations/${slug}/members/reached-free-project-limit`

  it('lists the demo Owner in the free organization (it owns more active free projects than the limit)', async () => {
    const res = await s.request(url('demo-free'), { headers: { cookie: developer } })
    expect(res.status).toBe(200)
    expect(MembersReachedFreeProjectLimit.parse(await res.json())).toEqual([
      { username: 'owner', primary_email: OWNER, free_project_limit: 2 },
    ])
  })

  it('is empty for an organization that is not on the free plan', async () => {
    const res = await s.request(url('demo-pro'), { headers: { cookie: owner } })
    expect(MembersReachedFreeProjectLimit.parse(await res.json())).toEqual([])
  })

  it('is 404 for a non-member and 400 for a bad slug', async () => {
    const foreign = await insertForeignOrganization(s.db).catch(() => ({ slug: 'someone-elses-org' }))
    expect((await s.request(url(foreign.slug), { headers: { cookie: owner } })).status).toBe(404)
    expect((await s.request(url('not a slug'), { headers: { cookie: owner } })).status).toBe(400)
  })
})

describe('the free project limit counts owned, active, free projects', () => {
  it('a member drops off the list once enough of their projects are paused; the limit is a setting', async () => {
    const t = await startTestServer({ config: { lifecycle, freeProjectLimit: 2 } })
    try {
      const cookie = await t.signIn(OWNER)
      const list = async () => MembersReachedFreeProjectLimit.parse(await (await t.request('/platform/organizations/demo-free/members/reached-free-project-limit', { headers: { cookie } })).json())
      expect(await list()).toHaveLength(1)
      // The Owner owns four active free projects; pausing three of them leaves one, under the limit of 2.
      const { rows } = await t.db.query<{ ref: string }>(
        `select p.ref from projects p join organizations o on o.id = p.organization_id
         where o.slug = 'demo-free' and p.status <> 'INACTIVE' order by p.id`,
      )
      expect(rows).toHaveLength(4)
      await t.request(`/dev/projects/${rows[0].ref}/status`, json({ status: 'INACTIVE' }))
      await t.request(`/dev/projects/${rows[1].ref}/status`, json({ status: 'INACTIVE' }))
      expect(await list()).toHaveLength(1) // two active: still at the limit
      await t.request(`/dev/projects/${rows[2].ref}/status`, json({ status: 'INACTIVE' }))
      expect(await list()).toEqual([])
    } finally {
      await t.close()
    }
    const roomy = await startTestServer({ config: { lifecycle, freeProjectLimit: 10 } })
    try {
      const cookie = await roomy.signIn(OWNER)
      const res = await roomy.request('/platform/organizations/demo-free/members/reached-free-project-limit', { headers: { cookie } })
      expect(await res.json()).toEqual([])
    } finally {
      await roomy.close()
    }
  })
})

describe('the server holds the free project limit too', () => {
  it('refuses a restore in a free organization whose members reached the limit, and the project stays paused', async () => {
    const t = await startTestServer({ config: { lifecycle, freeProjectLimit: 2 } })
    try {
      const cookie = await t.signIn(OWNER)
      const paused = await projectByName(t, 'Weekend Hackathon')
      expect(paused.status).toBe('INACTIVE')
      const res = await t.request(`/platform/projects/${paused.ref}/restore`, { method: 'POST', headers: { cookie } })
      expect(res.status).toBe(409)
      const body = (await res.json()) as { message: string; code: string }
      expect(body.code).toBe('free_project_limit')
      expect(body.message).toContain('owner (owner@example.com)')
      expect(body.message).toContain('Delete, pause or upgrade a project first')
      expect((await projectByName(t, 'Weekend Hackathon')).status).toBe('INACTIVE')
    } finally {
      await t.close()
    }
    const roomy = await startTestServer({ config: { lifecycle, freeProjectLimit: 10 } })
    try {
      const cookie = await roomy.signIn(OWNER)
      const paused = await projectByName(roomy, 'Weekend Hackathon')
      const res = await roomy.request(`/platform/projects/${paused.ref}/restore`, { method: 'POST', headers: { cookie } })
      expect(res.status).toBe(200)
      expect((await projectByName(roomy, 'Weekend Hackathon')).status).toBe('RESTORING')
    } finally {
      await roomy.close()
    }
  })
})

describe('restart durability', () => {
  it('a pause and a restore under way when the server stops finish after a restart, each once', async () => {
    const { store, clock } = await createSeededStore({ lifecycle })
    try {
      const first = await startTestServer({ store, clock, config: { lifecycle } })
      const cookie = await first.signIn(OWNER)
      const pausing = await devCreate(first, 'ACTIVE_HEALTHY')
      const restoring = await devCreate(first, 'INACTIVE')
      expect((await first.request(`/v1/projects/${pausing.ref}/pause`, post(cookie))).status).toBe(200)
      expect((await first.request(`/platform/projects/${restoring.ref}/restore`, post(cookie))).status).toBe(200)
      // Mid-pause (past GOING_DOWN) and mid-restore when the server stops.
      clock.advance(GOING_DOWN_MS)
      await first.engine.runDue()
      expect(await statusOf(first, pausing.ref, cookie)).toBe('PAUSING')
      expect(await statusOf(first, restoring.ref, cookie)).toBe('RESTORING')
      await first.close({ destroy: false })

      clock.advance(Math.max(PAUSING_MS, RESTORING_MS))
      const second = await startTestServer({ store, clock, config: { lifecycle } })
      const again = await second.signIn(OWNER)
      // Before the engine runs nothing has moved: the work waits in the store.
      expect(await statusOf(second, pausing.ref, again)).toBe('PAUSING')
      await second.engine.runDue()
      expect(await statusOf(second, pausing.ref, again)).toBe('INACTIVE')
      expect(await statusOf(second, restoring.ref, again)).toBe('ACTIVE_HEALTHY')
      const { rows } = await second.db.query<{ kind: string; outcome: string }>(
        `select t.kind, t.outcome from lifecycle_transitions t join projects p on p.id = t.project_id
         where p.ref = any($1::text[]) order by t.id`,
        [[pausing.ref, restoring.ref]],
      )
      expect(rows).toEqual([
        { kind: 'project.status', outcome: 'applied' },
        { kind: 'project.status', outcome: 'applied' },
        { kind: 'project.restore', outcome: 'applied' },
      ])
      await second.close({ destroy: false })
    } finally {
      await store.destroy()
    }
  })

  it('a restore set to fail still fails after a restart (the switch is stored)', async () => {
    const { store, clock } = await createSeededStore({ lifecycle })
    try {
      const first = await startTestServer({ store, clock, config: { lifecycle } })
      const cookie = await first.signIn(OWNER)
      const p = await devCreate(first, 'INACTIVE')
      await first.request(`/dev/projects/${p.ref}/fail-next-restore`, json({ fail: true }))
      await first.request(`/platform/projects/${p.ref}/restore`, post(cookie))
      await first.close({ destroy: false })
      clock.advance(RESTORING_MS)
      const second = await startTestServer({ store, clock, config: { lifecycle } })
      await second.engine.runDue()
      const again = await second.signIn(OWNER)
      expect(await statusOf(second, p.ref, again)).toBe('RESTORATION_FAILED')
      await second.close({ destroy: false })
    } finally {
      await store.destroy()
    }
  })
})
