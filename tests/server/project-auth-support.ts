/**
 * What the project auth service's tests share: a running server (supabase-js needs a real URL), a project with its
 * keys, a supabase-js client on it, and the project's local mailbox.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { readMailbox } from '../../src/server/features/auth/mail'
import type { AuthSettings } from '../../src/server/features/auth/settings'
import { saveAuthSettings } from '../../src/server/features/auth/store'
import { projectByName, startTestServer, type ConfigOverrides, type FakeClock, type TestServer, type TestStore } from './helpers'

export interface AuthTestServer {
  s: TestServer
  origin: string
  project: { id: number; ref: string }
  keys: { anon: string; service: string; secret: string }
  url: string
  client(key?: string): SupabaseClient
  mailbox(): ReturnType<typeof readMailbox>
  settings(patch: Partial<AuthSettings>): Promise<AuthSettings>
  refreshKeys(): Promise<void>
  /** Stops the server; `destroy: false` keeps its store (a restart test opens it again). */
  close(opts?: { destroy?: boolean }): Promise<void>
}

export async function startAuthServer(
  projectName = 'Recipe Box',
  config: ConfigOverrides = {},
  opts: { store?: TestStore; clock?: FakeClock } = {},
): Promise<AuthTestServer> {
  const s = await startTestServer({ config, ...opts })
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const srv = serve({ fetch: s.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(srv))
  })
  // WebSocket upgrades go through the app as start.ts hands them (realtime on the custom domain).
  server.on('upgrade', s.upgrade)
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  s.listeningOn(origin)
  const p = await projectByName(s, projectName)
  const env: AuthTestServer = {
    s,
    origin,
    project: { id: p.id, ref: p.ref },
    keys: { anon: '', service: '', secret: '' },
    url: `${origin}/p/${p.ref}`,
    client: (key = env.keys.anon) =>
      createClient(env.url, key, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        // Node 20 has no global WebSocket: supabase-js asks for a transport even when realtime is never used.
        realtime: { transport: WebSocket as never },
      }),
    mailbox: () => readMailbox(s.db, p.id),
    settings: (patch) => saveAuthSettings(s.db, p.id, patch),
    async refreshKeys() {
      const row = (await findProjectKeys(s.db, p.id))!
      env.keys = { anon: row.anon_key, service: row.service_role_key, secret: row.jwt_secret }
    },
    async close(closeOpts) {
      ;(server as import('node:http').Server).closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await s.close(closeOpts)
    },
  }
  await env.refreshKeys()
  return env
}

/** The session a link of the mailbox gives: GET it, read the tokens from the redirect's fragment. */
export async function followLink(link: string): Promise<{ location: string; params: URLSearchParams }> {
  const res = await fetch(link, { redirect: 'manual' })
  if (res.status !== 303) throw new Error(`the link answered ${res.status}`)
  const location = res.headers.get('location') ?? ''
  return { location, params: new URLSearchParams(location.split('#')[1] ?? '') }
}
