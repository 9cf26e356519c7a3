/**
 * One owner of a project's status: every write of it is the lifecycle engine's `move`, so every way a timed
 * transition brings a project up to ACTIVE_HEALTHY runs the arrival hooks the features contributed (the end of coming
 * up, a restore, an upgrade finished or stopped by its failure, a branch's build passed or failed), and a move from a
 * status the project has left does nothing and says so.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BranchResponse } from '../../src/contracts/branching'
import { Project } from '../../src/contracts/projects'
import { addProject, connect, settle } from './branching-support'
import { json, OWNER, projectByName, startTestServer, type TestServer } from './helpers'

const SERVER = path.resolve(__dirname, '../../src/server')
const ENGINE = path.join(SERVER, 'engine/lifecycle.ts')

/** Every `update projects … set …` of the server's code whose set list writes `status`, as `file: statement`. */
async function statusWrites(): Promise<string[]> {
  const found: string[] = []
  for (const entry of await readdir(SERVER, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue
    const file = path.join(entry.parentPath, entry.name)
    const source = await readFile(file, 'utf8')
    for (const m of source.matchAll(/update\s+projects\b(?:\s+\w+)?\s+set\s+([\s\S]*?)(?:\bwhere\b|\breturning\b|`|;)/gi)) {
      if (/(^|[\s,])(\w+\.)?status\s*=/.test(m[1])) found.push(`${path.relative(SERVER, file)}: ${m[0].replace(/\s+/g, ' ')}`)
    }
  }
  return found
}

describe('the writes of a project status', () => {
  it('are the engine’s alone', async () => {
    const writes = await statusWrites()
    expect(writes.length).toBeGreaterThan(0)
    expect(writes.filter((w) => !w.startsWith(`${path.relative(SERVER, ENGINE)}:`))).toEqual([])
  })
})

describe('every way up to ACTIVE_HEALTHY', { timeout: 180_000 }, () => {
  let s: TestServer
  let cookie: string
  const arrivals: string[] = []

  beforeAll(async () => {
    s = await startTestServer({
      config: { lifecycle: { comingUpMs: 1_000, restoringMs: 1_000, upgradeStepMs: 1_000, branchStepMs: 0 } },
    })
    cookie = await s.signIn(OWNER)
    s.lifecycle.onArrival(async (tx, projectId, status) => {
      const { rows } = await tx.query<{ ref: string; status: string }>('select ref, status from projects where id = $1', [projectId])
      // The hook runs once the project row says where it arrived.
      arrivals.push(`${rows[0].ref} ${status} ${rows[0].status}`)
    })
  })
  afterAll(() => s?.close())

  async function devCreate(body: object) {
    const res = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', ...body }))
    expect(res.status).toBe(201)
    return Project.parse(await res.json())
  }

  /** Runs the engine a second at a time until nothing more is due. */
  async function runOut() {
    for (let i = 0; i < 20; i++) {
      s.clock.advance(1_000)
      await s.engine.runDue()
    }
  }

  const statusOf = async (ref: string) => (await s.db.query<{ status: string }>('select status from projects where ref = $1', [ref])).rows[0].status
  const arrivedUp = (ref: string) => arrivals.filter((a) => a === `${ref} ACTIVE_HEALTHY ACTIVE_HEALTHY`)

  it('the end of coming up runs the arrival hooks', async () => {
    const p = await devCreate({ name: 'Arrives coming up', status: 'COMING_UP' })
    await runOut()
    expect(await statusOf(p.ref)).toBe('ACTIVE_HEALTHY')
    expect(arrivedUp(p.ref)).toHaveLength(1)
  })

  it('a restore runs the arrival hooks', async () => {
    const p = await devCreate({ name: 'Arrives restored', status: 'INACTIVE' })
    expect((await s.request(`/v1/projects/${p.ref}/restore`, { method: 'POST', headers: { cookie } })).status).toBe(200)
    await runOut()
    expect(await statusOf(p.ref)).toBe('ACTIVE_HEALTHY')
    expect(arrivedUp(p.ref)).toHaveLength(1)
  })

  it('a failed restore arrives at RESTORATION_FAILED through the same hooks', async () => {
    const p = await devCreate({ name: 'Arrives failed', status: 'INACTIVE' })
    expect((await s.request(`/dev/projects/${p.ref}/fail-next-restore`, json({ fail: true }))).status).toBe(200)
    expect((await s.request(`/v1/projects/${p.ref}/restore`, { method: 'POST', headers: { cookie } })).status).toBe(200)
    await runOut()
    expect(arrivals.filter((a) => a.startsWith(`${p.ref} `))).toEqual([`${p.ref} RESTORATION_FAILED RESTORATION_FAILED`])
  })

  it('a finished upgrade runs the arrival hooks', async () => {
    const p = await devCreate({ name: 'Arrives upgraded' })
    const res = await s.request(`/v1/projects/${p.ref}/upgrade`, json({ target_version: '17', release_channel: 'ga' }, { cookie }))
    expect(res.status).toBe(201)
    expect(await statusOf(p.ref)).toBe('UPGRADING')
    await runOut()
    expect(await statusOf(p.ref)).toBe('ACTIVE_HEALTHY')
    expect(arrivedUp(p.ref)).toHaveLength(1)
  })

  it('an upgrade stopped by its failure runs the arrival hooks', async () => {
    const p = await devCreate({ name: 'Arrives after a failed upgrade' })
    expect((await s.request(`/dev/projects/${p.ref}/fail-next-upgrade`, json({ at_step: 3 }))).status).toBe(200)
    expect((await s.request(`/v1/projects/${p.ref}/upgrade`, json({ target_version: '17', release_channel: 'ga' }, { cookie }))).status).toBe(201)
    await runOut()
    expect(await statusOf(p.ref)).toBe('ACTIVE_HEALTHY')
    expect(arrivedUp(p.ref)).toHaveLength(1)
  })

  it('a branch whose migrations passed, and one whose migrations failed, run the arrival hooks', async () => {
    const acme = await projectByName(s, 'Acme Storefront')
    const passed = BranchResponse.parse(
      await (await s.request(`/v1/projects/${acme.ref}/branches`, json({ branch_name: 'arrives', git_branch: 'main' }, { cookie }))).json(),
    )
    expect(await settle(s, passed.id)).toBe('MIGRATIONS_PASSED')
    expect(arrivedUp(passed.project_ref)).toHaveLength(1)

    const parent = await addProject(s.db, 'demo-pro', 'Broken arrivals', 'brokenarrivalsaaaaaa')
    const { rows } = await s.db.query<{ id: number }>(
      `select r.id from git_repositories r join integration_installations i on i.id = r.installation_id
       join organizations o on o.id = i.organization_id where o.slug = 'demo-pro' and r.name = 'broken-migrations'`,
    )
    await connect(s.db, parent, rows[0].id)
    const failed = BranchResponse.parse(
      await (await s.request('/v1/projects/brokenarrivalsaaaaaa/branches', json({ branch_name: 'broken', git_branch: 'main' }, { cookie }))).json(),
    )
    expect(await settle(s, failed.id)).toBe('MIGRATIONS_FAILED')
    expect(arrivedUp(failed.project_ref)).toHaveLength(1)
  })

  it('a move from a status the project has left does nothing and says so', async () => {
    const p = await devCreate({ name: 'Moved meanwhile', status: 'PAUSING' })
    const { id } = await projectByName(s, 'Moved meanwhile')
    const before = arrivals.length
    const outcome = await s.db.transaction((tx) =>
      s.lifecycle.move(tx, id, { from: 'RESTORING', to: 'ACTIVE_HEALTHY', run: 'arrival' }, s.clock.now()),
    )
    expect(outcome).toBe('skipped: project no longer RESTORING')
    expect(await statusOf(p.ref)).toBe('PAUSING')
    expect(arrivals.length).toBe(before)
  })
})
