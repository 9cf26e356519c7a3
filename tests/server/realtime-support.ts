/**
 * What the realtime tests share: a running server whose Node server hands WebSocket upgrades to the app (as start.ts
 * does), a project with its keys, supabase-js clients on it (the `ws` transport: Node 20 has no WebSocket), SQL as
 * the project owner, and waiting for what a callback receives.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createClient, type RealtimeChannel, type SupabaseClient } from '@supabase/supabase-js'
import { SignJWT } from 'jose'
import WebSocket from 'ws'
import { findProjectKeys } from '../../src/server/features/keys/store'
import type { Db } from '../../src/server/db'
import { projectByName, startTestServer, type ConfigOverrides, type FakeClock, type TestServer, type TestStore } from './helpers'

export interface RealtimeTestServer {
  s: TestServer
  origin: string
  project: { id: number; ref: string }
  keys: { anon: string; service: string; secret: string }
  url: string
  /** The WebSocket URL realtime-js opens (without its query). */
  socketUrl: string
  client(key?: string): SupabaseClient
  sql<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>
  /** A user's access token signed with the project's secret (what the auth service issues). */
  userToken(sub: string, opts?: { expiresInSeconds?: number }): Promise<string>
  /** Stops the server; `destroy: false` keeps the store (another server still uses it). */
  close(opts?: { destroy?: boolean }): Promise<void>
}

export async function startRealtimeServer(
  projectName = 'Recipe Box',
  config: ConfigOverrides = {},
  shared?: { store: TestStore; db: Db; clock?: FakeClock },
): Promise<RealtimeTestServer> {
  const s = await startTestServer({ config, ...shared })
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const srv = serve({ fetch: s.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(srv))
  })
  server.on('upgrade', s.upgrade)
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  s.listeningOn(origin)
  const p = await projectByName(s, projectName)
  const row = (await findProjectKeys(s.db, p.id))!
  const clients: SupabaseClient[] = []
  const env: RealtimeTestServer = {
    s,
    origin,
    project: { id: p.id, ref: p.ref },
    keys: { anon: row.anon_key, service: row.service_role_key, secret: row.jwt_secret },
    url: `${origin}/p/${p.ref}`,
    socketUrl: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/p/${p.ref}/realtime/v1/websocket`,
    client: (key = env.keys.anon) => {
      const c = createClient(env.url, key, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        realtime: { transport: WebSocket as never, heartbeatIntervalMs: 5_000 },
      })
      clients.push(c)
      return c
    },
    sql: async (text, params) => (await s.projectDbs.transaction(p.ref, { role: 'postgres' }, (tx) => tx.query(text, params))).rows as never,
    userToken: (sub, opts = {}) =>
      new SignJWT({ role: 'authenticated', sub, aud: 'authenticated', ref: p.ref })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(s.clock.epoch())
        .setExpirationTime(s.clock.epoch(opts.expiresInSeconds ?? 3600))
        .sign(new TextEncoder().encode(env.keys.secret)),
    async close(opts) {
      for (const c of clients) await c.removeAllChannels().catch(() => {})
      for (const c of clients) c.realtime.disconnect()
      ;(server as import("node:http").Server).closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await s.close(opts)
    },
  }
  return env
}

/** Subscribes and resolves once SUBSCRIBED; rejects with the error of CHANNEL_ERROR / TIMED_OUT. */
export function subscribed(channel: RealtimeChannel): Promise<RealtimeChannel> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') resolve(channel)
      else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') reject(err ?? new Error(status))
    })
  })
}

/** A list a callback fills, and a wait for it to hold `n` items (or `ms` to pass: then it answers what it has). */
export function inbox<T>() {
  const items: T[] = []
  const waiters: { n: number; resolve: () => void }[] = []
  return {
    items,
    push(item: T) {
      items.push(item)
      for (const w of [...waiters]) if (items.length >= w.n) w.resolve()
    },
    async waitFor(n: number, ms = 20_000): Promise<T[]> {
      if (items.length < n) {
        await new Promise<void>((resolve) => {
          const w = { n, resolve }
          waiters.push(w)
          setTimeout(resolve, ms).unref()
        })
      }
      return items
    },
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
