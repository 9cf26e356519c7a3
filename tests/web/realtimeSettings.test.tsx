/**
 * Realtime's Settings and Channels pages in the app, on the fake platform: the limits saved through
 * config/realtime (a PATCH answered 204, then read back), a member without realtime:all seeing them read-only, a
 * refused answer shown as the server's message, and the channels open now with their clients.
 */
import { fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { RealtimeChannels, RealtimeConfig } from '../../src/contracts/realtime'
import { platformWith, renderApp } from '../fakePlatform'
import { REF } from '../fixtures'
import { json, platformKeepingSettings, readOnlyWithout } from '../settingsPlatform'

afterEach(() => vi.unstubAllGlobals())

const CONFIG: RealtimeConfig = {
  private_only: false,
  connection_pool: 2,
  max_concurrent_users: 200,
  max_events_per_second: 100,
  max_bytes_per_second: 100_000,
  max_channels_per_client: 100,
  max_joins_per_second: 100,
  max_presence_events_per_second: 100,
  max_presence_keys_per_object: 10,
  max_payload_size_in_kb: 256,
  suspend: false,
  presence_enabled: true,
}

const WITHOUT_REALTIME = readOnlyWithout('realtime:all')

describe('Realtime › Settings', () => {
  it('saves public channels off and a lower event limit through config/realtime, then shows the limits read back', async () => {
    const calls = platformKeepingSettings(`/v1/projects/${REF}/config/realtime`, CONFIG, 'no content')
    renderApp(`/project/${REF}/realtime/settings`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Realtime settings' })).toBeInTheDocument()
    const allow = await screen.findByRole('switch', { name: 'Allow public access' })
    expect(allow).toBeChecked()
    expect(screen.getByLabelText('Max bytes per second')).toHaveValue('100000')
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
    const user = userEvent.setup()
    await user.click(allow)
    fireEvent.change(screen.getByLabelText('Max events per second'), { target: { value: '20' } })
    await user.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Realtime settings saved')).toBeInTheDocument()
    // The save is one PATCH, then the limits read back (the PATCH answers 204).
    const patch = calls.findIndex((c) => c.method === 'PATCH')
    expect(calls.slice(patch).map((c) => c.method)).toEqual(['PATCH', 'GET'])
    expect(calls[patch].body).toMatchObject({ private_only: true, max_events_per_second: 20, max_bytes_per_second: 100_000, presence_enabled: true })
    expect(screen.getByRole('switch', { name: 'Allow public access' })).not.toBeChecked()
    expect(screen.getByLabelText('Max events per second')).toHaveValue('20')
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
  })

  it("a refused save keeps what was typed and shows the server's message", async () => {
    platformWith({}, (method, path) => {
      if (path !== `/v1/projects/${REF}/config/realtime`) return undefined
      return method === 'PATCH' ? json({ message: 'max_events_per_second: Too big: expected number to be <=50000' }, 400) : json(CONFIG)
    })
    renderApp(`/project/${REF}/realtime/settings`)
    const events = await screen.findByLabelText('Max events per second')
    fireEvent.change(events, { target: { value: '500' } })
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    const form = screen.getByRole('form', { name: 'Realtime settings' })
    expect(await within(form).findByRole('alert')).toHaveTextContent('Too big')
    expect(screen.getByLabelText('Max events per second')).toHaveValue('500')
  })

  it('a member without realtime:all sees the limits read-only', async () => {
    platformWith({ permissions: WITHOUT_REALTIME }, (_, path) => (path === `/v1/projects/${REF}/config/realtime` ? json(CONFIG) : undefined))
    renderApp(`/project/${REF}/realtime/settings`)
    expect(await screen.findByText('Your role can see the realtime settings but not change them.')).toBeInTheDocument()
    expect(screen.getByRole('switch', { name: 'Allow public access' })).toBeDisabled()
    expect(screen.getByLabelText('Max concurrent clients')).toHaveAttribute('readonly')
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull()
  })

  it('an answer that breaks the contract is an error with Try again', async () => {
    let answer = json({ ...CONFIG, max_events_per_second: 'lots' })
    platformWith({}, (_, path) => (path === `/v1/projects/${REF}/config/realtime` ? answer : undefined))
    renderApp(`/project/${REF}/realtime/settings`)
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Failed to load the realtime settings')
    answer = json(CONFIG)
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('switch', { name: 'Allow public access' })).toBeChecked()
  })
})

describe('Realtime › Channels', () => {
  it('lists the channels open now with their clients, and the side menu leads to each realtime page', async () => {
    const LIST: RealtimeChannels = {
      connections: 1,
      channels: [{ topic: 'room-1', private: true, clients: [{ id: 'c1', role: 'authenticated', presence_key: 'ada', joined_at: '2026-11-26T08:00:00.000Z' }] }],
    }
    platformWith({}, (_, path) => (path === `/platform/projects/${REF}/realtime/channels` ? json(LIST) : undefined))
    renderApp(`/project/${REF}/realtime/channels`)
    expect(await screen.findByRole('heading', { level: 1, name: 'Realtime channels' })).toBeInTheDocument()
    expect(await screen.findByText('1 open connection, 1 channel')).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 2, name: /room-1 \(private\)/ })).toBeInTheDocument()
    const table = screen.getByRole('table', { name: 'Clients of room-1' })
    expect(within(table).getAllByRole('row').slice(1).map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      ['c1', 'authenticated', 'ada', '2026-11-26 08:00:00 UTC'],
    ])
    for (const [label, section] of [['Inspector', 'inspector'], ['Channels', 'channels'], ['Settings', 'settings']]) {
      expect(screen.getByRole('link', { name: label })).toHaveAttribute('href', `/project/${REF}/realtime/${section}`)
    }
  })
})
