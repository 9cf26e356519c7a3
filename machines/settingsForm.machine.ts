/**
 * A settings form: a project's settings read from the platform, edited as a draft, saved as a patch and read back.
 * One machine serves every settings page; what differs is its description — what is read (the load actor), how
 * the saved settings become a draft, how a change applies to the draft, how a draft becomes a patch or what is wrong
 * with it, and the page's words for what it loads and saves.
 * Invariants: one request at a time; only a member who may manage the settings (input.canManage) edits or saves — the
 * others see them read-only, and the server refuses them too; what was typed survives a failed save; a request
 * unanswered after requestTimeout is abandoned and reported like a failure.
 * A page's form is the whole page (Auth, Realtime) or one section of it (the API page's Data API settings): the view's
 * frame differs (SettingsForm.tsx), the flow does not.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'

/** The patch a draft makes, or what is wrong with it, by field. */
export type PatchOf<Body, Field extends string> = { ok: true; body: Body } | { ok: false; errors: Partial<Record<Field, string>> }

export interface SettingsFormDescription<Saved, Draft, Change, Body, Field extends string, Id extends string, Load extends string, Save extends string> {
  /** The machine's id: its delays' events are named by it. */
  id: Id
  /** The actor that reads the settings. */
  load: Load
  /** The actor that saves a patch and answers the settings as the server then has them. */
  save: Save
  /** What the page says when a load or a save fails without a message of its own, and after a save. */
  texts: { loadFailed: string; saveFailed: string; saved: string }
  /** How long a load or a save may go unanswered (default 10 s): longer where the server reads the project's database. */
  requestTimeout?: number
  draftOf(saved: Saved): Draft
  applied(draft: Draft, change: Change): Draft
  /** The contract's bounds, so the server would refuse what this refuses. */
  patchOf(draft: Draft): PatchOf<Body, Field>
  /** Whether the draft differs from what is saved. */
  isChanged(saved: Saved, draft: Draft): boolean
}

export interface SettingsFormContext<Saved, Draft> {
  ref: string
  canManage: boolean
  saved: Saved | null
  draft: Draft | null
  loadError: string | null
  saveError: string | null
  notice: string | null
}

export type SettingsFormEvent<Change> =
  | { type: 'settings.retry' }
  | { type: 'settings.edit'; change: Change }
  | { type: 'settings.save' }
  | { type: 'settings.reset' }

const TIMED_OUT = 'The request timed out'
const REQUEST_TIMEOUT_MS = 10_000
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

/** The machine of one settings page, from its description. */
export function settingsFormMachine<Saved, Draft, Change, Body, Field extends string, Id extends string, Load extends string, Save extends string>(
  d: SettingsFormDescription<Saved, Draft, Change, Body, Field, Id, Load, Save>,
) {
  type Context = SettingsFormContext<Saved, Draft>
  const changedAndValid = (c: Context) => c.draft !== null && c.saved !== null && d.patchOf(c.draft).ok && d.isChanged(c.saved, c.draft)
  return setup({
    types: {
      input: {} as { ref: string; canManage: boolean },
      context: {} as Context,
      events: {} as SettingsFormEvent<Change>,
    },
    actors: {
      loadSettings: fromPromise<Saved, { ref: string }>(async () => {
        throw new Error(`loadSettings (${d.load}) not provided`)
      }),
      /** Saves the patch and answers the settings as the server then has them. */
      saveSettings: fromPromise<Saved, { ref: string; body: Body }>(async () => {
        throw new Error(`saveSettings (${d.save}) not provided`)
      }),
    },
    actions: {
      storeLoadError: assign((_, params: { error: string }) => ({ loadError: params.error })),
      storeSaveError: assign((_, params: { error: string }) => ({ saveError: params.error })),
    },
    guards: {
      canManage: ({ context }) => context.canManage,
      isChangedAndValid: ({ context }) => context.canManage && changedAndValid(context),
      isChanged: ({ context }) => context.draft !== null && context.saved !== null && d.isChanged(context.saved, context.draft),
    },
    delays: {
      requestTimeout: d.requestTimeout ?? REQUEST_TIMEOUT_MS,
    },
  }).createMachine({
    id: d.id,
    context: ({ input }) => ({ ref: input.ref, canManage: input.canManage, saved: null, draft: null, loadError: null, saveError: null, notice: null }),
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          // The id is the page's request (its done and error events carry it); the source is the same for every page,
          // because xstate's setup cannot type actors named by a type parameter.
          id: d.load,
          src: 'loadSettings',
          input: ({ context }) => ({ ref: context.ref }),
          onDone: { target: 'ready', actions: assign(({ event }) => ({ saved: event.output, draft: d.draftOf(event.output), loadError: null })) },
          onError: { target: 'failed', actions: { type: 'storeLoadError', params: ({ event }) => ({ error: messageOf(event.error, d.texts.loadFailed) }) } },
        },
        after: { requestTimeout: { target: 'failed', actions: { type: 'storeLoadError', params: { error: TIMED_OUT } } } },
      },
      failed: {
        on: { 'settings.retry': 'loading' },
      },
      ready: {
        initial: 'editing',
        states: {
          editing: {
            on: {
              'settings.edit': {
                guard: 'canManage',
                actions: assign(({ context, event }) => ({ draft: d.applied(context.draft!, event.change), notice: null, saveError: null })),
              },
              'settings.save': { guard: 'isChangedAndValid', target: 'saving', actions: assign({ saveError: null, notice: null }) },
              'settings.reset': { guard: 'isChanged', actions: assign(({ context }) => ({ draft: d.draftOf(context.saved!), saveError: null })) },
            },
          },
          saving: {
            invoke: {
              id: d.save,
              src: 'saveSettings',
              input: ({ context }) => {
                const made = d.patchOf(context.draft!)
                // Only a valid draft gets here (isChangedAndValid): its patch is made.
                if (!made.ok) throw new Error('saving an invalid draft')
                return { ref: context.ref, body: made.body }
              },
              onDone: { target: 'editing', actions: assign(({ event }) => ({ saved: event.output, draft: d.draftOf(event.output), notice: d.texts.saved })) },
              onError: { target: 'editing', actions: { type: 'storeSaveError', params: ({ event }) => ({ error: messageOf(event.error, d.texts.saveFailed) }) } },
            },
            after: { requestTimeout: { target: 'editing', actions: { type: 'storeSaveError', params: { error: TIMED_OUT } } } },
          },
        },
      },
    },
  })
}

export type SettingsFormView<Draft, Field extends string> =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | {
      phase: 'ready'
      canManage: boolean
      draft: Draft
      errors: Partial<Record<Field, string>>
      changed: boolean
      saving: boolean
      error: string | null
      notice: string | null
    }

/** The selector of a page's view: what the form shows in each state. */
export function settingsFormView<Saved, Draft, Change, Body, Field extends string, Id extends string, Load extends string, Save extends string>(
  d: SettingsFormDescription<Saved, Draft, Change, Body, Field, Id, Load, Save>,
) {
  return (snapshot: SnapshotFrom<ReturnType<typeof settingsFormMachine<Saved, Draft, Change, Body, Field, Id, Load, Save>>>): SettingsFormView<Draft, Field> => {
    const c = snapshot.context
    if (snapshot.matches('loading')) return { phase: 'loading' }
    if (snapshot.matches('failed') || !c.draft || !c.saved) return { phase: 'failed', error: c.loadError ?? d.texts.loadFailed }
    const made = d.patchOf(c.draft)
    return {
      phase: 'ready',
      canManage: c.canManage,
      draft: c.draft,
      errors: made.ok ? {} : made.errors,
      changed: d.isChanged(c.saved, c.draft),
      saving: snapshot.matches({ ready: 'saving' }),
      error: c.saveError,
      notice: c.notice,
    }
  }
}
