/**
 * A project's secrets (the CLI's `secrets set/list/unset`) are kept encrypted at rest under a key of the data folder:
 * the store holds no value in clear, the Management API answers digests, the functions get the values in clear, a
 * sealed value does not open under another data folder's key or moved to another project or name, and a value stored
 * in clear before sealing is sealed on its first read.
 */
import { createHash } from 'node:crypto'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { sealKeyFile, secretBoxFor } from '../../src/server/core/sealed'
import { secretValues } from '../../src/server/features/functions/runtime/store'
import { OWNER, projectByName, startTestServer, type TestServer } from './helpers'

let s: TestServer
let project: { id: number; ref: string }
let other: { id: number; ref: string }
let cookie: string
let elsewhere: string

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex')
const stored = async (projectId: number, name: string) =>
  (await s.db.query<{ value: string }>('select value from project_secrets where project_id = $1 and name = $2', [projectId, name])).rows[0]?.value
const listed = async () => {
  const res = await s.request(`/v1/projects/${project.ref}/secrets`, { headers: { cookie } })
  expect(res.status).toBe(200)
  return (await res.json()) as Array<{ name: string; value: string }>
}

beforeAll(async () => {
  s = await startTestServer()
  project = await projectByName(s, 'Recipe Box')
  other = await projectByName(s, 'Acme Storefront')
  cookie = await s.signIn(OWNER)
  elsewhere = await mkdtemp(path.join(os.tmpdir(), 'kp-wire-secrets-'))
}, 120_000)

afterAll(async () => {
  // On PostgreSQL the test server's data folder is shared by the run: its key file goes with its store.
  if (s?.config.databaseUrl) await rm(sealKeyFile(s.config), { force: true })
  await s?.close()
  await rm(elsewhere, { recursive: true, force: true })
})

it('stores no value in clear, lists digests, and gives the functions the values', async () => {
  const res = await s.request(`/v1/projects/${project.ref}/secrets`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify([
      { name: 'STRIPE_KEY', value: 'sk_live_clear-value-1' },
      { name: 'MAIL_FROM', value: 'shop@example.com' },
    ]),
  })
  expect(res.status).toBe(201)

  const raw = await stored(project.id, 'STRIPE_KEY')
  expect(raw).toMatch(/^sealed:v1:/)
  expect(raw).not.toContain('sk_live')
  const dump = (await s.db.query<{ all: string }>('select string_agg(value, \' \') as all from project_secrets')).rows[0].all
  expect(dump).not.toContain('sk_live_clear-value-1')
  expect(dump).not.toContain('shop@example.com')
  // The same value sealed twice differs (a fresh IV each time): equal secrets cannot be spotted in the store.
  await s.request(`/v1/projects/${project.ref}/secrets`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify([{ name: 'STRIPE_KEY', value: 'sk_live_clear-value-1' }]),
  })
  expect(await stored(project.id, 'STRIPE_KEY')).not.toBe(raw)

  expect(await listed()).toEqual([
    expect.objectContaining({ name: 'MAIL_FROM', value: sha256('shop@example.com') }),
    expect.objectContaining({ name: 'STRIPE_KEY', value: sha256('sk_live_clear-value-1') }),
  ])
  const box = await secretBoxFor(s.config)
  expect(await secretValues(s.db, project.id, box)).toEqual({ MAIL_FROM: 'shop@example.com', STRIPE_KEY: 'sk_live_clear-value-1' })

  // The key is the data folder's, readable by its owner only.
  expect((await stat(sealKeyFile(s.config))).mode & 0o777).toBe(0o600)
})

it('a sealed value opens under neither another data folder\'s key nor another project or name', async () => {
  const raw = (await stored(project.id, 'STRIPE_KEY'))!
  const foreign = await secretBoxFor({ dataDir: elsewhere, databaseUrl: undefined })
  expect(() => foreign.open(raw, `project_secrets:${project.id}:STRIPE_KEY`)).toThrow(/does not open/)

  await s.db.query(`insert into project_secrets (project_id, name, value, updated_at) values ($1, 'STRIPE_KEY', $2, now())`, [other.id, raw])
  await s.db.query(`insert into project_secrets (project_id, name, value, updated_at) values ($1, 'MOVED', $2, now())`, [project.id, raw])
  try {
    const box = await secretBoxFor(s.config)
    await expect(secretValues(s.db, other.id, box)).rejects.toThrow(/does not open/)
    await expect(secretValues(s.db, project.id, box)).rejects.toThrow(/does not open/)
  } finally {
    await s.db.query(`delete from project_secrets where (project_id = $1 and name = 'STRIPE_KEY') or (project_id = $2 and name = 'MOVED')`, [other.id, project.id])
  }
})

it('a value stored in clear before sealing is read as it is and sealed on that read', async () => {
  await s.db.query(`insert into project_secrets (project_id, name, value, updated_at) values ($1, 'OLD_TOKEN', 'old-clear-token', now())`, [project.id])
  expect((await listed()).find((r) => r.name === 'OLD_TOKEN')?.value).toBe(sha256('old-clear-token'))
  const raw = await stored(project.id, 'OLD_TOKEN')
  expect(raw).toMatch(/^sealed:v1:/)
  expect(await secretValues(s.db, project.id, await secretBoxFor(s.config))).toMatchObject({ OLD_TOKEN: 'old-clear-token' })
})
