import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { accessTokensMachine, type CreateTokenInput } from '../machines/accessTokens.machine'
import type { AccessToken, CreatedAccessToken } from '../src/contracts/session'
import { AccessTokens } from '../src/views/account/AccessTokens'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf, sendEdge } from './harness'
import { apiError, deferredActor } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(accessTokensMachine)

const CI: AccessToken = { id: 1, name: 'CI', token_alias: 'sbp_1a2b…', created_at: '2026-11-01T10:00:00.000Z', last_used_at: null, expires_at: null }
const CREATED: CreatedAccessToken = {
  id: 2,
  name: 'Deploy',
  token_alias: 'sbp_9f8e…',
  created_at: '2026-11-20T10:00:00.000Z',
  last_used_at: null,
  expires_at: null,
  token: 'sbp_9f8e7d6c5b4a39281706f5e4d3c2b1a0',
}

const model = modelOf(accessTokensMachine, {
  events: (snapshot) => {
    const tokens = snapshot.context.tokens
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.listAccessTokens', output: [CI] },
        { type: 'xstate.error.actor.listAccessTokens', error: apiError('Unable to reach the server', null) },
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'tokens.retry' }]
    if (snapshot.matches('idle')) {
      // The form's draft first: creating takes what was typed.
      const typed = snapshot.context.draft.name !== ''
      return [
        typed ? ev({ type: 'token.create' }) : ev({ type: 'token.edit', draft: { name: 'Deploy', expiry: '30' } }),
        ...tokens.filter((token) => token.id === CI.id).map((token) => ev({ type: 'token.revoke', id: token.id })),
      ]
    }
    if (snapshot.matches('creating')) {
      return [
        { type: 'xstate.done.actor.createAccessToken', output: CREATED },
        { type: 'xstate.error.actor.createAccessToken', error: apiError('Name is required', 400) },
      ]
    }
    if (snapshot.matches({ showingToken: 'ready' })) return [{ type: 'token.copy' }, { type: 'token.dismiss' }]
    if (snapshot.matches({ showingToken: 'copied' })) {
      return [{ type: 'xstate.after.copiedDuration.accessTokens.showingToken.copied' }, { type: 'token.dismiss' }]
    }
    if (snapshot.matches('confirmingRevoke')) return [{ type: 'revoke.confirm' }, { type: 'revoke.cancel' }]
    if (snapshot.matches('revoking')) {
      return [
        { type: 'xstate.done.actor.revokeAccessToken' },
        { type: 'xstate.error.actor.revokeAccessToken', error: apiError('Access token not found', 404) },
      ]
    }
    return []
  },
  serializeState: (snapshot, event, previous) =>
    keyByIncomingEdge(snapshot, event, JSON.stringify(previous?.value ?? null)),
})
const paths = model.getShortestPaths()

let stop: (() => void) | null = null
afterEach(() => stop?.())

describe('access tokens model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(accessTokensMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const list = deferredActor<AccessToken[]>('listAccessTokens')
      const create = deferredActor<CreatedAccessToken, CreateTokenInput>('createAccessToken')
      const revoke = deferredActor<void, { id: number }>('revokeAccessToken')
      const copyToClipboard = vi.fn()
      const actor = createActor(
        accessTokensMachine.provide({
          actors: { listAccessTokens: list.logic, createAccessToken: create.logic, revokeAccessToken: revoke.logic },
          actions: { copyToClipboard: (_, params) => copyToClipboard(params.text) },
          // The copied state's end is the model's edge, sent by the path: never by a real timer, which on a busy
          // machine could end it before the path looked at it.
          delays: { copiedDuration: 3_600_000 },
        }),
      ).start()
      stop = () => actor.stop()
      render(<AccessTokens tokens={actor} />)
      const user = userEvent.setup()
      const tokensOf = () => actor.getSnapshot().context.tokens
      const listShows = () => {
        for (const token of tokensOf()) expect(screen.getByRole('cell', { name: token.name })).toBeInTheDocument()
        if (!tokensOf().some((token) => token.id === CI.id)) expect(screen.queryByRole('cell', { name: 'CI' })).not.toBeInTheDocument()
      }
      const newToken = () => screen.queryByRole('region', { name: 'New token' })
      const dialog = () => screen.queryByRole('dialog', { name: 'Revoke access token' })

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByText('Loading access tokens…')).toBeInTheDocument()
          },
          failed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('Unable to reach the server')
            expect(screen.getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          idle: async (snapshot) => {
            listShows()
            expect(newToken()).not.toBeInTheDocument()
            await waitFor(() => expect(dialog()).not.toBeInTheDocument())
            const error = snapshot.context.error
            if (error) expect(screen.getByRole('alert')).toHaveTextContent(error)
            // Disabled until a name is typed; the form shows the draft.
            const draft = snapshot.context.draft
            expect(screen.getByLabelText('Token name')).toHaveValue(draft.name)
            if (draft.name === '') expect(screen.getByRole('button', { name: 'Generate new token' })).toBeDisabled()
            else expect(screen.getByRole('button', { name: 'Generate new token' })).toBeEnabled()
          },
          creating: () => {
            expect(screen.getByRole('button', { name: 'Generating…' })).toBeDisabled()
            expect(create.pending.at(-1)?.input).toEqual({ name: 'Deploy', expiresInDays: 30 })
          },
          'showingToken.ready': () => {
            expect(newToken()).toHaveTextContent(CREATED.token)
            expect(newToken()).toHaveTextContent('It will not be shown again.')
            expect(within(newToken()!).getByRole('button', { name: 'Copy' })).toBeEnabled()
            listShows()
          },
          'showingToken.copied': () => {
            expect(within(newToken()!).getByRole('button', { name: 'Copied' })).toBeDisabled()
            expect(copyToClipboard).toHaveBeenLastCalledWith(CREATED.token)
          },
          confirmingRevoke: async () => {
            const confirm = await screen.findByRole('dialog', { name: 'Revoke access token' })
            expect(confirm).toHaveTextContent('Revoke CI?')
            expect(within(confirm).getByRole('button', { name: 'Revoke token' })).toBeEnabled()
          },
          revoking: async () => {
            expect(within(await screen.findByRole('dialog', { name: 'Revoke access token' })).getByRole('button', { name: 'Revoking…' })).toBeDisabled()
          },
        },
        events: {
          'xstate.done.actor.listAccessTokens': async (step) => list.resolve(outputOf<AccessToken[]>(step)),
          'xstate.error.actor.listAccessTokens': async (step) => list.reject(errorOf(step)),
          'tokens.retry': async () => user.click(screen.getByRole('button', { name: 'Try again' })),
          'token.edit': async (step) => {
            // The model's edit carries both fields (see its events above).
            const { name = '', expiry = '' } = step.event.draft
            await user.type(screen.getByLabelText('Token name'), name)
            await user.selectOptions(screen.getByLabelText('Expires'), `${expiry} days`)
          },
          'token.create': async () => user.click(screen.getByRole('button', { name: 'Generate new token' })),
          'xstate.done.actor.createAccessToken': async (step) => create.resolve(outputOf<CreatedAccessToken>(step)),
          'xstate.error.actor.createAccessToken': async (step) => create.reject(errorOf(step)),
          'token.copy': async () => user.click(within(newToken()!).getByRole('button', { name: 'Copy' })),
          'xstate.after.copiedDuration.accessTokens.showingToken.copied': async (step) => {
            await act(async () => sendEdge(actor, step.event))
            expect(within(newToken()!).getByRole('button', { name: 'Copy' })).toBeEnabled()
          },
          'token.dismiss': async () => user.click(within(newToken()!).getByRole('button', { name: 'Done' })),
          'token.revoke': async () => user.click(screen.getByRole('button', { name: 'Revoke CI' })),
          'revoke.confirm': async () => user.click(within((await screen.findByRole('dialog', { name: 'Revoke access token' }))).getByRole('button', { name: 'Revoke token' })),
          'revoke.cancel': async () => user.click(within((await screen.findByRole('dialog', { name: 'Revoke access token' }))).getByRole('button', { name: 'Cancel' })),
          'xstate.done.actor.revokeAccessToken': async () => revoke.resolve(undefined),
          'xstate.error.actor.revokeAccessToken': async (step) => revoke.reject(errorOf(step)),
        },
      })
    })
  }
})
