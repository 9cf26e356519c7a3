/**
 * The dashboard's calls for spec 3's project connection and API key info: each answer is parsed by its contract, so
 * an answer missing one of the spec's fields is refused with the malformed-response message, never passed on.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { listProjectConnections } from '../../src/api/calls/github'
import { getProjectApiInfo } from '../../src/api/calls/keys'

const REF = 'abcdefghijklmnopqrst'
const CONNECTION = {
  id: 4,
  foreign_project_id: '11',
  supabase_project_ref: REF,
  integration_id: 1,
  organization_integration_id: 7,
  metadata: { id: 11, name: 'demo-pro/notes-app', installation_id: 7, framework: null },
  inserted_at: '2026-11-02T09:30:00.000Z',
  updated_at: '2026-11-02T09:30:00.000Z',
  added_by: { id: 1, primary_email: 'owner@example.com', username: 'owner' },
}
const API_INFO = { autoApiService: { protocol: 'http', endpoint: `127.0.0.1:8787/p/${REF}`, defaultApiKey: 'eyJ.anon', serviceApiKey: 'eyJ.service' } }

function answer(body: unknown) {
  const paths: string[] = []
  vi.stubGlobal('fetch', async (input: Request) => {
    paths.push(new URL(input.url, 'http://localhost').pathname)
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
  })
  return paths
}

afterEach(() => vi.unstubAllGlobals())

describe('project connections', () => {
  it("reads the installation's project connections with every field of the spec", async () => {
    const paths = answer([CONNECTION])
    expect(await listProjectConnections(7)).toEqual([CONNECTION])
    expect(paths).toEqual(['/platform/integrations/installations/7/connections'])
  })

  it.each(['foreign_project_id', 'supabase_project_ref', 'integration_id', 'organization_integration_id', 'added_by'])('refuses a connection without %s', async (field) => {
    const { [field as keyof typeof CONNECTION]: _, ...rest } = CONNECTION
    answer([rest])
    await expect(listProjectConnections(7)).rejects.toThrow(/Malformed response from \/platform\/integrations\/installations\/7\/connections/)
  })

  it('refuses metadata without framework', async () => {
    answer([{ ...CONNECTION, metadata: { id: 11, name: 'demo-pro/notes-app', installation_id: 7 } }])
    await expect(listProjectConnections(7)).rejects.toThrow(/Malformed response/)
  })
})

describe('API key info', () => {
  it('reads autoApiService with its endpoint, defaultApiKey and serviceApiKey', async () => {
    const paths = answer(API_INFO)
    expect(await getProjectApiInfo(REF)).toEqual(API_INFO)
    expect(paths).toEqual([`/platform/props/project/${REF}/api`])
  })

  it('accepts an answer without serviceApiKey (no service_api_keys:read), refuses one without defaultApiKey or endpoint', async () => {
    const { serviceApiKey: _, ...withoutService } = API_INFO.autoApiService
    answer({ autoApiService: withoutService })
    expect((await getProjectApiInfo(REF)).autoApiService).toEqual(withoutService)
    for (const field of ['defaultApiKey', 'endpoint'] as const) {
      const { [field]: __, ...rest } = API_INFO.autoApiService
      answer({ autoApiService: rest })
      await expect(getProjectApiInfo(REF)).rejects.toThrow(/Malformed response/)
    }
  })
})
