/**
 * A project's auth service under its custom domain, once the domain is active: supabase-js on the domain's URL signs
 * up and in, e-mail links and the tokens' issuer are on the domain, the platform's own URL keeps working, and the
 * domain serves the project's API only. A domain not active, removed, or claimed by two projects is not served.
 * Realtime's WebSocket and storage's resumable uploads work on the domain too, over real sockets whose Host is it.
 */
import { request as httpRequest } from 'node:http'
import { createClient } from '@supabase/supabase-js'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { json, projectByName } from './helpers'
import { startAuthServer, type AuthTestServer } from './project-auth-support'

const DOMAIN = 'api.acme.test'
let env: AuthTestServer
let port: string
/** The project's API under its domain: the platform's scheme and port, the domain's name. */
let domainOrigin: string

beforeAll(async () => {
  env = await startAuthServer('Acme Storefront')
  port = new URL(env.origin).port
  domainOrigin = `http://${DOMAIN}:${port}`
}, 120_000)

afterAll(async () => {
  await env?.close()
})

const setDomain = async (ref: string, body: unknown) => {
  const res = await env.s.request(`/dev/projects/${ref}/custom-hostname`, json(body))
  expect(res.status).toBe(200)
}
/** A request as it arrives for the domain: the app reads the Host from the URL when no header says otherwise. */
const viaDomain = (path: string, init: RequestInit = {}) => env.s.app.fetch(new Request(`${domainOrigin}${path}`, { redirect: 'manual', ...init }))
const domainClient = () =>
  createClient(domainOrigin, env.keys.anon, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    realtime: { transport: WebSocket as never },
    // The domain does not resolve here: its requests are handed to the app as they would arrive.
    global: { fetch: async (input, init) => env.s.app.fetch(new Request(input, init)) },
  })
const keyed = { headers: { apikey: '' } }

/** One HTTP request over a real socket to the server, with the domain in its Host header as a browser sends it. */
function overSocket(method: string, path: string, headers: Record<string, string>, body?: Buffer) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { host: `${DOMAIN}:${port}`, ...headers } }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/**
 * realtime-js' transport for the domain, which does not resolve here: the socket goes to the server's address, with
 * the domain's name in its Host header, as it arrives from a browser on the domain.
 */
class DomainSocket extends WebSocket {
  constructor(url: string, protocols?: string | string[]) {
    const target = new URL(url)
    const host = target.host
    target.hostname = '127.0.0.1'
    super(target.toString(), protocols, { headers: { host } })
  }
}
const mailTo = async (email: string) => (await env.mailbox()).find((m) => m.recipient === email)!

describe('auth under the custom domain', () => {
  it('is not served while the domain is being set up: 421, as for any host the server does not know', async () => {
    await setDomain(env.project.ref, { hostname: DOMAIN, status: '4_origin_setup_completed' })
    keyed.headers.apikey = env.keys.anon
    const res = await viaDomain('/auth/v1/settings', keyed)
    expect(res.status).toBe(421)
  })

  it('once active: supabase-js on the domain signs up and in, links and the issuer are on the domain, the project URL still works', async () => {
    await setDomain(env.project.ref, { hostname: DOMAIN })
    const client = domainClient()
    const signedUp = await client.auth.signUp({ email: 'domain@example.com', password: 'on the domain' })
    expect(signedUp.error).toBeNull()
    expect(signedUp.data.session).toBeNull()
    const mail = await mailTo('domain@example.com')
    expect(mail.link!.startsWith(`${domainOrigin}/auth/v1/verify?token=`)).toBe(true)

    const link = new URL(mail.link!)
    const verified = await viaDomain(`${link.pathname}${link.search}`)
    expect(verified.status).toBe(303)
    const fragment = new URLSearchParams(verified.headers.get('location')!.split('#')[1])
    expect(decodeJwt(fragment.get('access_token')!)).toMatchObject({ iss: `${domainOrigin}/auth/v1`, email: 'domain@example.com' })

    const signedIn = await client.auth.signInWithPassword({ email: 'domain@example.com', password: 'on the domain' })
    expect(signedIn.error).toBeNull()
    expect(decodeJwt(signedIn.data.session!.access_token).iss).toBe(`${domainOrigin}/auth/v1`)
    // The token is the project's: the platform's own URL reads the user with it.
    const onPlatform = await env.client().auth.getUser(signedIn.data.session!.access_token)
    expect(onPlatform.data.user?.email).toBe('domain@example.com')
    expect((await env.client().auth.signInWithPassword({ email: 'domain@example.com', password: 'on the domain' })).error).toBeNull()

    // Over a real socket, with the domain in the Host header as a browser sends it.
    const answer = await overSocket('GET', '/auth/v1/settings', { apikey: env.keys.anon })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toMatchObject({ external: { email: true }, disable_signup: false })
  })

  it("realtime's WebSocket on the domain: supabase-js subscribes and a broadcast comes back to it", async () => {
    const client = createClient(domainOrigin, env.keys.anon, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: DomainSocket as never },
    })
    try {
      const received = new Promise<unknown>((resolve) => {
        const channel = client.channel('on-the-domain', { config: { broadcast: { self: true } } })
        channel.on('broadcast', { event: 'hello' }, (message) => resolve(message.payload))
        channel.subscribe((status, err) => {
          if (status === 'SUBSCRIBED') void channel.send({ type: 'broadcast', event: 'hello', payload: { via: DOMAIN } })
          else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') resolve({ failed: status, err: String(err) })
        })
      })
      expect(await received).toEqual({ via: DOMAIN })
    } finally {
      await client.removeAllChannels()
      client.realtime.disconnect()
    }
    // The upgrade is the project's, keyed as on the project URL: without a key it is refused before any socket opens.
    const unkeyed = await new Promise<number>((resolve, reject) => {
      const socket = new DomainSocket(`ws://${DOMAIN}:${port}/realtime/v1/websocket?vsn=1.0.0`)
      socket.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0)
        socket.terminate()
      })
      socket.on('open', () => reject(new Error('a socket without a key was opened')))
      socket.on('error', () => {})
    })
    expect(unkeyed).toBe(401)
  })

  it("storage's resumable upload on the domain: the Location it answers is on the domain, and the upload finishes through it", async () => {
    const admin = createClient(domainOrigin, env.keys.service, {
      auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      realtime: { transport: WebSocket as never },
      global: { fetch: async (input, init) => env.s.app.fetch(new Request(input, init)) },
    })
    expect((await admin.storage.createBucket('on-domain', { public: false })).error).toBeNull()
    const data = Buffer.from('resumable bytes through the custom domain')
    const b64 = (v: string) => Buffer.from(v).toString('base64')
    const tus = { 'tus-resumable': '1.0.0', apikey: env.keys.service, authorization: `Bearer ${env.keys.service}` }
    const metadata = (name: string) => `bucketName ${b64('on-domain')},objectName ${b64(name)},contentType ${b64('text/plain')}`

    const created = await overSocket('POST', '/storage/v1/upload/resumable', { ...tus, 'upload-length': String(data.length), 'upload-metadata': metadata('a.txt') })
    expect(created.status, created.body).toBe(201)
    const location = String(created.headers.location)
    expect(location.startsWith(`${domainOrigin}/storage/v1/upload/resumable/`)).toBe(true)

    const patched = await overSocket(
      'PATCH',
      new URL(location).pathname,
      { ...tus, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream', 'content-length': String(data.length) },
      data,
    )
    expect(patched.status, patched.body).toBe(204)
    expect(patched.headers['upload-offset']).toBe(String(data.length))
    // Read back over a real socket on the domain too: storage reads the object's key from the raw path.
    const read = await overSocket('GET', '/storage/v1/object/on-domain/a.txt', { apikey: env.keys.service, authorization: `Bearer ${env.keys.service}` })
    expect([read.status, read.body]).toEqual([200, data.toString()])
    const downloaded = await admin.storage.from('on-domain').download('a.txt')
    expect(downloaded.error).toBeNull()
    expect(Buffer.from(await downloaded.data!.arrayBuffer()).toString()).toBe(data.toString())

    // On the project URL, while the domain is active, the Location stays on the URL the client used.
    const onPlatform = await fetch(`${env.url}/storage/v1/upload/resumable`, {
      method: 'POST',
      headers: { ...tus, 'upload-length': '1', 'upload-metadata': metadata('b.txt') },
    })
    expect(onPlatform.status).toBe(201)
    expect(onPlatform.headers.get('location')!.startsWith(`${env.url}/storage/v1/upload/resumable/`)).toBe(true)
  })

  it('serves the project API only: the dashboard, the platform API and other projects are not reached through it', async () => {
    const other = await projectByName(env.s, 'Recipe Box')
    for (const path of ['/', '/platform/profile', '/v1/projects', `/p/${other.ref}/auth/v1/settings`, `/p/${env.project.ref}/auth/v1/settings`, '/auth/v2/settings']) {
      const res = await viaDomain(path, keyed)
      expect(res.status, path).toBe(404)
      expect(await res.json(), path).toEqual({ message: 'no Route matched with those values' })
    }
    // Keys are still checked as on the project URL.
    const unkeyed = await viaDomain('/auth/v1/settings')
    expect(unkeyed.status).toBe(401)
    expect(await unkeyed.json()).toMatchObject({ code: 401, error_code: 'no_authorization' })
  })

  it('a domain two projects claim is served for neither', async () => {
    const other = await projectByName(env.s, 'Recipe Box')
    await setDomain(other.ref, { hostname: DOMAIN })
    expect((await viaDomain('/auth/v1/settings', keyed)).status).toBe(421)
    await setDomain(other.ref, { hostname: null })
    expect((await viaDomain('/auth/v1/settings', keyed)).status).toBe(200)
  })

  it('once removed, the domain is refused and links are on the project URL again', async () => {
    await setDomain(env.project.ref, { hostname: null })
    expect((await viaDomain('/auth/v1/settings', keyed)).status).toBe(421)
    expect((await env.client().auth.signInWithOtp({ email: 'after-domain@example.com' })).error).toBeNull()
    expect((await mailTo('after-domain@example.com')).link!.startsWith(`${env.url}/auth/v1/verify?token=`)).toBe(true)
  })
})
