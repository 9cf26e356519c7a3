/** Postgres upgrades: the eight steps in order, upgraded and failed outcomes, refusals, restart durability. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Project } from '../../src/contracts/projects'
import {
  DatabaseUpgradeStatusResponse,
  ProjectUpgradeEligibilityResponse,
  ProjectUpgradeInitiateResponse,
  UpgradeProgress,
} from '../../src/contracts/upgrade'
import {
  OWNER,
  READONLY,
  createSeededStore,
  json,
  startTestServer,
  type TestServer,
} from './helpers'

const STEP_MS = 1_000

async function devCreate(s: TestServer, body: object) {
  const res = await s.request('/dev/projects', json(body))
  expect(res.status).toBe(201)
  return Project.parse(await res.json())
}

async function upgradeStatus(s: TestServer, ref: string, cookie: string) {
  const res = await s.request(`/v1/projects/${ref}/upgrade/status`, { headers: { cookie } })
  expect(res.status).toBe(200)
  return DatabaseUpgradeStatusResponse.parse(await res.json()).databaseUpgradeStatus
}

async function project(s: TestServer, ref: string, cookie: string) {
  return Project.parse(await (await s.request(`/platform/projects/${ref}`, { headers: { cookie } })).json())
}

function startUpgrade(s: TestServer, ref: string, cookie: string, target = '17') {
  return s.request(`/v1/projects/${ref}/upgrade`, json({ target_version: target, release_channel: 'ga' }, { cookie }))
}

describe('an upgrade', () => {
  let s: TestServer
  let cookie: string
  beforeAll(async () => {
    s = await startTestServer({ config: { lifecycle: { upgradeStepMs: STEP_MS } as never } })
    cookie = await s.signIn(OWNER)
  })
  afterAll(() => s?.close())

  it('runs the eight steps in order, one per step duration, then the project is on the target version', async () => {
    const p = await devCreate(s, { organization_slug: 'demo-pro', name: 'Upgrade me' })
    expect(p.db_version).toBe('15.6')
    const res = await startUpgrade(s, p.ref, cookie)
    expect(res.status).toBe(201)
    const { tracking_id } = ProjectUpgradeInitiateResponse.parse(await res.json())
    expect(tracking_id).toMatch(/^[0-9a-f-]{36}$/)

    const started = await project(s, p.ref, cookie)
    expect(started.status).toBe('UPGRADING')
    const first = await upgradeStatus(s, p.ref, cookie)
    expect(first).toMatchObject({ status: 'upgrading', progress: '0_requested', target_version: 17, error: null })
    // The waiting screen counts from either: they are the same instant.
    expect(first?.initiated_at).toBe(started.status_changed_at)

    const seen: string[] = []
    for (let step = 1; step <= 8; step++) {
      s.clock.advance(STEP_MS - 1)
      await s.engine.runDue()
      expect((await upgradeStatus(s, p.ref, cookie))?.progress).toBe(UpgradeProgress.options[step - 1])
      s.clock.advance(1)
      await s.engine.runDue()
      const now = await upgradeStatus(s, p.ref, cookie)
      seen.push(now!.progress!)
      expect(now?.latest_status_at).toBe(s.clock.now().toISOString())
      if (step < 8) {
        expect(now?.status).toBe('upgrading')
        expect((await project(s, p.ref, cookie)).status).toBe('UPGRADING')
      }
    }
    expect(seen).toEqual(UpgradeProgress.options.slice(1, 9))
    const done = await upgradeStatus(s, p.ref, cookie)
    expect(done).toMatchObject({ status: 'upgraded', progress: '8_attached_volume_to_upgraded_instance', error: null })
    const after = await project(s, p.ref, cookie)
    expect(after.status).toBe('ACTIVE_HEALTHY')
    expect(after.db_version).toBe('17.4')
    // Eligibility follows: on the latest major, nothing more to upgrade to.
    const eligibility = ProjectUpgradeEligibilityResponse.parse(
      await (await s.request(`/v1/projects/${p.ref}/upgrade/eligibility`, { headers: { cookie } })).json(),
    )
    expect(eligibility.eligible).toBe(false)
    expect(eligibility.target_upgrade_versions).toEqual([])
    // The tracking id selects the same upgrade.
    const byId = await s.request(`/v1/projects/${p.ref}/upgrade/status?tracking_id=${tracking_id}`, { headers: { cookie } })
    expect(DatabaseUpgradeStatusResponse.parse(await byId.json()).databaseUpgradeStatus?.status).toBe('upgraded')
  })

  it.each([1, 4, 8])('fails at the chosen step %i and puts the project back online on its old version', async (atStep) => {
    const p = await devCreate(s, { organization_slug: 'demo-pro' })
    expect((await s.request(`/dev/projects/${p.ref}/fail-next-upgrade`, json({ at_step: atStep }))).status).toBe(200)
    expect((await startUpgrade(s, p.ref, cookie)).status).toBe(201)
    for (let step = 1; step < atStep; step++) {
      s.clock.advance(STEP_MS)
      await s.engine.runDue()
      expect(await upgradeStatus(s, p.ref, cookie)).toMatchObject({ status: 'upgrading', progress: UpgradeProgress.options[step] })
    }
    s.clock.advance(STEP_MS)
    await s.engine.runDue()
    const failed = await upgradeStatus(s, p.ref, cookie)
    expect(failed).toMatchObject({ status: 'failed', progress: UpgradeProgress.options[atStep - 1] })
    expect(failed?.error).toMatch(new RegExp(`^${Math.max(atStep - 1, 1)}_.*_failed$`))
    const after = await project(s, p.ref, cookie)
    expect(after).toMatchObject({ status: 'ACTIVE_HEALTHY', db_version: '15.6' })
    // Later steps do nothing.
    s.clock.advance(STEP_MS * 10)
    await s.engine.runDue()
    expect((await upgradeStatus(s, p.ref, cookie))?.status).toBe('failed')
    // The control is used up: the next upgrade runs through.
    expect((await startUpgrade(s, p.ref, cookie)).status).toBe(201)
    s.clock.advance(STEP_MS * 8)
    await s.engine.runDue()
    expect((await upgradeStatus(s, p.ref, cookie))?.status).toBe('upgraded')
  })

  it('refuses a second upgrade at once, and an upgrade of a project that is not ACTIVE_HEALTHY, with 409 naming the status', async () => {
    const p = await devCreate(s, { organization_slug: 'demo-pro' })
    expect((await startUpgrade(s, p.ref, cookie)).status).toBe(201)
    const second = await startUpgrade(s, p.ref, cookie)
    expect(second.status).toBe(409)
    expect(((await second.json()) as { message: string }).message).toMatch(/UPGRADING/)
    for (const status of ['INACTIVE', 'COMING_UP', 'RESTORING'] as const) {
      const other = await devCreate(s, { organization_slug: 'demo-pro', status })
      const res = await startUpgrade(s, other.ref, cookie)
      expect(res.status).toBe(409)
      expect(((await res.json()) as { message: string }).message).toContain(status)
    }
    // Two requests racing: exactly one wins.
    const racer = await devCreate(s, { organization_slug: 'demo-pro' })
    const answers = await Promise.all([startUpgrade(s, racer.ref, cookie), startUpgrade(s, racer.ref, cookie)])
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409])
  })

  it('validates the request and checks projects:write', async () => {
    const p = await devCreate(s, { organization_slug: 'demo-pro' })
    expect((await startUpgrade(s, p.ref, cookie, '16')).status).toBe(400)
    const noTarget = await s.request(`/v1/projects/${p.ref}/upgrade`, json({}, { cookie }))
    expect(noTarget.status).toBe(400)
    expect(await noTarget.json()).toHaveProperty('message')
    const badChannel = await s.request(`/v1/projects/${p.ref}/upgrade`, json({ target_version: '17', release_channel: 'nightly' }, { cookie }))
    expect(badChannel.status).toBe(400)
    const readonly = await s.signIn(READONLY)
    const denied = await startUpgrade(s, p.ref, readonly)
    expect(denied.status).toBe(403)
    expect((await project(s, p.ref, cookie)).status).toBe('ACTIVE_HEALTHY')
    expect((await s.request('/v1/projects/aaaaaaaaaaaaaaaaaaaa/upgrade/status', { headers: { cookie } })).status).toBe(404)
    expect((await s.request('/v1/projects/Bad/upgrade/eligibility', { headers: { cookie } })).status).toBe(400)
    expect((await s.request(`/dev/projects/${p.ref}/fail-next-upgrade`, json({ at_step: 9 }))).status).toBe(400)
  })

  it('eligibility lists the newer majors; no upgrade yet reads null', async () => {
    const { rows } = await s.db.query<{ ref: string }>(`select ref from projects where name = 'Legacy Blog'`)
    const res = await s.request(`/v1/projects/${rows[0].ref}/upgrade/eligibility`, { headers: { cookie } })
    const body = ProjectUpgradeEligibilityResponse.parse(await res.json())
    expect(body.eligible).toBe(true)
    expect(body.target_upgrade_versions.map((t) => t.postgres_version)).toEqual(['15', '17'])
    expect(await upgradeStatus(s, rows[0].ref, cookie)).toBeNull()
  })

  it('a project put UPGRADING from outside (seed, dev control) shows an upgrade that does not advance', async () => {
    const p = await devCreate(s, { organization_slug: 'demo-free', status: 'UPGRADING' })
    const stuck = await upgradeStatus(s, p.ref, cookie)
    expect(stuck).toMatchObject({ status: 'upgrading', progress: '0_requested', target_version: 17 })
    s.clock.advance(STEP_MS * 20)
    await s.engine.runDue()
    expect(await upgradeStatus(s, p.ref, cookie)).toEqual(stuck)
    expect((await project(s, p.ref, cookie)).status).toBe('UPGRADING')
    const { rows } = await s.db.query<{ ref: string }>(`select ref from projects where name = 'Analytics Warehouse'`)
    expect(await upgradeStatus(s, rows[0].ref, cookie)).toMatchObject({ status: 'upgrading', target_version: 17 })
    // Setting it ACTIVE_HEALTHY again lets a real upgrade start; the stuck record is closed as failed.
    await s.request(`/dev/projects/${p.ref}/status`, json({ status: 'ACTIVE_HEALTHY' }))
    expect((await startUpgrade(s, p.ref, cookie)).status).toBe(201)
    const { rows: upgrades } = await s.db.query<{ status: string }>(
      'select u.status from project_upgrades u join projects p on p.id = u.project_id where p.ref = $1 order by u.id',
      [p.ref],
    )
    expect(upgrades.map((u) => u.status)).toEqual(['failed', 'upgrading'])
  })
})

describe('restart durability', () => {
  it('an upgrade in progress when the server stops resumes after a restart and completes in order', async () => {
    const config = { lifecycle: { upgradeStepMs: STEP_MS } as never }
    const { store, clock } = await createSeededStore(config)
    try {
      const first = await startTestServer({ store, clock, config })
      const cookie = await first.signIn(OWNER)
      const p = await devCreate(first, { organization_slug: 'demo-pro', name: 'Survivor upgrade' })
      expect((await first.request(`/dev/projects/${p.ref}/fail-next-upgrade`, json({ at_step: 7 }))).status).toBe(200)
      expect((await startUpgrade(first, p.ref, cookie)).status).toBe(201)
      clock.advance(STEP_MS * 3)
      await first.engine.runDue()
      expect((await upgradeStatus(first, p.ref, cookie))?.progress).toBe('3_detached_volume_from_upgraded_instance')
      await first.close({ destroy: false })

      // Down for longer than the remaining steps: all are overdue at once, and still apply in order.
      clock.advance(STEP_MS * 10)
      const second = await startTestServer({ store, clock, config })
      const cookie2 = await second.signIn(OWNER)
      await second.engine.runDue()
      const status = await upgradeStatus(second, p.ref, cookie2)
      expect(status).toMatchObject({ status: 'failed', progress: '6_completed_data_upgrade', error: '6_volume_detachchment_from_original_instance_failed' })
      const { rows } = await second.db.query<{ outcome: string }>(
        `select t.outcome from lifecycle_transitions t join projects p on p.id = t.project_id
         where p.ref = $1 and t.kind = 'project.upgrade.step' order by t.id`,
        [p.ref],
      )
      expect(rows.map((r) => r.outcome)).toEqual([
        'applied: 1_started',
        'applied: 2_launched_upgraded_instance',
        'applied: 3_detached_volume_from_upgraded_instance',
        'applied: 4_attached_volume_to_original_instance',
        'applied: 5_initiated_data_upgrade',
        'applied: 6_completed_data_upgrade',
        'applied: failed at step 7 (DetachedVolumeFromOriginalInstance)',
        'skipped: upgrade no longer running',
      ])
      expect(await project(second, p.ref, cookie2)).toMatchObject({ status: 'ACTIVE_HEALTHY', db_version: '15.6' })
      await second.close({ destroy: false })
    } finally {
      await store.destroy()
    }
  })
})
