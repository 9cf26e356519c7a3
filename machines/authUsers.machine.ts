/**
 * Authentication › Users: one page of the project's users (newest first, searched by e-mail on the server, so
 * 10,000 users are never loaded at once), 'Add user' (create with a password, or send an invitation), and a user's
 * panel with 'Send magic link', 'Send password recovery', ban / unban and 'Remove user' after a confirmation.
 * Invariants: one request at a time; only a member who may manage auth (input.canManage) reaches a change — the
 * server refuses the others too; what was typed in the add dialog survives a failed request; a request unanswered
 * after requestTimeout is abandoned (its signal aborted) and reported like a failure; a created or removed user
 * reloads the page the person is on.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { AuthEmailBody, CreateAuthUserBody, type AuthUser, type AuthUserPage } from '../src/contracts/projectAuth'
import { PROJECT_DATABASE_TIMEOUT_MS } from './projectDatabaseTimeout'

export const USERS_PER_PAGE = 50

export type AddMode = 'create' | 'invite'
export interface AddDraft {
  mode: AddMode
  email: string
  password: string
  autoConfirm: boolean
}
export const EMPTY_ADD: AddDraft = { mode: 'create', email: '', password: '', autoConfirm: true }

export type UserAction = 'magiclink' | 'recovery' | 'ban' | 'unban'

export type UsersQuery = { page: number; perPage: number; keywords: string }
export type UserActionInput = { ref: string; user: AuthUser; action: UserAction }

/** The request the add dialog makes, or what is wrong with what was typed (the contract's rules). */
export function addRequestOf(draft: AddDraft): { ok: true; body: CreateAuthUserBody | AuthEmailBody } | { ok: false; error: string } {
  const parsed =
    draft.mode === 'create'
      ? CreateAuthUserBody.safeParse({ email: draft.email, password: draft.password, email_confirm: draft.autoConfirm })
      : AuthEmailBody.safeParse({ email: draft.email })
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, error: parsed.error.issues[0]?.message ?? 'Check what was typed' }
}

interface Context {
  ref: string
  canManage: boolean
  page: number
  /** The search as typed, and as last sent. */
  searchDraft: string
  keywords: string
  users: AuthUser[]
  total: number
  loadError: string | null
  add: AddDraft
  addError: string | null
  openId: string | null
  action: UserAction | null
  actionError: string | null
  notice: string | null
}

type AuthUsersEvent =
  | { type: 'users.retry' }
  | { type: 'search.edit'; keywords: string }
  | { type: 'search.submit' }
  | { type: 'page.next' }
  | { type: 'page.previous' }
  | { type: 'add.open' }
  | { type: 'add.edit'; draft: Partial<AddDraft> }
  | { type: 'add.submit' }
  | { type: 'add.cancel' }
  | { type: 'user.open'; id: string }
  | { type: 'user.close' }
  | { type: 'user.act'; action: UserAction }
  | { type: 'remove.open' }
  | { type: 'remove.confirm' }
  | { type: 'remove.cancel' }

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

const NOTICES: Record<UserAction, (email: string) => string> = {
  magiclink: (email) => `Magic link sent to ${email}`,
  recovery: (email) => `Password recovery sent to ${email}`,
  ban: (email) => `${email} is banned for 24 hours`,
  unban: (email) => `${email} is no longer banned`,
}

export const authUsersMachine = setup({
  types: {
    input: {} as { ref: string; canManage: boolean },
    context: {} as Context,
    events: {} as AuthUsersEvent,
    children: {} as { listAuthUsers: 'listAuthUsers'; addAuthUser: 'addAuthUser'; runUserAction: 'runUserAction'; removeAuthUser: 'removeAuthUser' },
  },
  actors: {
    listAuthUsers: fromPromise<AuthUserPage, { ref: string; query: UsersQuery }>(async () => {
      throw new Error('listAuthUsers not provided')
    }),
    addAuthUser: fromPromise<AuthUser, { ref: string; mode: AddMode; body: CreateAuthUserBody | AuthEmailBody }>(async () => {
      throw new Error('addAuthUser not provided')
    }),
    runUserAction: fromPromise<AuthUser | null, UserActionInput>(async () => {
      throw new Error('runUserAction not provided')
    }),
    removeAuthUser: fromPromise<void, { ref: string; id: string }>(async () => {
      throw new Error('removeAuthUser not provided')
    }),
  },
  actions: {
    storeLoadError: assign((_, params: { error: string }) => ({ loadError: params.error })),
    storeAddError: assign((_, params: { error: string }) => ({ addError: params.error })),
    storeActionError: assign((_, params: { error: string }) => ({ actionError: params.error, notice: null })),
  },
  guards: {
    canManage: ({ context }) => context.canManage,
    hasNextPage: ({ context }) => context.page * USERS_PER_PAGE < context.total,
    hasPreviousPage: ({ context }) => context.page > 1,
    isAddValid: ({ context }) => addRequestOf(context.add).ok,
    isListed: ({ context }, params: { id: string }) => context.users.some((u) => u.id === params.id),
  },
  delays: {
    requestTimeout: PROJECT_DATABASE_TIMEOUT_MS,
  },
}).createMachine({
  id: 'authUsers',
  context: ({ input }) => ({
    ref: input.ref,
    canManage: input.canManage,
    page: 1,
    searchDraft: '',
    keywords: '',
    users: [],
    total: 0,
    loadError: null,
    add: EMPTY_ADD,
    addError: null,
    openId: null,
    action: null,
    actionError: null,
    notice: null,
  }),
  on: {
    'search.edit': { actions: assign(({ event }) => ({ searchDraft: event.keywords })) },
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'listAuthUsers',
        src: 'listAuthUsers',
        input: ({ context }) => ({ ref: context.ref, query: { page: context.page, perPage: USERS_PER_PAGE, keywords: context.keywords } }),
        onDone: { target: 'loaded', actions: assign(({ event }) => ({ users: event.output.users, total: event.output.total, loadError: null })) },
        onError: { target: 'failed', actions: { type: 'storeLoadError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load users') }) } },
      },
      after: { requestTimeout: { target: 'failed', actions: { type: 'storeLoadError', params: { error: TIMED_OUT } } } },
    },
    failed: {
      on: { 'users.retry': 'loading' },
    },
    loaded: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'search.submit': { target: '#authUsers.loading', actions: assign(({ context }) => ({ keywords: context.searchDraft.trim(), page: 1, notice: null })) },
            'page.next': { guard: 'hasNextPage', target: '#authUsers.loading', actions: assign(({ context }) => ({ page: context.page + 1, notice: null })) },
            'page.previous': { guard: 'hasPreviousPage', target: '#authUsers.loading', actions: assign(({ context }) => ({ page: context.page - 1, notice: null })) },
            'add.open': { guard: 'canManage', target: 'adding', actions: assign({ add: EMPTY_ADD, addError: null, notice: null }) },
            'user.open': {
              guard: { type: 'isListed', params: ({ event }) => ({ id: event.id }) },
              target: 'viewing',
              actions: assign(({ event }) => ({ openId: event.id, actionError: null, notice: null })),
            },
          },
        },
        adding: {
          initial: 'editing',
          states: {
            editing: {
              on: {
                'add.edit': { actions: assign(({ context, event }) => ({ add: { ...context.add, ...event.draft } })) },
                'add.submit': { guard: 'isAddValid', target: 'submitting', actions: assign({ addError: null }) },
                'add.cancel': { target: '#authUsers.loaded.idle' },
              },
            },
            submitting: {
              invoke: {
                id: 'addAuthUser',
                src: 'addAuthUser',
                input: ({ context }) => {
                  const made = addRequestOf(context.add)
                  // The guard let only a valid draft in; the fallback keeps the types whole.
                  return { ref: context.ref, mode: context.add.mode, body: made.ok ? made.body : { email: context.add.email } }
                },
                onDone: {
                  target: '#authUsers.loading',
                  actions: assign(({ context, event }) => ({
                    notice: context.add.mode === 'invite' ? `Invitation sent to ${event.output.email}` : `User ${event.output.email} created`,
                    add: EMPTY_ADD,
                  })),
                },
                onError: { target: 'editing', actions: { type: 'storeAddError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to add user') }) } },
              },
              after: { requestTimeout: { target: 'editing', actions: { type: 'storeAddError', params: { error: TIMED_OUT } } } },
            },
          },
        },
        viewing: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'user.close': { target: '#authUsers.loaded.idle', actions: assign({ openId: null, actionError: null }) },
                'user.act': { guard: 'canManage', target: 'acting', actions: assign(({ event }) => ({ action: event.action, actionError: null, notice: null })) },
                'remove.open': { guard: 'canManage', target: 'confirmingRemove', actions: assign({ actionError: null, notice: null }) },
              },
            },
            acting: {
              invoke: {
                id: 'runUserAction',
                src: 'runUserAction',
                input: ({ context }) => ({ ref: context.ref, user: context.users.find((u) => u.id === context.openId)!, action: context.action! }),
                onDone: {
                  target: 'idle',
                  actions: assign(({ context, event }) => {
                    const user = context.users.find((u) => u.id === context.openId)!
                    return {
                      users: event.output ? context.users.map((u) => (u.id === event.output!.id ? event.output! : u)) : context.users,
                      notice: NOTICES[context.action!](user.email),
                    }
                  }),
                },
                onError: { target: 'idle', actions: { type: 'storeActionError', params: ({ event }) => ({ error: messageOf(event.error, 'The request failed') }) } },
              },
              after: { requestTimeout: { target: 'idle', actions: { type: 'storeActionError', params: { error: TIMED_OUT } } } },
            },
            confirmingRemove: {
              on: {
                'remove.confirm': { target: 'removing', actions: assign({ actionError: null }) },
                'remove.cancel': { target: 'idle', actions: assign({ actionError: null }) },
              },
            },
            removing: {
              invoke: {
                id: 'removeAuthUser',
                src: 'removeAuthUser',
                input: ({ context }) => ({ ref: context.ref, id: context.openId ?? '' }),
                onDone: {
                  target: '#authUsers.loading',
                  actions: assign(({ context }) => ({
                    notice: `User ${context.users.find((u) => u.id === context.openId)?.email ?? ''} removed`,
                    openId: null,
                    // The last user of a later page gone: that page is empty now, so show the one before.
                    page: context.users.length === 1 && context.page > 1 ? context.page - 1 : context.page,
                  })),
                },
                onError: { target: 'confirmingRemove', actions: { type: 'storeActionError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to remove user') }) } },
              },
              after: { requestTimeout: { target: 'confirmingRemove', actions: { type: 'storeActionError', params: { error: TIMED_OUT } } } },
            },
          },
        },
      },
    },
  },
})

/** How the list names a user's sign-in provider: 'Email' for the e-mail provider, else the provider's name. */
export function providerLabel(user: AuthUser): string {
  const provider = typeof user.app_metadata.provider === 'string' ? user.app_metadata.provider : (user.identities?.[0]?.provider ?? 'email')
  return provider === 'email' ? 'Email' : provider
}

export type AuthUsersView =
  | { phase: 'loading'; keywords: string; searchDraft: string; notice: string | null }
  | { phase: 'failed'; error: string; searchDraft: string }
  | {
      phase: 'loaded'
      canManage: boolean
      users: AuthUser[]
      total: number
      page: number
      pages: number
      keywords: string
      searchDraft: string
      notice: string | null
      add: { draft: AddDraft; error: string | null; invalid: string | null; submitting: boolean } | null
      open: {
        user: AuthUser
        /** Banned until a time still to come (the panel offers to lift it). */
        banned: boolean
        busy: UserAction | 'remove' | null
        confirmingRemove: boolean
        error: string | null
      } | null
    }

export function selectAuthUsersView(snapshot: SnapshotFrom<typeof authUsersMachine>): AuthUsersView {
  const c = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading', keywords: c.keywords, searchDraft: c.searchDraft, notice: c.notice }
  if (snapshot.matches('failed')) return { phase: 'failed', error: c.loadError ?? 'Failed to load users', searchDraft: c.searchDraft }
  const made = addRequestOf(c.add)
  const user = c.users.find((u) => u.id === c.openId)
  const viewing = snapshot.matches({ loaded: 'viewing' })
  return {
    phase: 'loaded',
    canManage: c.canManage,
    users: c.users,
    total: c.total,
    page: c.page,
    pages: Math.max(1, Math.ceil(c.total / USERS_PER_PAGE)),
    keywords: c.keywords,
    searchDraft: c.searchDraft,
    notice: c.notice,
    add: snapshot.matches({ loaded: 'adding' })
      ? { draft: c.add, error: c.addError, invalid: made.ok ? null : made.error, submitting: snapshot.matches({ loaded: { adding: 'submitting' } }) }
      : null,
    open:
      viewing && user
        ? {
            user,
            banned: !!user.banned_until && new Date(user.banned_until).getTime() > Date.now(),
            busy: snapshot.matches({ loaded: { viewing: 'acting' } }) ? c.action : snapshot.matches({ loaded: { viewing: 'removing' } }) ? 'remove' : null,
            confirmingRemove: snapshot.matches({ loaded: { viewing: 'confirmingRemove' } }) || snapshot.matches({ loaded: { viewing: 'removing' } }),
            error: c.actionError,
          }
        : null,
  }
}
