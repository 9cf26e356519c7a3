/**
 * Edge Function Secrets (/project/{ref}/functions/secrets): the project's secrets by name with the digest the platform
 * answers (SHA-256 of the value; the value itself is never sent back), several added at once from rows of name and
 * value, one deleted after a confirmation. A change reloads the list.
 * Invariants: rows typed survive a failed save (with the server's message); a name is checked by the contract's rule
 * before it is sent; one change at a time; a request unanswered after requestTimeout is reported like a failure.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { CreateSecretsBody, type SecretList } from '../src/contracts/functions'

export interface SecretDraft {
  name: string
  value: string
}

const EMPTY_ROW: SecretDraft = { name: '', value: '' }

interface Context {
  ref: string
  secrets: SecretList
  loadError: string | null
  drafts: SecretDraft[]
  saveError: string | null
  deleteName: string | null
  deleteError: string | null
}

type FunctionSecretsEvent =
  | { type: 'secrets.retry' }
  | { type: 'draft.add' }
  | { type: 'draft.change'; index: number; name?: string; value?: string }
  | { type: 'draft.remove'; index: number }
  | { type: 'secrets.save' }
  | { type: 'secret.delete'; name: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

/** Per row, what is wrong with it (the contract's rules), or null; a row left wholly empty is skipped. */
export function draftProblems(drafts: SecretDraft[]): Array<string | null> {
  return drafts.map((row) => {
    if (row.name === '' && row.value === '') return null
    const parsed = CreateSecretsBody.safeParse([row])
    return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Invalid secret')
  })
}

const rowsToSave = (drafts: SecretDraft[]) => drafts.filter((row) => row.name !== '' || row.value !== '')

export const functionSecretsMachine = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    events: {} as FunctionSecretsEvent,
    children: {} as { listSecrets: 'listSecrets'; createSecrets: 'createSecrets'; deleteSecret: 'deleteSecret' },
  },
  actors: {
    listSecrets: fromPromise<SecretList, { ref: string }>(async () => {
      throw new Error('listSecrets not provided')
    }),
    createSecrets: fromPromise<void, { ref: string; secrets: SecretDraft[] }>(async () => {
      throw new Error('createSecrets not provided')
    }),
    deleteSecret: fromPromise<void, { ref: string; name: string }>(async () => {
      throw new Error('deleteSecret not provided')
    }),
  },
  guards: {
    areDraftsValid: ({ context }) => rowsToSave(context.drafts).length > 0 && draftProblems(context.drafts).every((problem) => problem === null),
  },
  delays: { requestTimeout: 10_000 },
}).createMachine({
  id: 'functionSecrets',
  context: ({ input }) => ({ ref: input.ref, secrets: [], loadError: null, drafts: [EMPTY_ROW], saveError: null, deleteName: null, deleteError: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'listSecrets',
        src: 'listSecrets',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'loaded', actions: assign(({ event }) => ({ secrets: event.output, loadError: null })) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ loadError: messageOf(event.error, 'Failed to load secrets') })) },
      },
      after: { requestTimeout: { target: 'failed', actions: assign({ loadError: TIMED_OUT }) } },
    },
    failed: {
      on: { 'secrets.retry': 'loading' },
    },
    loaded: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'draft.add': { actions: assign(({ context }) => ({ drafts: [...context.drafts, EMPTY_ROW] })) },
            'draft.change': {
              actions: assign(({ context, event }) => ({
                drafts: context.drafts.map((row, i) => (i === event.index ? { name: event.name ?? row.name, value: event.value ?? row.value } : row)),
              })),
            },
            'draft.remove': { actions: assign(({ context, event }) => ({ drafts: context.drafts.length > 1 ? context.drafts.filter((_, i) => i !== event.index) : [EMPTY_ROW] })) },
            'secrets.save': { guard: 'areDraftsValid', target: 'saving', actions: assign({ saveError: null }) },
            'secret.delete': { target: 'confirmingDelete', actions: assign(({ event }) => ({ deleteName: event.name, deleteError: null })) },
          },
        },
        saving: {
          invoke: {
            id: 'createSecrets',
            src: 'createSecrets',
            input: ({ context }) => ({ ref: context.ref, secrets: rowsToSave(context.drafts) }),
            onDone: { target: '#functionSecrets.loading', actions: assign({ drafts: [EMPTY_ROW] }) },
            onError: { target: 'idle', actions: assign(({ event }) => ({ saveError: messageOf(event.error, 'Failed to save secrets') })) },
          },
          after: { requestTimeout: { target: 'idle', actions: assign({ saveError: TIMED_OUT }) } },
        },
        confirmingDelete: {
          on: {
            'delete.confirm': { target: 'deleting', actions: assign({ deleteError: null }) },
            'delete.cancel': { target: 'idle', actions: assign({ deleteName: null, deleteError: null }) },
          },
        },
        deleting: {
          invoke: {
            id: 'deleteSecret',
            src: 'deleteSecret',
            input: ({ context }) => ({ ref: context.ref, name: context.deleteName ?? '' }),
            onDone: { target: '#functionSecrets.loading', actions: assign({ deleteName: null }) },
            onError: { target: 'confirmingDelete', actions: assign(({ event }) => ({ deleteError: messageOf(event.error, 'Failed to delete the secret') })) },
          },
          after: { requestTimeout: { target: 'confirmingDelete', actions: assign({ deleteError: TIMED_OUT }) } },
        },
      },
    },
  },
})

export type FunctionSecretsView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | {
      phase: 'loaded'
      secrets: SecretList
      drafts: SecretDraft[]
      problems: Array<string | null>
      canSave: boolean
      saving: boolean
      saveError: string | null
      remove: { name: string; deleting: boolean; error: string | null } | null
    }

export function selectFunctionSecretsView(snapshot: SnapshotFrom<typeof functionSecretsMachine>): FunctionSecretsView {
  const { secrets, loadError, drafts, saveError, deleteName, deleteError } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed')) return { phase: 'failed', error: loadError ?? 'Failed to load secrets' }
  const removing = snapshot.matches({ loaded: 'confirmingDelete' }) || snapshot.matches({ loaded: 'deleting' })
  return {
    phase: 'loaded',
    secrets,
    drafts,
    problems: draftProblems(drafts),
    canSave: snapshot.can({ type: 'secrets.save' }),
    saving: snapshot.matches({ loaded: 'saving' }),
    saveError,
    remove: removing && deleteName !== null ? { name: deleteName, deleting: snapshot.matches({ loaded: 'deleting' }), error: deleteError } : null,
  }
}
