/**
 * A project database made before the template carried `storage.objects` and its helpers gets them when it is next
 * opened (the projectdb upgrades, as schema auth does), with the grants and ownership a template database has: the
 * project's owner writes a policy on it, and supabase-js uploads, lists and downloads; opened again, nothing is made
 * twice and the rows stay.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { projectDbPrefix } from '../../src/server/projectdb/postgres'
import { isPostgres, listenOnPort, projectByName, startTestServer, type TestServer } from './helpers'

let s: TestServer
let close: () => Promise<void>
let origin: string
let ref: string
let admin: SupabaseClient

/** The storage objects' table and helpers as they were before the template had them. */
const DROP = `
drop table storage.objects cascade;
drop function storage.foldername(text), storage.filename(text), storage.extension(text), storage.bucket_holds_objects(text);`

/** On PGlite as the database's owner; on PostgreSQL the platform owns the schema, so through the engine's own connection. */
async function dropStorageObjects() {
  if (!isPostgres) {
    await s.projectDbs.transaction(ref, { role: 'postgres' }, (tx) => tx.exec(DROP))
    return
  }
  const url = new URL(s.config.databaseUrl!)
  url.pathname = `/${projectDbPrefix(s.config.databaseUrl!)}${ref}`
  const engine = new pg.Client({ connectionString: url.toString() })
  await engine.connect()
  try {
    await engine.query(DROP)
  } finally {
    await engine.end()
  }
}

const present = async () => {
  const { rows } = await s.projectDbs.transaction(ref, { role: 'postgres', readOnly: true }, (tx) =>
    tx.query<{ present: boolean }>(`select to_regclass('storage.objects') is not null and to_regprocedure('storage.foldername(text)') is not null as present`),
  )
  return rows[0].present
}

beforeAll(async () => {
  s = await startTestServer()
  ;({ origin, close } = await listenOnPort(s))
  const project = await projectByName(s, 'Acme Storefront')
  ref = project.ref
  const keys = (await findProjectKeys(s.db, project.id))!
  admin = createClient(`${origin}/p/${ref}`, keys.service_role_key, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  })
}, 120_000)

afterAll(async () => {
  await close?.()
  if (ref) await s?.objects.removeProject(ref)
  await s?.close()
})

describe('schema storage on an older project database', () => {
  it('is brought up to date when the database is next opened, and stays as it is after', async () => {
    expect(await present()).toBe(true)
    await dropStorageObjects()
    expect(await present()).toBe(false)
    // Closed and opened again, as a server started on an older store would open it.
    await s.projectDbs.close(ref)
    expect(await present()).toBe(true)

    expect((await admin.storage.createBucket('late', { public: false })).error).toBeNull()
    expect((await admin.storage.from('late').upload('a/first.txt', 'first', { contentType: 'text/plain' })).error).toBeNull()
    // The project's owner writes the policies, as on a template database; the helpers are there for them.
    await s.projectDbs.transaction(ref, { role: 'postgres' }, (tx) =>
      tx.exec(`create policy "late folder a" on storage.objects for select to anon using (bucket_id = 'late' and (storage.foldername(name))[1] = 'a')`),
    )

    await s.projectDbs.close(ref)
    expect((await admin.storage.from('late').upload('a/second.txt', 'second', { contentType: 'text/plain' })).error).toBeNull()
    const listed = await admin.storage.from('late').list('a')
    expect(listed.data?.map((item) => item.name)).toEqual(['first.txt', 'second.txt'])
    expect(await (await admin.storage.from('late').download('a/first.txt')).data?.text()).toBe('first')
    const { rows } = await s.projectDbs.transaction(ref, { role: 'postgres', readOnly: true }, (tx) =>
      tx.query<{ n: number }>(`select count(*)::int as n from pg_policies where schemaname = 'storage' and tablename = 'objects'`),
    )
    expect(rows[0].n).toBe(1)
  }, 120_000)
})
