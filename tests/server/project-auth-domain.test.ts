/**
 * A project's auth service under its custom domain, once the domain is active: supabase-js on the domain's URL signs
 * up and in, e-mail links and the tokens' issuer are on the domain, the platform's own URL keeps working, and the
 * domain serves the project's API only. A domain not active, removed, or claimed by two projects is not served.
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
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/auth/v1/settings', headers: { host: `${DOMAIN}:${port}`, apikey: env.keys.anon } }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      req.on('error', reject)
      req.end()
    })
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toMatchObject({ external: { email: true }, disable_signup: false })
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
