/**
 * The Authentication pages in the app: Settings › Authentication saved through config/auth, a member without
 * project_auth:all seeing the users and settings read-only, and an answer that breaks its contract shown as an error.
 */
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AuthUserPage } from '../../src/contracts/projectAuth'
import { platformWith, renderApp } from '../fakePlatform'
import { AUTH_CONFIG } from '../fixtures.projectAuth'
import { json, platformKeepingSettings, readOnlyWithout } from '../settingsPlatform'

const REF = 'abcdefghijklmnopqrst'
afterEach(() => vi.unstubAllGlobals())

const PAGE: AuthUserPage = {
  total: 1,
  users: [{ id: '00000000-0000-4000-8000-000000000001', email: 'ada@example.com', created_at: '2026-11-20T10:00:00Z', last_sign_in_at: null, app_metadata: { provider: 'email' }, user_metadata: {} }],
}

const READ_ONLY = readOnlyWithout('project_auth:all', 'projects:write', 'service_api_keys:read')

describe('Settings › Authentication', () => {
  it('saves sign-ups off through config/auth and says so', async () => {
    const calls = platformKeepingSettings(`/v1/projects/${REF}/config/auth`, AUTH_CONFIG, 'settings')
    renderApp(`/project/${REF}/settings/auth`)
    const allow = await screen.findByRole('switch', { name: 'Allow new users to sign up' })
    expect(allow).toBeChecked()
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
    await userEvent.click(allow)
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Auth settings saved')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { site_url: 'http://localhost:3000', uri_allow_list: '', disable_signup: true, mailer_autoconfirm: false, jwt_exp: 3600, password_min_length: 6, password_hibp_enabled: false, external_phone_enabled: false, sms_autoconfirm: false, rate_limit_email_sent: 30, rate_limit_sms_sent: 30, rate_limit_verify: 30, rate_limit_otp: 30, rate_limit_token_refresh: 150 },
    ])
    expect(screen.getByRole('switch', { name: 'Allow new users to sign up' })).not.toBeChecked()
  })

  it('saves the leaked-password rule, the phone provider and a rate limit through config/auth, and shows what the server kept', async () => {
    const calls = platformKeepingSettings(`/v1/projects/${REF}/config/auth`, AUTH_CONFIG, 'settings')
    renderApp(`/project/${REF}/settings/auth`)
    const phone = await screen.findByRole('switch', { name: 'Enable Phone provider' })
    expect(screen.getByRole('switch', { name: 'Enable phone confirmations' })).toBeDisabled()
    await userEvent.click(screen.getByRole('switch', { name: 'Prevent use of leaked passwords' }))
    await userEvent.click(phone)
    expect(screen.getByRole('switch', { name: 'Enable phone confirmations' })).toBeEnabled()
    expect(screen.getByRole('switch', { name: 'Enable phone confirmations' })).toBeChecked()
    const sms = screen.getByLabelText('Rate limit for sending SMS messages')
    await userEvent.clear(sms)
    await userEvent.type(sms, '12')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Auth settings saved')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      expect.objectContaining({ password_hibp_enabled: true, external_phone_enabled: true, sms_autoconfirm: false, rate_limit_sms_sent: 12, rate_limit_verify: 30 }),
    ])
    expect(screen.getByRole('switch', { name: 'Prevent use of leaked passwords' })).toBeChecked()
    expect(screen.getByLabelText('Rate limit for sending SMS messages')).toHaveValue('12')
  })

  it('a member without project_auth:all sees the settings read-only', async () => {
    platformWith({ permissions: READ_ONLY }, (_, path) => (path === `/v1/projects/${REF}/config/auth` ? json(AUTH_CONFIG) : undefined))
    renderApp(`/project/${REF}/settings/auth`)
    expect(await screen.findByText('Your role can see the auth settings but not change them.')).toBeInTheDocument()
    expect(screen.getByRole('switch', { name: 'Confirm email' })).toBeDisabled()
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull()
  })
})

describe('Authentication › Emails', () => {
  it('labels a text message and a WhatsApp message as what they are, and an e-mail as an e-mail', async () => {
    platformWith({}, (_, path) =>
      path === `/platform/projects/${REF}/auth/mailbox`
        ? json({
            messages: [
              { id: 3, recipient: '+15555550101', subject: 'WhatsApp message', body: 'Your code is 654321', link: null, kind: 'phone_confirmation', channel: 'whatsapp', sent_at: '2026-11-26T10:00:00.000Z' },
              { id: 2, recipient: '+15555550100', subject: 'Text message', body: 'Your code is 123456', link: null, kind: 'sms_otp', channel: 'sms', sent_at: '2026-11-26T09:00:00.000Z' },
              { id: 1, recipient: 'ada@example.com', subject: 'Your Magic Link', body: 'Follow this link to login:', link: 'http://localhost/p/x/auth/v1/verify?token=abc&type=magiclink', kind: 'magiclink', channel: 'email', sent_at: '2026-11-26T08:00:00.000Z' },
            ],
          })
        : undefined,
    )
    renderApp(`/project/${REF}/auth/emails`)
    const list = await screen.findByRole('list', { name: 'Messages' })
    const [whatsapp, text, mail] = within(list).getAllByRole('button')
    expect(whatsapp).toHaveTextContent('WhatsApp message: Phone confirmation codeWhatsApp message to +15555550101')
    expect(whatsapp).not.toHaveTextContent(/e-mail|text message/i)
    expect(text).toHaveTextContent('Text message: Sign-in codeText message to +15555550100')
    expect(text).not.toHaveTextContent(/e-mail/i)
    expect(mail).toHaveTextContent('Your Magic LinkE-mail to ada@example.com')
    await userEvent.click(text)
    const article = await screen.findByRole('article', { name: 'Text message: Sign-in code' })
    expect(article).toHaveTextContent('Your code is 123456')
    expect(within(article).queryByRole('link')).toBeNull()
  })
})

describe('Authentication › Users', () => {
  it('a member without project_auth:all sees the list and a user, with no Add user and no actions', async () => {
    const calls = platformWith({ permissions: READ_ONLY }, (_, path) => (path === `/platform/auth/${REF}/users` ? json(PAGE) : undefined))
    renderApp(`/project/${REF}/auth/users`)
    const table = await screen.findByRole('table', { name: 'Users' })
    expect(within(table).getByRole('rowheader', { name: 'ada@example.com' })).toBeInTheDocument()
    expect(screen.getByText('Your role can see the users but not change them.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Add user' })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'View user ada@example.com' }))
    const panel = await screen.findByRole('dialog', { name: 'User' })
    expect(within(panel).queryByRole('button', { name: 'Send magic link' })).toBeNull()
    expect(calls.every((c) => c.method === 'GET')).toBe(true)
  })

  it('an answer that breaks its contract is an error with a message, not a crash', async () => {
    platformWith({}, (_, path) => (path === `/platform/auth/${REF}/users` ? json({ users: [{ email: 42 }], total: 1 }) : undefined))
    renderApp(`/project/${REF}/auth/users`)
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Failed to load users'))
    expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled()
  })
})
