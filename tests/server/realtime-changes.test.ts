/**
 * postgres_changes with supabase-js: every realtime snippet of the API docs run as written (subscribe to inserts,
 * updates, deletes, all changes, the whole schema, and unsubscribe), each change delivered only to subscribers whose
 * role may SELECT the row (RLS checked as the subscriber: a user never receives another user's row), the filters
 * eq, neq, lt, lte, gt, gte and in, old records as the table's replica identity allows, and subscriptions the server
 * refuses (a table or a column that does not exist, SQL in a filter). A project deleted while clients listen: its
 * sockets close and its change feed stops listening, other projects' feeds unaffected.
 */
import type { SupabaseClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import pg from 'pg'
import WebSocket from 'ws'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { startWireServer } from '../../src/server/features/wire/server'
import { OWNER, projectByName } from './helpers'
import type { DocTable } from '../../machines/restDocs'
import { realtimeSnippets, tableSnippets } from '../../src/views/project/apiDocs/snippets'
import { inbox, sleep, startRealtimeServer, subscribed, type RealtimeTestServer } from './realtime-support'

let env: RealtimeTestServer

const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<unknown>

interface Change {
  eventType: string
  table: string
  schema: string
  new: Record<string, unknown>
  old: Record<string, unknown>
  errors: unknown
}

const NOTES: DocTable = {
  name: 'notes',
  kind: 'table',
  rawKind: 'table',
  description: null,
  fields: [{ name: 'id', format: 'bigint', type: 'integer', description: null, required: true }],
  insertable: true,
  updatable: true,
  deletable: true,
}

beforeAll(async () => {
  env = await startRealtimeServer('Recipe Box', { realtime: { newTablesRescanMs: 100 } })
  await env.sql(`create table public.notes (id bigint generated always as identity primary key, owner text not null, body text, n int)`)
  await env.sql(`alter table public.notes enable row level security`)
  await env.sql(`create policy "public notes" on public.notes for select to anon using (owner = 'public')`)
  await env.sql(`create policy "own notes" on public.notes for select to authenticated using (owner = auth.jwt() ->> 'sub')`)
  await env.sql(`create table public.unpublished (id int primary key, body text)`)
  await env.sql(`alter publication supabase_realtime add table public.notes`)
}, 120_000)

afterAll(async () => {
  await env?.close()
})

/** Runs a snippet's JavaScript with `supabase` and a `console` whose log collects the changes; answers `channel`. */
async function runSnippet(js: string, supabase: SupabaseClient, log: (payload: Change) => void) {
  const fakeConsole = { log: (_label: string, payload: Change) => log(payload) }
  return new AsyncFunction('supabase', 'console', `${js}\nreturn typeof channel !== 'undefined' ? channel : undefined`)(supabase, fakeConsole)
}

const ctx = () => ({ projectUrl: env.url, anonKey: env.keys.anon, serviceKey: env.keys.service })
const snippet = (id: string) => [...tableSnippets(NOTES, ctx()), ...realtimeSnippets(ctx())].find((s) => s.id === id)!.js!

/** Waits until the client's channels are all joined (the snippets subscribe without a callback). */
async function joined(client: SupabaseClient) {
  for (let i = 0; i < 400 && client.getChannels().some((c) => c.state !== 'joined'); i++) await sleep(50)
  expect(client.getChannels().map((c) => c.state)).not.toContain('joining')
}

describe('the API docs realtime snippets with supabase-js', () => {
  it('subscribe to inserts, updates, deletes and all changes each receive their events of the table', async () => {
    const client = env.client()
    const got: Record<string, ReturnType<typeof inbox<Change>>> = {}
    for (const id of ['subscribe-to-inserts', 'subscribe-to-updates', 'subscribe-to-deletes', 'subscribe-to-all-changes', 'subscribe-to-database-changes']) {
      got[id] = inbox<Change>()
      await runSnippet(snippet(id), client, (p) => got[id].push(p))
    }
    await joined(client)
    const [row] = await env.sql<{ id: number }>(`insert into notes (owner, body, n) values ('public', 'first', 1) returning id::int`)
    await env.sql(`update notes set body = 'changed' where id = $1`, [row.id])
    await env.sql(`delete from notes where id = $1`, [row.id])

    const [insert] = await got['subscribe-to-inserts'].waitFor(1)
    expect(insert).toMatchObject({ eventType: 'INSERT', schema: 'public', table: 'notes', new: { id: row.id, owner: 'public', body: 'first', n: 1 }, old: {}, errors: null })
    const [update] = await got['subscribe-to-updates'].waitFor(1)
    expect(update).toMatchObject({ eventType: 'UPDATE', new: { id: row.id, body: 'changed' }, old: { id: row.id } })
    const [del] = await got['subscribe-to-deletes'].waitFor(1)
    expect(del).toMatchObject({ eventType: 'DELETE', new: {}, old: { id: row.id } })
    expect((await got['subscribe-to-all-changes'].waitFor(3)).map((c) => c.eventType)).toEqual(['INSERT', 'UPDATE', 'DELETE'])
    expect((await got['subscribe-to-database-changes'].waitFor(3)).map((c) => c.eventType)).toEqual(['INSERT', 'UPDATE', 'DELETE'])
    await sleep(200)
    expect(got['subscribe-to-inserts'].items).toHaveLength(1)
    expect(got['subscribe-to-updates'].items).toHaveLength(1)
    expect(got['subscribe-to-deletes'].items).toHaveLength(1)

    // A rolled-back change is never announced; a table outside the publication is not either.
    await env.s.projectDbs
      .transaction(env.project.ref, { role: 'postgres' }, async (tx) => {
        await tx.query(`insert into notes (owner, body) values ('public', 'rolled back')`)
        throw new Error('roll back')
      })
      .catch(() => {})
    await env.sql(`insert into unpublished values (1, 'x')`)
    await sleep(300)
    expect(got['subscribe-to-database-changes'].items).toHaveLength(3)

    // Unsubscribe (the snippet removes `channel`): that channel hears nothing more, the others still do.
    const last = inbox<Change>()
    const channel = await runSnippet(snippet('subscribe-to-inserts'), env.client(), (p) => last.push(p))
    await sleep(300)
    await new AsyncFunction('supabase', 'channel', snippet('unsubscribe'))(client, channel)
    await env.sql(`insert into notes (owner, body) values ('public', 'after')`)
    expect((await got['subscribe-to-all-changes'].waitFor(4)).at(-1)).toMatchObject({ eventType: 'INSERT', new: { body: 'after' } })
  })
})

describe('postgres_changes', () => {
  it("delivers a row only to subscribers whose role may SELECT it: a user never receives another user's row", async () => {
    const u1 = env.client()
    const u2 = env.client()
    const anon = env.client()
    await u1.realtime.setAuth(await env.userToken('u1'))
    await u2.realtime.setAuth(await env.userToken('u2'))
    const seen = { u1: inbox<Change>(), u2: inbox<Change>(), anon: inbox<Change>() }
    for (const [name, client] of [['u1', u1], ['u2', u2], ['anon', anon]] as const) {
      await subscribed(client.channel(`rls-${name}`).on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'notes' }, (p) => seen[name].push(p as never)))
    }
    await env.sql(`insert into notes (owner, body) values ('u1', 'for u1'), ('u2', 'for u2'), ('public', 'for all')`)
    expect((await seen.u1.waitFor(1)).map((c) => c.new.body)).toEqual(['for u1'])
    expect((await seen.u2.waitFor(1)).map((c) => c.new.body)).toEqual(['for u2'])
    expect((await seen.anon.waitFor(1)).map((c) => c.new.body)).toEqual(['for all'])
    await sleep(300)
    expect(seen.u1.items.map((c) => c.new.owner)).toEqual(['u1'])
    expect(seen.u2.items.map((c) => c.new.owner)).toEqual(['u2'])
    expect(seen.anon.items.map((c) => c.new.owner)).toEqual(['public'])
  })

  it('an update is delivered even when the row is deleted while its visibility is being checked', async () => {
    // The check of a changed row under RLS looks at the table as it is now; a delete committed in the middle of that
    // look must not make an update the subscriber was allowed to see vanish.
    const client = env.client()
    const updates = inbox<Change>()
    await subscribed(client.channel('update-then-delete').on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'notes' }, (p) => updates.push(p as never)))
    const rounds = 40
    for (let i = 0; i < rounds; i++) {
      const [row] = await env.sql<{ id: number }>(`insert into notes (owner, body) values ('public', 'race') returning id::int`)
      await env.sql(`update notes set body = $2 where id = $1`, [row.id, `race ${i}`])
      await env.sql(`delete from notes where id = $1`, [row.id])
    }
    expect((await updates.waitFor(rounds, 30_000)).map((c) => c.new.body)).toEqual(Array.from({ length: rounds }, (_, i) => `race ${i}`))
  }, 60_000)

  it("a channel joined with a user's token (setAuth) follows that token: a refreshed token for another user switches the rows it receives", async () => {
    const client = env.client()
    await client.realtime.setAuth(await env.userToken('switch-a'))
    const got = inbox<Change>()
    await subscribed(client.channel('as-user').on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'notes' }, (p) => got.push(p as never)))
    await env.sql(`insert into notes (owner, body) values ('switch-b', 'b1'), ('switch-a', 'a1')`)
    expect((await got.waitFor(1)).map((c) => c.new.body)).toEqual(['a1'])
    // realtime-js pushes the new token to every joined channel (access_token); the server then checks as that user.
    await client.realtime.setAuth(await env.userToken('switch-b'))
    // The push is not acknowledged: insert b's marker (and one of a's) until b's arrives, then the switch is applied.
    for (let i = 0; i < 150 && !got.items.some((c) => c.new.body === 'b-marker'); i++) {
      await env.sql(`insert into notes (owner, body) values ('switch-b', 'b-marker'), ('switch-a', 'a-after')`)
      await got.waitFor(got.items.length + 1, 200)
    }
    const bodies = got.items.map((c) => c.new.body)
    expect(bodies[0]).toBe('a1')
    expect(bodies.slice(1).every((b) => b === 'b-marker' || b === 'a-after')).toBe(true)
    expect(bodies).toContain('b-marker')
    // After the switch, a's rows no longer arrive.
    const count = got.items.length
    await env.sql(`insert into notes (owner, body) values ('switch-a', 'a-late'), ('switch-b', 'b-late')`)
    const after = (await got.waitFor(count + 1)).slice(count).map((c) => c.new.body)
    await sleep(200)
    expect(after).toEqual(['b-late'])
    expect(got.items.slice(count).map((c) => c.new.body)).toEqual(['b-late'])
  })

  it("a schema-wide join receives the changes of tables published after it, and of tables created after it", async () => {
    await env.sql(`create table public.published_later (id int primary key, body text)`)
    const client = env.client(env.keys.service)
    const star = inbox<Change>()
    const whole = inbox<Change>()
    await subscribed(
      client
        .channel('schema-wide')
        .on('postgres_changes', { event: '*', schema: 'public', table: '*' }, (p) => star.push(p as never))
        .on('postgres_changes', { event: 'INSERT', schema: 'public' }, (p) => whole.push(p as never)),
    )
    // Published after the join: captured from the moment it is published.
    await env.sql(`alter publication supabase_realtime add table public.published_later`)
    await env.sql(`insert into published_later values (1, 'published after the join')`)
    expect((await star.waitFor(1)).map((c) => [c.table, c.new.body])).toEqual([['published_later', 'published after the join']])
    expect((await whole.waitFor(1)).map((c) => c.table)).toEqual(['published_later'])

    // Created (and published) after the join: found in the catalog soon after; insert until its first row arrives.
    await env.sql(`create table public.created_later (id int generated always as identity primary key, body text)`)
    await env.sql(`alter publication supabase_realtime add table public.created_later`)
    for (let i = 0; i < 100 && !star.items.some((c) => c.table === 'created_later'); i++) {
      await env.sql(`insert into created_later (body) values ('created after the join')`)
      await star.waitFor(star.items.length + 1, 100)
    }
    const first = star.items.find((c) => c.table === 'created_later')
    expect(first).toMatchObject({ eventType: 'INSERT', schema: 'public', table: 'created_later', new: { body: 'created after the join' } })
    // From then on every change of it arrives, updates and deletes too.
    await env.sql(`update created_later set body = 'updated' where id = $1`, [first!.new.id])
    await env.sql(`delete from created_later where id = $1`, [first!.new.id])
    // Delivered in commit order: the update and the delete come after every insert of the loop.
    for (let i = 0; i < 200 && star.items.at(-1)?.eventType !== 'DELETE'; i++) await star.waitFor(star.items.length + 1, 100)
    expect(star.items.slice(-2).map((c) => [c.table, c.eventType, c.old.id])).toEqual([
      ['created_later', 'UPDATE', first!.new.id],
      ['created_later', 'DELETE', first!.new.id],
    ])
    await client.removeAllChannels()
  })

  it('filters with eq, neq, lt, lte, gt, gte and in', async () => {
    const client = env.client(env.keys.service)
    const filters = ['n=eq.3', 'n=neq.3', 'n=lt.3', 'n=lte.3', 'n=gt.3', 'n=gte.3', 'n=in.(1,5)', 'body=eq.filter-2']
    const got = new Map(filters.map((f) => [f, inbox<Change>()]))
    for (const [i, f] of filters.entries()) {
      await subscribed(client.channel(`filter-${i}`).on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'notes', filter: f }, (p) => got.get(f)!.push(p as never)))
    }
    await env.sql(`insert into notes (owner, body, n) select 'public', 'filter-' || i, i from generate_series(1, 5) i`)
    await got.get('n=neq.3')!.waitFor(4)
    await sleep(300)
    const ns = (f: string) => got.get(f)!.items.map((c) => c.new.n).sort()
    expect(ns('n=eq.3')).toEqual([3])
    expect(ns('n=neq.3')).toEqual([1, 2, 4, 5])
    expect(ns('n=lt.3')).toEqual([1, 2])
    expect(ns('n=lte.3')).toEqual([1, 2, 3])
    expect(ns('n=gt.3')).toEqual([4, 5])
    expect(ns('n=gte.3')).toEqual([3, 4, 5])
    expect(ns('n=in.(1,5)')).toEqual([1, 5])
    expect(ns('body=eq.filter-2')).toEqual([2])
  })

  it("sends the whole old record with replica identity full, else only the primary key", async () => {
    const client = env.client(env.keys.service)
    const got = inbox<Change>()
    await subscribed(client.channel('old-records').on('postgres_changes', { event: 'UPDATE', schema: 'public', table: 'notes' }, (p) => got.push(p as never)))
    const [row] = await env.sql<{ id: number }>(`insert into notes (owner, body, n) values ('public', 'before', 7) returning id::int`)
    await env.sql(`update notes set body = 'after' where id = $1`, [row.id])
    const [first] = await got.waitFor(1)
    expect(first.old).toMatchObject({ id: row.id })
    expect(first.old.body).toBeUndefined()
    await env.sql(`alter table notes replica identity full`)
    await env.sql(`update notes set body = 'again' where id = $1`, [row.id])
    const [, second] = await got.waitFor(2)
    expect(second.old).toEqual({ id: row.id, owner: 'public', body: 'after', n: 7 })
    expect(second.new).toMatchObject({ body: 'again' })
    await env.sql(`alter table notes replica identity default`)
  })

  it('refuses a subscription to a table or a column that does not exist, or SQL in a filter, with a clear error', async () => {
    const client = env.client()
    const attempts: [string, Record<string, string>][] = [
      ['no-table', { event: '*', schema: 'public', table: 'nope' }],
      ['no-column', { event: '*', schema: 'public', table: 'notes', filter: 'nope=eq.1' }],
      ['sql-column', { event: '*', schema: 'public', table: 'notes', filter: 'id; drop table notes=eq.1' }],
      ['bad-op', { event: '*', schema: 'public', table: 'notes', filter: 'id=like.1' }],
    ]
    for (const [name, filter] of attempts) {
      await expect(subscribed(client.channel(name).on('postgres_changes', filter as never, () => {})), name).rejects.toThrow(/Unable to subscribe to changes/)
    }
    // SQL as a value is only ever a value: it matches nothing, and the table is still there.
    const got = inbox<Change>()
    await subscribed(env.client().channel('sql-value').on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'notes', filter: "body=eq.x'; drop table notes; --" }, (p) => got.push(p)))
    await env.sql(`insert into notes (owner, body) values ('public', 'plain')`)
    await sleep(300)
    expect(got.items).toEqual([])
    expect(await env.sql(`select to_regclass('public.notes')::text as t`)).toEqual([{ t: 'notes' }])
  })
})

describe('a client of the Postgres port', () => {
  it("neither misses nor stops the change feed: its own changes arrive, and so do later ones, after its UNLISTEN too", async () => {
    const wire = await startWireServer({ db: env.s.db, projectDbs: env.s.projectDbs, config: { ...env.s.config, wire: { ...env.s.config.wire, port: 0 } } })
    try {
      const password = 'wire-and-realtime-1'
      const cookie = await env.s.signIn(OWNER)
      const set = await env.s.request(`/v1/projects/${env.project.ref}/database/password`, {
        method: 'PATCH',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ password }),
      })
      expect(set.status).toBe(200)
      const got = inbox<Change>()
      await subscribed(env.client().channel('wire-feed').on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'notes' }, (p) => got.push(p as never)))
      const c = new pg.Client({ connectionString: `postgresql://postgres.${env.project.ref}:${password}@127.0.0.1:${wire.port}/postgres` })
      await c.connect()
      try {
        await c.query(`insert into notes (owner, body) values ('public', 'over the wire')`)
        expect((await got.waitFor(1)).at(-1)).toMatchObject({ new: { body: 'over the wire' } })
        // What the client may do in its own session does not reach the platform's.
        await c.query('unlisten *')
        await c.query('discard all')
      } finally {
        await c.end()
      }
      await env.sql(`insert into notes (owner, body) values ('public', 'after the client')`)
      expect((await got.waitFor(2)).at(-1)).toMatchObject({ new: { body: 'after the client' } })
    } finally {
      await wire.close()
    }
  })
})

describe('a deleted project', () => {
  it('closes its realtime sockets and stops its change feed; another project keeps its own', async () => {
    // The change feeds' LISTENs on each project's database, counted as they start and stop.
    const dbs = env.s.projectDbs
    const listen = dbs.listen!.bind(dbs)
    const listening = new Map<string, number>()
    const count = (ref: string, by: number) => listening.set(ref, (listening.get(ref) ?? 0) + by)
    dbs.listen = async (ref, channel, onPayload) => {
      const stop = await listen(ref, channel, onPayload)
      count(ref, 1)
      return async () => {
        count(ref, -1)
        await stop()
      }
    }
    try {
      const doomed = await projectByName(env.s, 'Acme Storefront')
      const keys = (await findProjectKeys(env.s.db, doomed.id))!
      await env.s.projectDbs.transaction(doomed.ref, { role: 'postgres' }, async (tx) => {
        await tx.query(`create table public.doomed_notes (id int primary key)`)
        await tx.query(`alter publication supabase_realtime add table public.doomed_notes`)
      })
      const ws = new WebSocket(`${env.origin.replace('http', 'ws')}/p/${doomed.ref}/realtime/v1/websocket?apikey=${encodeURIComponent(keys.anon_key)}&vsn=2.0.0`)
      ws.on('error', () => {})
      const replies = inbox<unknown[]>()
      ws.on('message', (data) => replies.push(JSON.parse(String(data)) as unknown[]))
      const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })))
      await new Promise((resolve) => ws.once('open', resolve))
      ws.send(JSON.stringify(['1', '1', 'realtime:doomed', 'phx_join', { config: { postgres_changes: [{ event: '*', schema: 'public', table: 'doomed_notes' }] } }]))
      const [joined] = await replies.waitFor(1, 30_000)
      expect(joined[4]).toMatchObject({ status: 'ok' })
      expect(listening.get(doomed.ref)).toBe(1)

      // Recipe Box's feed, listening beside it.
      const got = inbox<Change>()
      await subscribed(env.client().channel('kept').on('postgres_changes', { event: 'INSERT', schema: 'public', table: 'notes' }, (p) => got.push(p as Change)))

      const cookie = await env.s.signIn(OWNER)
      const res = await env.s.request(`/v1/projects/${doomed.ref}`, { method: 'DELETE', headers: { cookie, origin: 'http://localhost' } })
      expect(res.status).toBe(200)
      expect(await closed).toEqual({ code: 1001, reason: 'the project was deleted' })
      expect(listening.get(doomed.ref)).toBe(0)
      // Its socket URL no longer opens a socket.
      const again = new WebSocket(`${env.origin.replace('http', 'ws')}/p/${doomed.ref}/realtime/v1/websocket?apikey=${encodeURIComponent(keys.anon_key)}&vsn=2.0.0`)
      const refused = await new Promise<number>((resolve) => {
        again.on('error', () => {})
        again.once('unexpected-response', (_req, r) => resolve(r.statusCode ?? 0))
        again.once('open', () => resolve(101))
      })
      expect(refused).toBeGreaterThanOrEqual(400)
      again.terminate()

      await env.sql(`insert into notes (owner, body) values ('public', 'still heard')`)
      expect((await got.waitFor(1)).map((c) => c.new.body)).toEqual(['still heard'])
    } finally {
      dbs.listen = listen
    }
  })
})
