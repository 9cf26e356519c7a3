/**
 * The deployed files of a function, for the dashboard's code viewer: a multi-file deploy answers every file as sent
 * (relative to the function's folder) with the entrypoint and the version; a function made with a single body answers
 * that body as its one file; an unknown function, a bad slug and another organization's project are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FunctionFiles } from '../../src/contracts/functionRuntime'
import { OWNER, READONLY, insertForeignOrganization, json, projectByName, startTestServer, type TestServer } from './helpers'

let s: TestServer
let owner: string
let ref: string

const files = (slug: string, cookie = owner, projectRef = ref) =>
  s.request(`/platform/projects/${projectRef}/functions/${slug}/files`, { headers: { cookie } })

beforeAll(async () => {
  s = await startTestServer()
  owner = await s.signIn(OWNER)
  ref = (await projectByName(s, 'Recipe Box')).ref
}, 60_000)

afterAll(async () => {
  await s?.close()
})

describe('GET /platform/projects/{ref}/functions/{slug}/files', () => {
  it('answers the files of a multi-file deploy, the entrypoint and the version', async () => {
    const body = new FormData()
    body.append('metadata', JSON.stringify({ entrypoint_path: 'index.ts', name: 'two-files' }))
    body.append('file', new Blob(["import { word } from './word.ts'\nDeno.serve(() => new Response(word))\n"]), 'index.ts')
    body.append('file', new Blob(["export const word = 'hi'\n"]), 'lib/word.ts')
    const deployed = await s.request(`/v1/projects/${ref}/functions/deploy?slug=two-files`, { method: 'POST', headers: { cookie: owner }, body })
    expect(deployed.status).toBe(201)
    const res = await files('two-files')
    expect(res.status).toBe(200)
    const answer = FunctionFiles.parse(await res.json())
    expect(answer.entrypoint_path).toBe('index.ts')
    expect(answer.version).toBe(1)
    expect(answer.files).toEqual([
      { name: 'index.ts', content: "import { word } from './word.ts'\nDeno.serve(() => new Response(word))\n" },
      { name: 'lib/word.ts', content: "export const word = 'hi'\n" },
    ])
  })

  it('answers the body of a function made with one body as its single file, to any member', async () => {
    const made = await s.request(`/v1/projects/${ref}/functions`, {
      ...json({ slug: 'one-body', name: 'One body', body: 'Deno.serve(() => new Response("one"))' }),
      headers: { cookie: owner, 'content-type': 'application/json' },
    })
    expect(made.status).toBe(201)
    const res = await files('one-body', await s.signIn(READONLY))
    expect(res.status).toBe(200)
    expect(FunctionFiles.parse(await res.json())).toEqual({
      entrypoint_path: 'index.ts',
      version: 1,
      files: [{ name: 'index.ts', content: 'Deno.serve(() => new Response("one"))' }],
    })
  })

  it('refuses an unknown function (404), a bad slug (400) and a project of another organization (404)', async () => {
    const unknown = await files('no-such-function')
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ message: "No edge function 'no-such-function' in this project" })
    const bad = await files('..%2Fetc')
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { message: string }).message).toMatch(/function_slug/)
    const foreign = await insertForeignOrganization(s.db)
    expect((await files('hello-world', owner, foreign.ref)).status).toBe(404)
  })
})
