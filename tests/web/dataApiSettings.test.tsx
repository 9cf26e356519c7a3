/**
 * Settings › API's 'Data API settings' in the app, on the fake platform: the exposed schemas and the row cap saved
 * through /v1/projects/{ref}/postgrest (the PATCH answers what the server kept), a refused save shown with the
 * server's message, a member without projects:write seeing them read-only, and an answer that breaks the contract.
 */
import { fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PostgrestConfig } from '../../src/contracts/wire'
import { platformWith, renderApp } from '../fakePlatform'
import { REF } from '../fixtures'
import { json, platformKeepingSettings, readOnlyWithout } from '../settingsPlatform'

afterEach(() => vi.unstubAllGlobals())

const PATH = `/v1/projects/${REF}/postgrest`
const CONFIG: PostgrestConfig = { db_schema: 'public,graphql_public', max_rows: 1000, db_extra_search_path: '', db_pool: null }

const section = async () => within(await screen.findByRole('form', { name: 'Data API settings' }))

describe('Settings › API › Data API settings', () => {
  it('saves the exposed schemas and max rows through postgrest and shows what the server kept', async () => {
    const calls = platformKeepingSettings(PATH, CONFIG, 'settings')
    renderApp(`/project/${REF}/settings/api`)
    const form = await section()
    expect(form.getByLabelText('Exposed schemas')).toHaveValue('public, graphql_public')
    expect(form.getByLabelText('Max rows')).toHaveValue('1000')
    expect(form.getByRole('button', { name: 'Save' })).toBeDisabled()
    // The same list typed with other spaces is no change.
    fireEvent.change(form.getByLabelText('Exposed schemas'), { target: { value: 'public ,graphql_public' } })
    expect(form.getByRole('button', { name: 'Save' })).toBeDisabled()
    fireEvent.change(form.getByLabelText('Exposed schemas'), { target: { value: 'public, api, public' } })
    fireEvent.change(form.getByLabelText('Max rows'), { target: { value: '250' } })
    await userEvent.click(form.getByRole('button', { name: 'Save' }))
    expect(await form.findByText('Data API settings saved')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ db_schema: 'public,api', max_rows: 250 }])
    expect(form.getByLabelText('Exposed schemas')).toHaveValue('public, api')
    expect(form.getByLabelText('Max rows')).toHaveValue('250')
    expect(form.getByRole('button', { name: 'Save' })).toBeDisabled()
  })

  it("refuses a row cap out of the contract's bounds, and shows a refused save's message with what was typed kept", async () => {
    platformWith({}, (method, path) => {
      if (path !== PATH) return undefined
      return method === 'PATCH' ? json({ message: `db_schema: no such schema in the project's database: "nope"` }, 400) : json(CONFIG)
    })
    renderApp(`/project/${REF}/settings/api`)
    const form = await section()
    fireEvent.change(form.getByLabelText('Max rows'), { target: { value: '2000000' } })
    expect(form.getByLabelText('Max rows')).toHaveAccessibleDescription(expect.stringContaining('Enter a whole number from 0 to 1,000,000'))
    expect(form.getByRole('button', { name: 'Save' })).toBeDisabled()
    fireEvent.change(form.getByLabelText('Max rows'), { target: { value: '1000' } })
    fireEvent.change(form.getByLabelText('Exposed schemas'), { target: { value: 'public, nope' } })
    await userEvent.click(form.getByRole('button', { name: 'Save' }))
    expect(await form.findByRole('alert')).toHaveTextContent('no such schema in the project\'s database: "nope"')
    expect(form.getByLabelText('Exposed schemas')).toHaveValue('public, nope')
  })

  it('a member without projects:write sees them read-only, with nothing to save', async () => {
    platformWith({ permissions: readOnlyWithout('projects:write') }, (_, path) => (path === PATH ? json(CONFIG) : undefined))
    renderApp(`/project/${REF}/settings/api`)
    const form = await section()
    expect(screen.getByText('Your role can see the Data API settings but not change them.')).toBeInTheDocument()
    expect(form.getByLabelText('Exposed schemas')).toHaveAttribute('readonly')
    expect(form.getByLabelText('Max rows')).toHaveAttribute('readonly')
    expect(form.queryByRole('button', { name: 'Save' })).toBeNull()
  })

  it('an answer that breaks the contract is an error with Try again, in the section only', async () => {
    let answer = json({ ...CONFIG, max_rows: 'all' })
    platformWith({}, (_, path) => (path === PATH ? answer : undefined))
    renderApp(`/project/${REF}/settings/api`)
    const region = await screen.findByRole('region', { name: 'Data API settings' })
    const alert = await within(region).findByRole('alert')
    expect(alert).toHaveTextContent('Failed to load the Data API settings')
    expect(screen.getByRole('heading', { level: 1, name: 'API settings' })).toBeInTheDocument()
    answer = json(CONFIG)
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect((await section()).getByLabelText('Max rows')).toHaveValue('1000')
  })
})
