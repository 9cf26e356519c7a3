/**
 * The profile on /account/me: the username, edited and saved (the primary e-mail is shown, not edited here).
 * The draft is checked with the contract's rule before it may be saved, and only a changed name is sent. A refused
 * save (a taken name) or one unanswered after requestTimeout (its signal aborted) shows the message and keeps the
 * draft; a saved profile is handed to the app (`profileSaved`: the session, and so the account menu, show it).
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { Profile } from '../src/contracts/session'
import { Username } from '../src/contracts/accounts'

interface Context {
  profile: Profile
  draft: string
  error: string | null
}

type ProfileEvent = { type: 'username.edit'; username: string } | { type: 'username.save' }

const TIMED_OUT = 'The request timed out. Try again.'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

/** What is wrong with a draft username, or null (the contract's rule: the server applies the same). */
export function usernameError(draft: string): string | null {
  const parsed = Username.safeParse(draft)
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Invalid username')
}

const editing = {
  on: {
    'username.edit': { target: '#profile.idle', actions: 'storeDraft' },
    'username.save': { guard: 'isDraftSavable', target: '#profile.saving' },
  },
} as const

export const profileMachine = setup({
  types: {
    input: {} as { profile: Profile },
    context: {} as Context,
    events: {} as ProfileEvent,
    children: {} as { updateProfile: 'updateProfile' },
  },
  actors: {
    updateProfile: fromPromise<Profile, { username: string }>(async () => {
      throw new Error('updateProfile not provided')
    }),
  },
  actions: {
    /** Provided by the app: the session takes the saved profile. */
    profileSaved: (_, _params: { profile: Profile }) => {},
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
    storeDraft: assign(({ context, event }) => ({ draft: event.type === 'username.edit' ? event.username : context.draft })),
  },
  guards: {
    isDraftSavable: ({ context }) => usernameError(context.draft) === null && context.draft.trim() !== context.profile.username,
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'profile',
  context: ({ input }) => ({ profile: input.profile, draft: input.profile.username, error: null }),
  initial: 'idle',
  states: {
    idle: editing,
    saving: {
      entry: assign({ error: null }),
      invoke: {
        id: 'updateProfile',
        src: 'updateProfile',
        input: ({ context }) => ({ username: context.draft.trim() }),
        onDone: {
          target: 'saved',
          actions: [assign(({ event }) => ({ profile: event.output, draft: event.output.username })), { type: 'profileSaved', params: ({ event }) => ({ profile: event.output }) }],
        },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to save the profile') }) } },
      },
      after: { requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: TIMED_OUT } } } },
    },
    // Just saved, the draft is the saved name: there is nothing to save until it is edited.
    saved: { on: { 'username.edit': editing.on['username.edit'] } },
    failed: editing,
  },
})

export interface ProfileView {
  email: string
  draft: string
  /** The rule the draft breaks (shown once it differs from the saved name). */
  draftError: string | null
  saving: boolean
  saved: boolean
  error: string | null
}

export function selectProfileView(snapshot: SnapshotFrom<typeof profileMachine>): ProfileView {
  const { profile, draft, error } = snapshot.context
  return {
    email: profile.primary_email,
    draft,
    draftError: draft === profile.username ? null : usernameError(draft),
    saving: snapshot.matches('saving'),
    saved: snapshot.matches('saved'),
    error: snapshot.matches('failed') ? error : null,
  }
}
