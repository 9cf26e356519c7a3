/** The upgrade endpoints against the Management API's own OpenAPI document (as v1-contract.test.ts does). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Project } from '../../src/contracts/projects'
import { DatabaseUpgradeStatusResponse, ProjectUpgradeEligibilityResponse } from '../../src/contracts/upgrade'
import { OWNER, json, projectByName, startTestServer, type TestServer } from './helpers'
import { expectValid as expectValidBody, validatorFor } from './openapi'

function expectValid(schemaName: string, body: unknown) {
  expectValidBody(validatorFor(schemaName), body)
}

let s: TestServer
let auth: { authorization: string }
beforeAll(async () => {
  s = await startTestServer({ config: { lifecycle: { upgradeStepMs: 1_000 } as never } })
  const cookie = await s.signIn(OWNER)
  const res = await s.request('/platform/profile/access-tokens', json({ name: 'upgrade contract' }, { cookie }))
  auth = { authorization: `Bearer ${((await res.json()) as { token: string }).token}` }
})
afterAll(() => s?.close())

describe('upgrade endpoints against the OpenAPI document', () => {
  it('the request body example of UpgradeDatabaseBody is accepted and the answer is a ProjectUpgradeInitiateResponse', async () => {
    const body = { target_version: '17', release_channel: 'ga' }
    expectValid('UpgradeDatabaseBody', body)
    const created = Project.parse(await (await s.request('/dev/projects', json({ organization_slug: 'demo-pro' }))).json())
    const res = await s.request(`/v1/projects/${created.ref}/upgrade`, json(body, auth))
    expect(res.status).toBe(201)
    expectValid('ProjectUpgradeInitiateResponse', await res.json())
  })

  it('DatabaseUpgradeStatusResponse: null, upgrading, failed and upgraded all validate', async () => {
    const { ref: none } = await projectByName(s, 'Recipe Box')
    const empty = await (await s.request(`/v1/projects/${none}/upgrade/status`, { headers: auth })).json()
    expectValid('DatabaseUpgradeStatusResponse', empty)
    expect(empty).toEqual({ databaseUpgradeStatus: null })

    const failing = Project.parse(await (await s.request('/dev/projects', json({ organization_slug: 'demo-pro' }))).json())
    await s.request(`/dev/projects/${failing.ref}/fail-next-upgrade`, json({ at_step: 3 }))
    await s.request(`/v1/projects/${failing.ref}/upgrade`, json({ target_version: '17' }, auth))
    const ok = Project.parse(await (await s.request('/dev/projects', json({ organization_slug: 'demo-pro' }))).json())
    await s.request(`/v1/projects/${ok.ref}/upgrade`, json({ target_version: '17' }, auth))

    const bodies: unknown[] = []
    for (let i = 0; i <= 8; i++) {
      for (const ref of [failing.ref, ok.ref]) {
        const body = await (await s.request(`/v1/projects/${ref}/upgrade/status`, { headers: auth })).json()
        expectValid('DatabaseUpgradeStatusResponse', body)
        bodies.push(body)
      }
      s.clock.advance(1_000)
      await s.engine.runDue()
    }
    const words = bodies.map((b) => DatabaseUpgradeStatusResponse.parse(b).databaseUpgradeStatus?.status)
    expect(new Set(words)).toEqual(new Set(['upgrading', 'failed', 'upgraded']))
    // The wire carries numbers: 0 upgrading, 1 upgraded, 2 failed.
    const last = (await (await s.request(`/v1/projects/${ok.ref}/upgrade/status`, { headers: auth })).json()) as {
      databaseUpgradeStatus: { status: number; target_version: number }
    }
    expect(last.databaseUpgradeStatus).toMatchObject({ status: 1, target_version: 17 })
    const failed = (await (await s.request(`/v1/projects/${failing.ref}/upgrade/status`, { headers: auth })).json()) as {
      databaseUpgradeStatus: { status: number; error: string }
    }
    expect(failed.databaseUpgradeStatus).toMatchObject({ status: 2, error: '2_volume_detachchment_from_upgraded_instance_failed' })
  })

  it('ProjectUpgradeEligibilityResponse validates for eligible and not eligible projects', async () => {
    // Legacy Blog stages Postgres 14.1 (eligible for 15 and 17); Recipe Box runs its engine's own version (PGlite 18:
    // nothing newer to offer, so not eligible; PostgreSQL 15: eligible for 17), and the answer validates either way.
    for (const name of ['Legacy Blog', 'Recipe Box']) {
      const { ref, db_version } = await projectByName(s, name)
      const body = await (await s.request(`/v1/projects/${ref}/upgrade/eligibility`, { headers: auth })).json()
      expectValid('ProjectUpgradeEligibilityResponse', body)
      expect(ProjectUpgradeEligibilityResponse.parse(body).eligible, `${name} on ${db_version}`).toBe(Number.parseInt(db_version, 10) < 17)
    }
  })
})
