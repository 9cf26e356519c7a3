import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { authUsersMachine, providerLabel, type AddDraft, type AddMode, type UserActionInput, type UsersQuery } from '../machines/authUsers.machine'
import type { AuthEmailBody, AuthUser, AuthUserPage, CreateAuthUserBody } from '../src/contracts/projectAuth'
import { AuthUsers } from '../src/views/project/auth/AuthUsersPage'
import { REF } from '../tests/fixtures'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../machines/projectDatabaseTimeout'

const ev = eventFor(authUsersMachine)
const REQUEST_TIMEOUT = PROJECT_DATABASE_TIMEOUT_MS

const user = (n: number, email: string, over: Partial<AuthUser> = {}): AuthUser => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  email,
  created_at: '2026-11-20T10:00:00.000Z',
  last_sign_in_at: null,
  app_metadata: { provider: 'email', providers: ['email'] },
  user_metadata: { plan: 'pro' },
  identities: [],
  ...over,
})
const ADA = user(1, 'ada@example.com', { last_sign_in_at: '2026-11-25T09:00:00.000Z' })
const BOB = user(2, 'bob@example.org')
const CAROL = user(3, 'carol@example.net')
const ERIN = user(4, 'erin@example.com')
/** 60 users in all: two pages of 50 (only the first rows are given; the page shows what the answer holds). */
const PAGE1: AuthUserPage = { users: [ADA, BOB], total: 60 }
const PAGE2: AuthUserPage = { users: [CAROL], total: 60 }
const FOUND: AuthUserPage = { users: [ADA], total: 1 }
const BANNED: AuthUser = { ...ADA, banned_until: '2099-01-01T00:00:00.000Z' }

const VALID: Partial<AddDraft> = { email: 'erin@example.com', password: 'correct horse' }
const INVALID: Partial<AddDraft> = { email: 'erin@' }

const contextOf = (snapshot: SnapshotFrom<typeof authUsersMachine>) => snapshot.context

const model = modelOf(authUsersMachine, {
  input: { ref: REF, canManage: true },
  events: (snapshot) => {
    const c = contextOf(snapshot)
    // One thing per path from the first page as first read: each flow ends where it leaves the list.
    const pristine =
      c.page === 1 && c.keywords === '' && c.searchDraft === '' && c.notice === null && c.add.email === '' && c.addError === null && c.action === null && c.actionError === null
    if (snapshot.matches('loading')) {
      if (c.keywords !== '') return [{ type: 'xstate.done.actor.listAuthUsers', output: FOUND }]
      if (c.page === 2) return [{ type: 'xstate.done.actor.listAuthUsers', output: PAGE2 }]
      return [
        { type: 'xstate.done.actor.listAuthUsers', output: PAGE1 },
        ...(c.notice === null && c.loadError === null
          ? ([
              { type: 'xstate.done.actor.listAuthUsers', output: { users: [], total: 0 } },
              { type: 'xstate.error.actor.listAuthUsers', error: apiError('The project is paused: restore it to manage its users', 409) },
              { type: 'xstate.after.requestTimeout.authUsers.loading' },
            ] as const)
          : []),
      ]
    }
    if (snapshot.matches('failed')) return [ev({ type: 'users.retry' })]
    if (snapshot.matches({ loaded: 'idle' })) {
      if (c.users.length === 0) return []
      if (pristine) return [ev({ type: 'search.edit', keywords: 'ada' }), ev({ type: 'page.next' }), ev({ type: 'add.open' }), ev({ type: 'user.open', id: ADA.id })]
      if (c.searchDraft === 'ada' && c.keywords === '') return [ev({ type: 'search.submit' })]
      if (c.page === 2) return [ev({ type: 'page.previous' })]
      return []
    }
    if (snapshot.matches({ loaded: { adding: 'editing' } })) {
      const { add, addError } = c
      const edits = addError !== null ? [] : add.email === '' ? [VALID, INVALID, { mode: 'invite' as AddMode, email: VALID.email }] : add.email === INVALID.email ? [VALID] : []
      const submit = snapshot.can({ type: 'add.submit' }) ? [ev({ type: 'add.submit' })] : []
      return [...edits.map((draft) => ev({ type: 'add.edit', draft })), ...submit, ev({ type: 'add.cancel' })]
    }
    if (snapshot.matches({ loaded: { adding: 'submitting' } })) {
      return [
        { type: 'xstate.done.actor.addAuthUser', output: ERIN },
        { type: 'xstate.error.actor.addAuthUser', error: apiError('A user with this email address has already been registered', 422) },
        { type: 'xstate.after.requestTimeout.authUsers.loaded.adding.submitting' },
      ]
    }
    if (snapshot.matches({ loaded: { viewing: 'idle' } })) {
      if (c.notice !== null || c.actionError !== null || c.action !== null) return [ev({ type: 'user.close' })]
      return [ev({ type: 'user.act', action: 'magiclink' }), ev({ type: 'user.act', action: 'ban' }), ev({ type: 'remove.open' }), ev({ type: 'user.close' })]
    }
    if (snapshot.matches({ loaded: { viewing: 'acting' } })) {
      return [
        { type: 'xstate.done.actor.runUserAction', output: c.action === 'ban' ? BANNED : null },
        { type: 'xstate.error.actor.runUserAction', error: apiError('Request rate limit reached', 429) },
        { type: 'xstate.after.requestTimeout.authUsers.loaded.viewing.acting' },
      ]
    }
    if (snapshot.matches({ loaded: { viewing: 'confirmingRemove' } })) {
      return c.actionError === null ? [ev({ type: 'remove.confirm' }), ev({ type: 'remove.cancel' })] : [ev({ type: 'remove.cancel' })]
    }
    if (snapshot.matches({ loaded: { viewing: 'removing' } })) {
      return [
        { type: 'xstate.done.actor.removeAuthUser' },
        { type: 'xstate.error.actor.removeAuthUser', error: apiError('User not found', 404) },
        { type: 'xstate.after.requestTimeout.authUsers.loaded.viewing.removing' },
      ]
    }
    return []
  },
  serializeState: (snapshot, event) => {
    const { users, ...rest } = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, JSON.stringify({ ...rest, users: users.map((u) => `${u.id}:${u.banned_until ?? ''}`) }))
  },
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

const dialog = (name: string) => within(screen.getByRole('dialog', { name }))

describe('auth users model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(authUsersMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const list = deferredActor<AuthUserPage, { ref: string; query: UsersQuery }>('listAuthUsers')
      const add = deferredActor<AuthUser, { ref: string; mode: AddMode; body: CreateAuthUserBody | AuthEmailBody }>('addAuthUser')
      const run = deferredActor<AuthUser | null, UserActionInput>('runUserAction')
      const remove = deferredActor<void, { ref: string; id: string }>('removeAuthUser')
      const actor = runPath(
        createActor(
          authUsersMachine.provide({ actors: { listAuthUsers: list.logic, addAuthUser: add.logic, runUserAction: run.logic, removeAuthUser: remove.logic } }),
          { input: { ref: REF, canManage: true } },
        ).start(),
      )
      render(<AuthUsers actor={actor} />)

      const panelShown = () => {
        const panel = dialog('User')
        const { users, openId } = contextOf(actor.getSnapshot())
        const shown = users.find((u) => u.id === openId)!
        expect(panel.getByText(shown.id)).toBeInTheDocument()
        expect(panel.getByLabelText('User metadata')).toHaveTextContent('"plan": "pro"')
        return { panel, shown }
      }

      await path.test({
        states: {
          loading: (snapshot) => {
            const { page, keywords } = contextOf(snapshot)
            expect(screen.getByText(keywords ? `Searching users for “${keywords}”…` : 'Loading users…')).toBeInTheDocument()
            expect(screen.queryByRole('table')).toBeNull()
            expect(list.pending.map((r) => r.input)).toEqual([{ ref: REF, query: { page, perPage: 50, keywords } }])
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(within(alert).getByRole('heading')).toHaveTextContent('Failed to load users')
            expect(alert).toHaveTextContent(contextOf(snapshot).loadError!)
          },
          'loaded.idle': (snapshot) => {
            const { users, total, page, notice, keywords } = contextOf(snapshot)
            expect(screen.queryByRole('dialog')).toBeNull()
            expect(screen.getByRole('button', { name: 'Add user' })).toBeEnabled()
            if (notice) expect(screen.getByRole('status')).toHaveTextContent(notice)
            if (users.length === 0) {
              expect(screen.getByText(/No users yet/)).toBeInTheDocument()
              return
            }
            const rows = within(screen.getByRole('table', { name: 'Users' })).getAllByRole('row').slice(1)
            expect(rows.map((row) => [row.children[0].textContent, row.children[1].textContent, row.children[3].textContent === 'Waiting for verification'])).toEqual(
              users.map((u) => [u.email, providerLabel(u), !u.last_sign_in_at]),
            )
            const first = (page - 1) * 50 + 1
            expect(screen.getByRole('navigation', { name: 'Pages of users' })).toHaveTextContent(`${first}–${first + users.length - 1} of ${total} ${total === 1 ? 'user' : 'users'}`)
            expect(screen.getByRole('button', { name: 'Next page' })).toHaveProperty('disabled', page * 50 >= total)
            expect(screen.getByRole('button', { name: 'Previous page' })).toHaveProperty('disabled', page === 1)
            expect(screen.getByRole('searchbox')).toHaveValue(contextOf(snapshot).searchDraft)
            if (keywords) expect(rows).toHaveLength(1)
          },
          'loaded.adding.editing': (snapshot) => {
            const { add: draft, addError } = contextOf(snapshot)
            const form = dialog('Add user')
            expect(form.getByLabelText('Email address')).toHaveValue(draft.email)
            expect(form.getByRole('radio', { name: draft.mode === 'create' ? 'Create new user' : 'Send invitation' })).toBeChecked()
            if (draft.mode === 'create') expect(form.getByLabelText('User password')).toHaveValue(draft.password)
            else expect(form.queryByLabelText('User password')).toBeNull()
            const submitName = draft.mode === 'invite' ? 'Invite user' : 'Create user'
            const ready = draft.email === VALID.email && (draft.mode === 'invite' || draft.password !== '')
            expect(form.getByRole('button', { name: submitName })).toHaveProperty('disabled', !ready)
            if (draft.email === INVALID.email) expect(form.getByText('Enter a valid e-mail address')).toBeInTheDocument()
            if (addError) expect(form.getByRole('alert')).toHaveTextContent(addError)
            else expect(form.queryByRole('alert')).toBeNull()
          },
          'loaded.adding.submitting': (snapshot) => {
            const { add: draft } = contextOf(snapshot)
            const form = dialog('Add user')
            expect(form.getByRole('button', { name: draft.mode === 'invite' ? 'Inviting…' : 'Creating…' })).toBeDisabled()
            expect(form.getByRole('button', { name: 'Cancel' })).toBeDisabled()
            expect(add.pending.map((r) => r.input)).toEqual([
              draft.mode === 'invite'
                ? { ref: REF, mode: 'invite', body: { email: 'erin@example.com' } }
                : { ref: REF, mode: 'create', body: { email: 'erin@example.com', password: 'correct horse', email_confirm: true } },
            ])
          },
          'loaded.viewing.idle': (snapshot) => {
            const { panel, shown } = panelShown()
            const { notice, actionError } = contextOf(snapshot)
            const banned = !!shown.banned_until
            expect(panel.getByRole('button', { name: banned ? 'Unban user' : 'Ban user for 24 hours' })).toBeEnabled()
            expect(panel.getByRole('button', { name: 'Send magic link' })).toBeEnabled()
            expect(panel.getByRole('button', { name: 'Remove user' })).toBeEnabled()
            if (notice) expect(panel.getByRole('status')).toHaveTextContent(notice)
            if (actionError) expect(panel.getByRole('alert')).toHaveTextContent(actionError)
            else expect(panel.queryByRole('alert')).toBeNull()
          },
          'loaded.viewing.acting': (snapshot) => {
            const { panel, shown } = panelShown()
            const { action } = contextOf(snapshot)
            expect(panel.getByRole('status')).toHaveTextContent(action === 'ban' ? 'Banning…' : 'Sending magic link…')
            expect(panel.getByRole('button', { name: 'Send magic link' })).toBeDisabled()
            expect(run.pending.map((r) => r.input)).toEqual([{ ref: REF, user: shown, action }])
          },
          'loaded.viewing.confirmingRemove': (snapshot) => {
            const { panel } = panelShown()
            const group = within(panel.getByRole('group', { name: 'Remove user' }))
            expect(group.getByText('ada@example.com')).toBeInTheDocument()
            expect(group.getByRole('button', { name: 'Remove user' })).toBeEnabled()
            const { actionError } = contextOf(snapshot)
            if (actionError) expect(group.getByRole('alert')).toHaveTextContent(actionError)
            else expect(group.queryByRole('alert')).toBeNull()
            expect(remove.pending).toHaveLength(0)
          },
          'loaded.viewing.removing': () => {
            const { panel } = panelShown()
            expect(within(panel.getByRole('group', { name: 'Remove user' })).getByRole('button', { name: 'Removing…' })).toBeDisabled()
            expect(remove.pending.map((r) => r.input)).toEqual([{ ref: REF, id: ADA.id }])
          },
        },
        events: {
          'xstate.done.actor.listAuthUsers': async (step) => list.resolve(outputOf<AuthUserPage>(step)),
          'xstate.error.actor.listAuthUsers': async (step) => list.reject(errorOf(step)),
          'xstate.after.requestTimeout.authUsers.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'users.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
          'search.edit': async (step) => {
            fireEvent.change(screen.getByRole('searchbox'), { target: { value: step.event.keywords } })
          },
          'search.submit': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Search' }))
          },
          'page.next': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
          },
          'page.previous': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Previous page' }))
          },
          'add.open': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Add user' }))
          },
          'add.edit': async (step) => {
            const form = dialog('Add user')
            const draft = step.event.draft
            if (draft.mode === 'invite') fireEvent.click(form.getByRole('radio', { name: 'Send invitation' }))
            if (draft.email !== undefined) fireEvent.change(form.getByLabelText('Email address'), { target: { value: draft.email } })
            if (draft.password !== undefined) fireEvent.change(form.getByLabelText('User password'), { target: { value: draft.password } })
          },
          'add.submit': async () => {
            const { add: draft } = contextOf(actor.getSnapshot())
            fireEvent.click(dialog('Add user').getByRole('button', { name: draft.mode === 'invite' ? 'Invite user' : 'Create user' }))
          },
          'add.cancel': async () => {
            fireEvent.click(dialog('Add user').getByRole('button', { name: 'Cancel' }))
          },
          'xstate.done.actor.addAuthUser': async (step) => add.resolve(outputOf<AuthUser>(step)),
          'xstate.error.actor.addAuthUser': async (step) => add.reject(errorOf(step)),
          'xstate.after.requestTimeout.authUsers.loaded.adding.submitting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'user.open': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'View user ada@example.com' }))
          },
          'user.close': async () => {
            fireEvent.click(dialog('User').getByRole('button', { name: 'Close' }))
          },
          'user.act': async (step) => {
            const name = step.event.action === 'ban' ? 'Ban user for 24 hours' : 'Send magic link'
            fireEvent.click(dialog('User').getByRole('button', { name }))
          },
          'xstate.done.actor.runUserAction': async (step) => run.resolve(outputOf<AuthUser | null>(step)),
          'xstate.error.actor.runUserAction': async (step) => run.reject(errorOf(step)),
          'xstate.after.requestTimeout.authUsers.loaded.viewing.acting': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'remove.open': async () => {
            fireEvent.click(dialog('User').getByRole('button', { name: 'Remove user' }))
          },
          'remove.confirm': async () => {
            fireEvent.click(within(dialog('User').getByRole('group', { name: 'Remove user' })).getByRole('button', { name: 'Remove user' }))
          },
          'remove.cancel': async () => {
            fireEvent.click(within(dialog('User').getByRole('group', { name: 'Remove user' })).getByRole('button', { name: 'Cancel' }))
          },
          'xstate.done.actor.removeAuthUser': async () => remove.resolve(undefined),
          'xstate.error.actor.removeAuthUser': async (step) => remove.reject(errorOf(step)),
          'xstate.after.requestTimeout.authUsers.loaded.viewing.removing': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
        },
      })
    })
  }

  it('shows a member without project_auth:all the list and a user, with no way to change them', async () => {
    const list = deferredActor<AuthUserPage, { ref: string; query: UsersQuery }>('listAuthUsers')
    const actor = runPath(createActor(authUsersMachine.provide({ actors: { listAuthUsers: list.logic } }), { input: { ref: REF, canManage: false } }).start())
    render(<AuthUsers actor={actor} />)
    await list.resolve(PAGE1)
    expect(screen.getByText('Your role can see the users but not change them.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Add user' })).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'View user ada@example.com' }))
    const panel = dialog('User')
    expect(panel.getByText(ADA.id)).toBeInTheDocument()
    for (const name of ['Send magic link', 'Send password recovery', 'Remove user']) expect(panel.queryByRole('button', { name })).toBeNull()
    actor.send({ type: 'user.act', action: 'magiclink' })
    actor.send({ type: 'remove.open' })
    expect(actor.getSnapshot().matches({ loaded: { viewing: 'idle' } })).toBe(true)
    actor.send({ type: 'user.close' })
    actor.send({ type: 'add.open' })
    expect(actor.getSnapshot().matches({ loaded: 'idle' })).toBe(true)
  })
})
