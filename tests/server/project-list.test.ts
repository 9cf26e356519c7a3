/**
 * GET /platform/projects, the project list's read: every project of the member's organizations (and no other), each
 * exactly as GET /platform/projects/{ref} answers it, oldest first; and one store query however many projects there
 * are (bench/project-list.bench.ts times it at 1,000).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Project, ProjectList } from '../../src/contracts/projects'
import { insertForeignOrganization, json, OWNER, startTestServer, type TestServer } from './helpers'

let s: TestServer
let cookie: string

beforeAll(async () => {
  s = await startTestServer()
  cookie = await s.signIn(OWNER)
})
afterAll(() => s.close())

const list = async () => {
  const res = await s.request('/platform/projects', { headers: { cookie } })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^application\/json/)
  return ProjectList.parse(await res.json())
}

const createProjects = async (count: number, organization_slug: string) => {
  for (let i = 0; i < count; i++) {
    const res = await s.request('/dev/projects', json({ organization_slug, name: `Listed ${organization_slug} ${i}`, status: 'ACTIVE_HEALTHY' }))
    expect(res.status).toBe(201)
  }
}

/** Counts the store's queries while `fn` runs (the app holds the same store object). */
async function countQueries(fn: () => Promise<unknown>): Promise<number> {
  const original = s.db.query
  let count = 0
  s.db.query = ((...args: Parameters<typeof original>) => {
    count++
    return original.apply(s.db, args)
  }) as typeof original
  try {
    await fn()
  } finally {
    s.db.query = original
  }
  return count
}

describe('the project list', () => {
  it("answers each of the member's projects as its own read does, oldest first, and none of another organization", async () => {
    const foreign = await insertForeignOrganization(s.db)
    // Timestamps the database keeps to the microsecond: the answer gives milliseconds, as Date.toISOString does.
    await createProjects(3, 'demo-pro')
    await s.db.query(
      `update projects set inserted_at = '2030-01-02 03:04:05.678951+00', status_changed_at = '2030-01-02 03:04:05.9999+00'
       where name = 'Listed demo-pro 1'`,
    )
    const projects = await list()
    expect(projects.map((p) => p.ref)).not.toContain(foreign.ref)
    const { rows } = await s.db.query<{ ref: string }>(
      `select p.ref from projects p join members m on m.organization_id = p.organization_id
       join accounts a on a.id = m.account_id where a.primary_email = $1 order by p.inserted_at, p.id`,
      [OWNER],
    )
    expect(projects.map((p) => p.ref)).toEqual(rows.map((r) => r.ref))
    for (const project of projects) {
      const one = Project.parse(await (await s.request(`/platform/projects/${project.ref}`, { headers: { cookie } })).json())
      expect(project).toEqual(one)
      // The same keys in the same order: the answer is the contract's shape, nothing more.
      expect(Object.keys(project)).toEqual(Object.keys(one))
    }
    const moved = projects.find((p) => p.name === 'Listed demo-pro 1')!
    expect(moved.inserted_at).toBe('2030-01-02T03:04:05.678Z')
    expect(moved.status_changed_at).toBe('2030-01-02T03:04:05.999Z')
    expect(projects.at(-1)).toEqual(moved)
    expect(moved.restUrl).toBe(`http://localhost/p/${moved.ref}/rest/v1/`)
  })

  it('is one store query, however many projects there are', async () => {
    const before = await list()
    const few = await countQueries(list)
    await createProjects(30, 'demo-free')
    const after = await list()
    expect(after.length).toBe(before.length + 30)
    expect(await countQueries(list)).toBe(few)
  })
})
