/**
 * Personal access tokens: list, create with a name and an optional expiry (in days; none: the platform's default), revoke
 * after a confirmation. A created token's value comes
 * back once; it is shown (with a Copy button, 'Copied' for 2 s) until dismissed and then forgotten. A failed
 * create or revoke keeps the list and shows the server's message; a failed first load offers a retry.
 * The form's typed name and chosen expiry are the draft ('token.edit'); creating takes them as its request and empties
 * the form at once, and a name of only spaces creates nothing.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { AccessToken, CreatedAccessToken } from '../src/contracts/session'

/** The create form as typed: the name, and the expiry in days as its select holds it ('' for the platform's default). */
export interface TokenDraft {
  name: string
  expiry: '' | '30' | '90'
}

const EMPTY_DRAFT: TokenDraft = { name: '', expiry: '' }

interface Context {
  draft: TokenDraft
  /** What the create under way sends, taken from the draft as it was submitted. */
  request: CreateTokenInput | null
  tokens: AccessToken[]
  created: CreatedAccessToken | null
  revokeId: number | null
  error: string | null
}

type AccessTokensEvent =
  | { type: 'tokens.retry' }
  | { type: 'token.edit'; draft: Partial<TokenDraft> }
  | { type: 'token.create' }
  | { type: 'token.copy' }
  | { type: 'token.dismiss' }
  | { type: 'token.revoke'; id: number }
  | { type: 'revoke.confirm' }
  | { type: 'revoke.cancel' }

/** What creating a token sends: its name and the days until it expires (null: the platform's default). */
export interface CreateTokenInput {
  name: string
  expiresInDays: number | null
}

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

export const accessTokensMachine = setup({
  types: {
    context: {} as Context,
    events: {} as AccessTokensEvent,
    children: {} as { listAccessTokens: 'listAccessTokens'; createAccessToken: 'createAccessToken'; revokeAccessToken: 'revokeAccessToken' },
  },
  actors: {
    listAccessTokens: fromPromise<AccessToken[]>(async () => {
      throw new Error('listAccessTokens not provided')
    }),
    createAccessToken: fromPromise<CreatedAccessToken, CreateTokenInput>(async () => {
      throw new Error('createAccessToken not provided')
    }),
    revokeAccessToken: fromPromise<void, { id: number }>(async () => {
      throw new Error('revokeAccessToken not provided')
    }),
  },
  guards: {
    hasTokenName: ({ context }) => context.draft.name.trim() !== '',
  },
  actions: {
    editDraft: assign(({ context }, params: { draft: Partial<TokenDraft> }) => ({ draft: { ...context.draft, ...params.draft } })),
    takeDraft: assign(({ context }) => ({
      request: { name: context.draft.name.trim(), expiresInDays: context.draft.expiry === '' ? null : Number(context.draft.expiry) },
      draft: EMPTY_DRAFT,
      error: null,
    })),
    /** Provided by the app: writes the value to the clipboard. */
    copyToClipboard: (_, _params: { text: string }) => {},
  },
  delays: {
    copiedDuration: 2_000,
  },
}).createMachine({
  id: 'accessTokens',
  context: { draft: EMPTY_DRAFT, request: null, tokens: [], created: null, revokeId: null, error: null },
  initial: 'loading',
  // The form stays on screen in every state after the list loaded: what is typed is kept whatever the list does.
  on: { 'token.edit': { actions: { type: 'editDraft', params: ({ event }) => ({ draft: event.draft }) } } },
  states: {
    loading: {
      invoke: {
        id: 'listAccessTokens',
        src: 'listAccessTokens',
        onDone: { target: 'idle', actions: assign({ tokens: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error, 'Failed to load access tokens') }) },
      },
    },
    failed: {
      on: { 'tokens.retry': 'loading' },
    },
    idle: {
      on: {
        'token.create': { guard: 'hasTokenName', target: 'creating', actions: 'takeDraft' },
        'token.revoke': { target: 'confirmingRevoke', actions: assign({ revokeId: ({ event }) => event.id, error: null }) },
      },
    },
    creating: {
      invoke: {
        id: 'createAccessToken',
        src: 'createAccessToken',
        input: ({ context }) => context.request ?? { name: '', expiresInDays: null },
        onDone: {
          target: 'showingToken',
          actions: assign({
            created: ({ event }) => event.output,
            tokens: ({ context, event }) => {
              const { token: _value, ...listed } = event.output
              return [...context.tokens, listed]
            },
          }),
        },
        onError: { target: 'idle', actions: assign({ error: ({ event }) => messageOf(event.error, 'Failed to create access token') }) },
      },
    },
    /** The only time the value is on screen; dismissing forgets it. */
    showingToken: {
      initial: 'ready',
      exit: assign({ created: null }),
      on: { 'token.dismiss': 'idle' },
      states: {
        ready: {
          on: {
            'token.copy': {
              target: 'copied',
              actions: { type: 'copyToClipboard', params: ({ context }) => ({ text: context.created?.token ?? '' }) },
            },
          },
        },
        copied: {
          after: { copiedDuration: 'ready' },
        },
      },
    },
    confirmingRevoke: {
      on: {
        'revoke.confirm': 'revoking',
        'revoke.cancel': { target: 'idle', actions: assign({ revokeId: null }) },
      },
    },
    revoking: {
      invoke: {
        id: 'revokeAccessToken',
        src: 'revokeAccessToken',
        input: ({ context }) => ({ id: context.revokeId ?? -1 }),
        onDone: {
          target: 'idle',
          actions: assign({ tokens: ({ context }) => context.tokens.filter((token) => token.id !== context.revokeId), revokeId: null }),
        },
        onError: {
          target: 'idle',
          actions: assign({ error: ({ event }) => messageOf(event.error, 'Failed to revoke access token'), revokeId: null }),
        },
      },
    },
  },
})


type AccessTokensView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | {
      phase: 'ready'
      draft: TokenDraft
      tokens: AccessToken[]
      error: string | null
      creating: boolean
      created: CreatedAccessToken | null
      copied: boolean
      /** The token awaiting confirmation (or being revoked). */
      revoking: { token: AccessToken; inFlight: boolean } | null
    }

export function selectAccessTokensView(snapshot: SnapshotFrom<typeof accessTokensMachine>): AccessTokensView {
  const { draft, tokens, error, created, revokeId } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed')) return { phase: 'failed', error: error ?? 'Failed to load access tokens' }
  const revokeToken = tokens.find((token) => token.id === revokeId)
  return {
    phase: 'ready',
    draft,
    tokens,
    error,
    creating: snapshot.matches('creating'),
    created: snapshot.matches('showingToken') ? created : null,
    copied: snapshot.matches({ showingToken: 'copied' }),
    revoking:
      revokeToken && (snapshot.matches('confirmingRevoke') || snapshot.matches('revoking'))
        ? { token: revokeToken, inFlight: snapshot.matches('revoking') }
        : null,
  }
}
