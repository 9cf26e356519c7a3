/**
 * A project's objects through its lifecycle: pausing keeps every object (rows in the closed database, bytes in the
 * object store), the storage API answers 503 in storage's shape while the project is paused, and a restore serves
 * them again; deleting the project removes every byte it stored.
 */
import { existsSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { DEVELOPER, json, OWNER, startTestServer, type TestServer } from './helpers'

const lifecycle = { goingDownMs: 3_000, pausingMs: 4_000, restoringMs: 8_000, tickMs: 10 }

let s: TestServer
let ref: string
let service: string
let owner: string

const storage = (p: string, init: RequestInit = {}) =>
  s.request(`/p/${ref}/storage/v1${p}`, { ...init, headers: { authorization: `Bearer ${service}`, ...(init.headers as Record<string, string>) } })

async function projectByRef(r: string) {
  const { rows } = await s.db.query<{ id: number }>('select id from projects where ref = $1', [r])
  return rows[0]
}

async function advance(ms: number) {
  s.clock.advance(ms)
  await s.engine.runDue()
}

const statusOf = async () => ((await (await s.request(`/platform/projects/${ref}/status`, { headers: { cookie: owner } })).json()) as { status: string }).status

beforeAll(async () => {
  s = await startTestServer({ config: { lifecycle } })
  owner = await s.signIn(OWNER)
  // A project of the Pro organization: restoring one of the free organization's meets its free project limit.
  const created = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', status: 'ACTIVE_HEALTHY' }))
  expect(created.status).toBe(201)
  ref = ((await created.json()) as { ref: string }).ref
  const project = await projectByRef(ref)
  service = (await findProjectKeys(s.db, project.id))!.service_role_key
}, 120_000)

afterAll(async () => {
  if (ref) await s?.objects.removeProject(ref)
  await s?.close()
})

describe('objects through pause and restore', () => {
  it('keeps every object while paused and serves them again after a restore', async () => {
    const made = await storage('/bucket', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'kept' }) })
    expect(made.status).toBe(200)
    for (const name of ['a.txt', 'folder/b.txt']) {
      const up = await storage(`/object/kept/${name}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: `bytes of ${name}` })
      expect(up.status).toBe(200)
    }
    const files = () => s.objects.stored(ref)

    expect((await s.request(`/v1/projects/${ref}/pause`, { method: 'POST', headers: { cookie: owner } })).status).toBe(200)
    await advance(lifecycle.goingDownMs + lifecycle.pausingMs)
    expect(await statusOf()).toBe('INACTIVE')
    const paused = await storage('/object/kept/a.txt')
    expect(paused.status).toBe(503)
    expect(await paused.json()).toMatchObject({ statusCode: '503', error: 'Service unavailable' })
    expect(await files()).toHaveLength(2)

    expect((await s.request(`/platform/projects/${ref}/restore`, { method: 'POST', headers: { cookie: owner } })).status).toBe(200)
    await advance(lifecycle.restoringMs)
    expect(await statusOf()).toBe('ACTIVE_HEALTHY')
    expect(await (await storage('/object/kept/a.txt')).text()).toBe('bytes of a.txt')
    expect(await (await storage('/object/kept/folder/b.txt')).text()).toBe('bytes of folder/b.txt')
    const listed = await storage('/object/list/kept', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ prefix: '' }) })
    expect(((await listed.json()) as Array<{ name: string }>).map((f) => f.name)).toEqual(['folder', 'a.txt'])
  })
})

describe('deleting the project', () => {
  it("removes its objects' bytes and temporary files with its database and rows", async () => {
    const made = await storage('/bucket', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'doomed' }) })
    expect(made.status).toBe(200)
    expect((await storage('/object/doomed/c.txt', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'bytes of c' })).status).toBe(200)
    expect((await s.objects.stored(ref)).length).toBeGreaterThan(0)
    // A resumable upload never finished (half of its bytes in, wherever the store keeps them) goes too.
    const b64 = (text: string) => Buffer.from(text).toString('base64')
    const tus = { 'tus-resumable': '1.0.0' }
    const begun = await storage('/upload/resumable', {
      method: 'POST',
      headers: { ...tus, 'upload-length': '10', 'upload-metadata': `bucketName ${b64('doomed')},objectName ${b64('never.bin')}` },
    })
    expect(begun.status).toBe(201)
    const upload = begun.headers.get('location')!.split('/').pop()!
    const half = await storage(`/upload/resumable/${upload}`, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      body: 'half ',
    })
    expect(half.status).toBe(204)
    expect((await s.objects.resumableStore(ref).getUpload(upload)).offset).toBe(5)
    const local = path.join(s.config.dataDir, 'storage', ref)

    // A developer may not delete a project: nothing is removed.
    const developer = await s.signIn(DEVELOPER)
    const refused = await s.request(`/v1/projects/${ref}`, { method: 'DELETE', headers: { cookie: developer } })
    expect(refused.status).toBe(403)
    expect((await s.objects.stored(ref)).length).toBeGreaterThan(0)
    expect((await s.objects.resumableStore(ref).getUpload(upload)).offset).toBe(5)

    const { id } = await projectByRef(ref)
    const deleted = await s.request(`/v1/projects/${ref}`, { method: 'DELETE', headers: { cookie: owner } })
    expect(deleted.status).toBe(200)
    expect(await deleted.json()).toEqual({ id, ref, name: expect.any(String) })
    expect(await s.objects.stored(ref)).toEqual([])
    expect(existsSync(local)).toBe(false)
    // Asked after the disk was looked at: the file store makes its folder when it is made.
    await expect(s.objects.resumableStore(ref).getUpload(upload)).rejects.toMatchObject({ status_code: 404 })
    expect(await s.projectDbs.exists(ref)).toBe(false)
    expect(await projectByRef(ref)).toBeUndefined()
    expect((await s.request(`/v1/projects/${ref}`, { headers: { cookie: owner } })).status).toBe(404)
    expect((await storage('/object/doomed/c.txt')).status).toBe(404)
  })
})
