/**
 * Deploying functions: the official CLI (pinned) deploys with `--use-api` (multipart to the Management API) and sets
 * secrets; supabase-js then gets the function's answer with the secret read from its environment. The Management
 * API's deploy, PATCH, body and secrets answer in the contract's shapes and refuse bad input with a clear 4xx; a
 * deploy cut off half-way leaves the old version serving.
 */
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { createClient } from '@supabase/supabase-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { repoRoot as repoRootPath } from '../../src/server/config'
import { OWNER, projectByName, startTestServer, type TestServer, listenOnPort } from './helpers'

const run = promisify(execFile)

let s: TestServer
let origin: string
let close: () => Promise<void>
let project: { id: number; ref: string }
let anon: string
let token: string
let home: string

const v1 = (p: string) => `${origin}/v1/projects/${project.ref}${p}`
const bearer = () => ({ authorization: `Bearer ${token}` })

function form(metadata: unknown, files: Record<string, string>): FormData {
  const body = new FormData()
  body.append('metadata', JSON.stringify(metadata))
  for (const [name, content] of Object.entries(files)) body.append('file', new Blob([content], { type: 'application/typescript' }), name)
  return body
}

const cli = (args: string[], cwd: string) =>
  run(path.join(repoRootPath, 'node_modules/@supabase/cli-linux-x64/bin/supabase'), [...args, '--profile', path.join(home, 'profile.yaml')], {
    cwd,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      SUPABASE_ACCESS_TOKEN: token,
      SUPABASE_TELEMETRY_DISABLED: '1',
      DO_NOT_TRACK: '1',
    },
    timeout: 60_000,
  })

beforeAll(async () => {
  s = await startTestServer()
  ;({ origin, close } = await listenOnPort(s))
  project = await projectByName(s, 'Recipe Box')
  anon = (await findProjectKeys(s.db, project.id))!.anon_key
  const cookie = await s.signIn(OWNER)
  const res = await s.request('/platform/profile/access-tokens', {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'cli' }),
  })
  token = ((await res.json()) as { token: string }).token
  home = await mkdtemp(path.join(os.tmpdir(), 'kp-fn-cli-'))
  // Hostnames only (the CLI validates them): the API URL carries the port.
  const host = new URL(origin).hostname === "127.0.0.1" ? "localhost" : new URL(origin).hostname
  await writeFile(
    path.join(home, 'profile.yaml'),
    `name: local\napi_url: ${origin}\ndashboard_url: ${origin}\nproject_host: ${host}\npooler_host: ${host}\n`,
  )
}, 120_000)

afterAll(async () => {
  await close?.()
  await s?.close()
  if (home) await rm(home, { recursive: true, force: true })
})

describe('the CLI', () => {
  it('sets a secret and deploys a function with --use-api; supabase-js gets its answer with the secret', async () => {
    const work = path.join(home, 'app')
    await mkdir(path.join(work, 'supabase/functions/greet'), { recursive: true })
    await mkdir(path.join(work, 'supabase/functions/_shared'), { recursive: true })
    await writeFile(path.join(work, 'supabase/config.toml'), `project_id = "app"\n`)
    await writeFile(path.join(work, 'supabase/functions/_shared/word.ts'), `export const word = 'shared'\n`)
    await writeFile(
      path.join(work, 'supabase/functions/greet/index.ts'),
      `import { word } from '../_shared/word.ts'\nDeno.serve(async (req) => {\n  const { name } = await req.json()\n  return Response.json({ text: \`\${Deno.env.get('GREETING')}, \${name}\`, word })\n})\n`,
    )
    await cli(['secrets', 'set', 'GREETING=Salut', '--project-ref', project.ref], work)
    const listed = await cli(['secrets', 'list', '--project-ref', project.ref, '-o', 'json'], work)
    expect(listed.stdout).not.toContain('Salut')
    const deployed = await cli(['functions', 'deploy', 'greet', '--use-api', '--project-ref', project.ref], work)
    expect(`${deployed.stdout}${deployed.stderr}`).toContain('greet')
    const supabase = createClient(`${origin}/p/${project.ref}`, anon, {
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false, autoRefreshToken: false },
    })
    const { data, error } = await supabase.functions.invoke('greet', { body: { name: 'Ada' } })
    expect(error).toBeNull()
    expect(data).toEqual({ text: 'Salut, Ada', word: 'shared' })
  }, 120_000)
})

describe('the Management API', () => {
  it('deploys multipart, answers the body, lists secrets as digests, and PATCH turns verify_jwt off', async () => {
    const res = await fetch(`${v1('/functions/deploy')}?slug=api-fn`, {
      method: 'POST',
      headers: bearer(),
      body: form({ entrypoint_path: 'index.ts', name: 'api-fn' }, { 'index.ts': `Deno.serve(() => new Response('v1'))` }),
    })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ slug: 'api-fn', version: 1, verify_jwt: true, entrypoint_path: 'index.ts', status: 'ACTIVE' })
    const body = await fetch(v1('/functions/api-fn/body'), { headers: { ...bearer(), accept: 'text/plain' } })
    expect(await body.text()).toBe(`Deno.serve(() => new Response('v1'))`)
    expect((await fetch(`${origin}/p/${project.ref}/functions/v1/api-fn`)).status).toBe(401)

    const patched = await fetch(v1('/functions/api-fn'), { method: 'PATCH', headers: { ...bearer(), 'content-type': 'application/json' }, body: JSON.stringify({ verify_jwt: false }) })
    expect(await patched.json()).toMatchObject({ verify_jwt: false, version: 1 })
    const open = await fetch(`${origin}/p/${project.ref}/functions/v1/api-fn`)
    expect(await open.text()).toBe('v1')
    const logs = await s.request(`/platform/projects/${project.ref}/functions/api-fn/logs`, { headers: { cookie: await s.signIn(OWNER) } })
    const entries = ((await logs.json()) as { result: { kind: string; status?: number; method?: string }[] }).result
    // The call refused for want of a key never reached the function: only the one it answered is in its log.
    expect(entries.filter((e) => e.kind === 'invocation').map((e) => [e.method, e.status])).toEqual([['GET', 200]])

    await fetch(v1('/secrets'), { method: 'POST', headers: { ...bearer(), 'content-type': 'application/json' }, body: JSON.stringify([{ name: 'TOKEN_X', value: 'plain-value' }]) })
    const secrets = (await (await fetch(v1('/secrets'), { headers: bearer() })).json()) as { name: string; value: string }[]
    const secret = secrets.find((x) => x.name === 'TOKEN_X')!
    expect(secret.value).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(secrets)).not.toContain('plain-value')
    const removed = await fetch(v1('/secrets'), { method: 'DELETE', headers: { ...bearer(), 'content-type': 'application/json' }, body: JSON.stringify(['TOKEN_X']) })
    expect(removed.status).toBe(200)
    const after = (await (await fetch(v1('/secrets'), { headers: bearer() })).json()) as { name: string }[]
    expect(after.map((x) => x.name)).not.toContain('TOKEN_X')
  }, 60_000)

  it('refuses bad input with a clear 4xx; a deploy cut off half-way leaves the old version serving', async () => {
    const deploy = (query: string, body: BodyInit, headers: Record<string, string> = {}) =>
      fetch(`${v1('/functions/deploy')}${query}`, { method: 'POST', headers: { ...bearer(), ...headers }, body })
    const cases: [string, Response][] = [
      ['unicode slug', await deploy('?slug=h%C3%A9llo', form({ entrypoint_path: 'index.ts' }, { 'index.ts': 'x' }))],
      ['.. slug', await deploy('?slug=..', form({ entrypoint_path: 'index.ts' }, { 'index.ts': 'x' }))],
      ['file outside', await deploy('?slug=ok', form({ entrypoint_path: 'index.ts' }, { 'index.ts': 'x', '../evil.ts': 'y' }))],
      ['no metadata', await deploy('?slug=ok', (() => { const f = new FormData(); f.append('file', new Blob(['x']), 'index.ts'); return f })())],
      ['entry missing', await deploy('?slug=ok', form({ entrypoint_path: 'main.ts' }, { 'index.ts': 'x' }))],
      ['cut off', await deploy('?slug=api-fn', '--xyz\r\nContent-Disposition: form-data; name="metadata"\r\n\r\n{"entrypoint_path":"index.ts"}\r\n--xyz\r\nContent-Disposition: form-data; name="file"; filename="index.ts"\r\n\r\nDeno.serve(() => new Response("v2"', { 'content-type': 'multipart/form-data; boundary=xyz' })],
    ]
    for (const [label, res] of cases) {
      expect(res.status, label).toBe(400)
      expect(((await res.json()) as { message: string }).message, label).toMatch(/\w/)
    }
    const huge = await deploy('?slug=huge', form({ entrypoint_path: 'index.ts' }, { 'index.ts': 'x'.repeat(50 * 1024 * 1024) }))
    expect(huge.status).toBe(413)
    expect(await (await fetch(`${origin}/p/${project.ref}/functions/v1/api-fn`)).text()).toBe('v1')
    const secret = await fetch(v1('/secrets'), { method: 'POST', headers: { ...bearer(), 'content-type': 'application/json' }, body: JSON.stringify([{ name: 'SUPABASE_URL', value: 'x' }]) })
    expect(secret.status).toBe(400)
    expect(await secret.json()).toMatchObject({ message: expect.stringContaining('SUPABASE_') })
  }, 60_000)
})
