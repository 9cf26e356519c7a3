/**
 * The project home's 'Connect' dialog through the real app, on a fake platform: it reads the pooler settings when it
 * opens and shows the string of the method and client chosen.
 */
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PoolerConfig } from '../../src/contracts/wire'
import { REF } from '../fixtures'
import { fakePlatform, renderApp } from '../fakePlatform'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const URI = `postgresql://postgres.${REF}:[YOUR-PASSWORD]@127.0.0.1:54322/postgres?sslmode=disable`
const POOLER: PoolerConfig = {
  identifier: REF,
  database_type: 'PRIMARY',
  is_using_scram_auth: true,
  db_user: `postgres.${REF}`,
  db_host: '127.0.0.1',
  db_port: 54322,
  db_name: 'postgres',
  connection_string: URI,
  connectionString: URI,
  default_pool_size: null,
  max_client_conn: 200,
  pool_mode: 'transaction',
}

afterEach(() => vi.unstubAllGlobals())

describe('Connect', () => {
  it('reads the pooler settings when it opens and shows the chosen string', async () => {
    const platform = fakePlatform()
    const reads: string[] = []
    vi.stubGlobal('fetch', async (input: Request) => {
      const path = new URL(input.url, 'http://localhost').pathname
      if (path === `/v1/projects/${REF}/config/database/pooler`) {
        reads.push(path)
        return json([POOLER])
      }
      return platform.fetch(input)
    })
    renderApp(`/project/${REF}`)
    const user = userEvent.setup()
    const connect = await screen.findByRole('button', { name: 'Connect' })
    await vi.waitFor(() => expect(connect).toBeEnabled())
    expect(reads).toEqual([])
    await user.click(connect)
    const dialog = await screen.findByRole('dialog', { name: 'Connect to your project' })
    expect(await within(dialog).findByLabelText('Connection string')).toHaveTextContent(URI)
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Type' }), 'psql')
    expect(within(dialog).getByLabelText('Connection string')).toHaveTextContent(`psql "${URI}"`)
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Method' }), 'transaction')
    await user.selectOptions(within(dialog).getByRole('combobox', { name: 'Type' }), 'prisma')
    expect(within(dialog).getByLabelText('Connection string')).toHaveTextContent('pgbouncer=true')
    expect(reads).toHaveLength(1)
  }, 20_000)
})
