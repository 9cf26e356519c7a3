/**
 * Settings › Database's 'Reset database password' through the real app, on a fake platform: the dialog holds the
 * new password to the rule, sends it once strong enough, and says the old one no longer works; a refusal keeps the
 * dialog and what was typed.
 */
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { DatabaseConnection } from '../../src/contracts/settings'
import { REF } from '../fixtures'
import { fakePlatform, renderApp } from '../fakePlatform'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const CONNECTION: DatabaseConnection = {
  engine: 'pglite',
  server_version: '18.1',
  database: 'postgres',
  user: 'postgres',
  host: null,
  port: null,
  connection_string: null,
  pooler: { enabled: false },
  max_connections: 100,
  size_bytes: 9 * 1024 * 1024,
}

function passwordPlatform(answer: () => Response) {
  const platform = fakePlatform()
  const resets: unknown[] = []
  vi.stubGlobal('fetch', async (input: Request) => {
    const path = new URL(input.url, 'http://localhost').pathname
    if (path === `/platform/projects/${REF}/settings/database`) return json(CONNECTION)
    if (path === `/v1/projects/${REF}/database/password` && input.method === 'PATCH') {
      resets.push(await input.clone().json())
      return answer()
    }
    return platform.fetch(input)
  })
  return { resets }
}

afterEach(() => vi.unstubAllGlobals())

describe('Reset database password', () => {
  it('holds the password to the rule, sends it once strong enough, and says the old one no longer works', async () => {
    const { resets } = passwordPlatform(() => json({ message: 'Database password updated' }))
    renderApp(`/project/${REF}/settings/database`)
    const user = userEvent.setup()
    const section = await screen.findByRole('region', { name: 'Database password' })
    await user.click(within(section).getByRole('button', { name: 'Reset database password' }))
    const dialog = await screen.findByRole('dialog', { name: 'Reset database password' })
    const field = within(dialog).getByLabelText('New password')
    const save = within(dialog).getByRole('button', { name: 'Reset password' })
    expect(save).toBeDisabled()
    await user.type(field, 'short1A')
    expect(field).toHaveAccessibleDescription('Use at least 12 characters (7 so far).')
    expect(save).toBeDisabled()
    await user.clear(field)
    await user.type(field, 'Kitchen-Drawer-42')
    expect(field).toHaveAccessibleDescription(/This password is strong enough/)
    await user.click(save)
    expect(await screen.findByText('Database password reset: connect with the new one from now on.')).toBeInTheDocument()
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(resets).toEqual([{ password: 'Kitchen-Drawer-42' }])
  }, 20_000)

  it("a refusal keeps the dialog and what was typed, with the platform's message", async () => {
    passwordPlatform(() => json({ message: "You do not have permission to reset this project's database password" }, 403))
    renderApp(`/project/${REF}/settings/database`)
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Reset database password' }))
    const dialog = await screen.findByRole('dialog', { name: 'Reset database password' })
    await user.type(within(dialog).getByLabelText('New password'), 'Kitchen-Drawer-42')
    await user.click(within(dialog).getByRole('button', { name: 'Reset password' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent("You do not have permission to reset this project's database password")
    expect(within(dialog).getByLabelText('New password')).toHaveValue('Kitchen-Drawer-42')
  }, 20_000)
})
