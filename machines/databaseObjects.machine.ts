/**
 * One page of the Database section's objects (functions, triggers, enumerated types, indexes, extensions, roles,
 * publications) or the Policies page: the catalog's list for one schema, and every change to it shown as SQL before
 * it runs. A change comes straight from the list (drop, enable, disable) or from a form (a policy from a template, a
 * new function, trigger or enumerated type);
 * its SQL is asked of the server (previewing), shown until confirmed (confirming), run (applying), and the list read
 * again. Cancelling or a refused preview goes back to where the change came from, the form's draft kept.
 * Invariant: nothing runs that was not shown first; the SQL shown is the SQL the server runs for the same change.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { PROJECT_DATABASE_TIMEOUT_MS } from './projectDatabaseTimeout'
import type {
  ChangeApplied, ObjectChangeInput, ObjectKind, ObjectLists, PolicyCommand,
} from '../src/contracts/databaseObjects'

/** A kind's list, told apart by its kind. */
export type ObjectData = { [K in ObjectKind]: { kind: K; items: ObjectLists[K] } }[ObjectKind]

export interface ObjectsAnswer {
  data: ObjectData
  /** The schemas to choose from (empty for the kinds that are the whole database's). */
  schemas: string[]
}

/** The policy form's fields, as typed. */
export interface PolicyDraft {
  table: string
  name: string
  command: PolicyCommand
  roles: string
  using: string
  check: string
  /** Set when editing an existing policy: its name now. */
  editing: string | null
}

/** The form of a new function: its arguments as typed ('a integer, b text'), its body as SQL or PL/pgSQL. */
export interface FunctionDraft {
  form: 'function'
  name: string
  arguments: string
  return_type: string
  language: 'sql' | 'plpgsql'
  definition: string
  security_definer: boolean
}

/** The form of a new trigger on a table of the page's schema, calling a trigger function. */
export interface TriggerDraft {
  form: 'trigger'
  name: string
  table: string
  timing: 'BEFORE' | 'AFTER'
  events: Array<'INSERT' | 'UPDATE' | 'DELETE' | 'TRUNCATE'>
  orientation: 'ROW' | 'STATEMENT'
  function_schema: string
  function_name: string
}

/** The form of a new enumerated type: its values one a line. */
export interface TypeDraft {
  form: 'type'
  name: string
  values: string
}

export type CreateDraft = FunctionDraft | TriggerDraft | TypeDraft
/** What a form holds: a policy (made or edited) or a new object. */
export type ObjectDraft = PolicyDraft | CreateDraft

export const BLANK_DRAFTS: { [K in CreateDraft['form']]: Extract<CreateDraft, { form: K }> } = {
  function: { form: 'function', name: '', arguments: '', return_type: 'void', language: 'plpgsql', definition: 'begin\n\nend;', security_definer: false },
  trigger: { form: 'trigger', name: '', table: '', timing: 'BEFORE', events: ['INSERT'], orientation: 'ROW', function_schema: 'public', function_name: '' },
  type: { form: 'type', name: '', values: '' },
}

export const isCreateDraft = (draft: ObjectDraft): draft is CreateDraft => 'form' in draft

interface Context {
  ref: string
  kind: ObjectKind
  schema: string
  schemas: string[]
  data: ObjectData | null
  error: string | null
  draft: ObjectDraft | null
  change: ObjectChangeInput | null
  sql: string | null
  changeError: string | null
  /** The command tag of the last change run ('CREATE POLICY'). */
  notice: string | null
}

type DatabaseObjectsEvent =
  | { type: 'objects.retry' }
  | { type: 'objects.refresh' }
  | { type: 'schema.select'; schema: string }
  | { type: 'change.request'; change: ObjectChangeInput }
  | { type: 'draft.open'; draft: ObjectDraft }
  | { type: 'draft.edit'; patch: Partial<PolicyDraft> | Partial<Omit<FunctionDraft, 'form'>> | Partial<Omit<TriggerDraft, 'form'>> | Partial<Omit<TypeDraft, 'form'>> }
  | { type: 'draft.submit' }
  | { type: 'draft.close' }
  | { type: 'change.confirm' }
  | { type: 'change.cancel' }

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

/**
 * The arguments of a function as typed ('a integer, b text[]'): each a name and a type. Empty pieces are dropped; a
 * piece without a type keeps an empty type, which the platform refuses with its message.
 */
export function argumentsOf(text: string): Array<{ name: string; type: string }> {
  return text
    .split(',')
    .map((piece) => piece.trim())
    .filter(Boolean)
    .map((piece) => {
      const space = piece.search(/\s/)
      return space === -1 ? { name: piece, type: '' } : { name: piece.slice(0, space), type: piece.slice(space).trim() }
    })
}

/** The change a form describes: a new policy or the edit of one, or a new function, trigger or enumerated type. */
export function changeOfDraft(schema: string, draft: ObjectDraft): ObjectChangeInput {
  if (isCreateDraft(draft)) {
    switch (draft.form) {
      case 'function':
        return {
          action: 'function.create', schema, name: draft.name, arguments: argumentsOf(draft.arguments), return_type: draft.return_type,
          language: draft.language, definition: draft.definition, security_definer: draft.security_definer,
        }
      case 'trigger':
        return {
          action: 'trigger.create', schema, table: draft.table, name: draft.name, timing: draft.timing, events: draft.events,
          orientation: draft.orientation, function_schema: draft.function_schema, function_name: draft.function_name,
        }
      case 'type':
        return { action: 'type.create', schema, name: draft.name, values: draft.values.split('\n').map((v) => v.trim()).filter(Boolean) }
    }
  }
  const roles = draft.roles.split(',').map((r) => r.trim()).filter(Boolean)
  const using = draft.using.trim() || undefined
  const check = draft.check.trim() || undefined
  if (draft.editing !== null) {
    return {
      action: 'policy.update', schema, table: draft.table, name: draft.editing, roles, using, check,
      ...(draft.name !== draft.editing ? { new_name: draft.name } : {}),
    }
  }
  return { action: 'policy.create', schema, table: draft.table, name: draft.name, command: draft.command, roles, using, check }
}

export const databaseObjectsMachine = setup({
  types: {
    input: {} as { ref: string; kind: ObjectKind },
    context: {} as Context,
    events: {} as DatabaseObjectsEvent,
    children: {} as { listObjects: 'listObjects'; previewChange: 'previewChange'; applyChange: 'applyChange' },
  },
  actors: {
    listObjects: fromPromise<ObjectsAnswer, { ref: string; kind: ObjectKind; schema: string }>(async () => {
      throw new Error('listObjects not provided')
    }),
    previewChange: fromPromise<string, { ref: string; change: ObjectChangeInput }>(async () => {
      throw new Error('previewChange not provided')
    }),
    applyChange: fromPromise<ChangeApplied, { ref: string; change: ObjectChangeInput }>(async () => {
      throw new Error('applyChange not provided')
    }),
  },
  guards: {
    fromForm: ({ context }) => context.draft !== null,
  },
  actions: {
    storeList: assign((_, params: { answer: ObjectsAnswer }) => ({ data: params.answer.data, schemas: params.answer.schemas, error: null })),
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
    storeChange: assign((_, params: { change: ObjectChangeInput }) => ({ change: params.change, changeError: null, notice: null })),
    storeSql: assign((_, params: { sql: string }) => ({ sql: params.sql })),
    storeChangeError: assign((_, params: { error: string }) => ({ changeError: params.error })),
    forgetChange: assign({ change: null, sql: null }),
    storeNotice: assign((_, params: { applied: ChangeApplied }) => ({
      notice: params.applied.command, change: null, sql: null, draft: null, changeError: null,
    })),
  },
  delays: {
    requestTimeout: PROJECT_DATABASE_TIMEOUT_MS,
  },
}).createMachine({
  id: 'databaseObjects',
  context: ({ input }) => ({
    ref: input.ref, kind: input.kind, schema: 'public', schemas: [], data: null, error: null,
    draft: null, change: null, sql: null, changeError: null, notice: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'listObjects',
        src: 'listObjects',
        input: ({ context }) => ({ ref: context.ref, kind: context.kind, schema: context.schema }),
        onDone: { target: 'loaded', actions: { type: 'storeList', params: ({ event }) => ({ answer: event.output }) } },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load') }) } },
      },
      after: {
        requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: 'The request timed out' } } },
      },
    },
    failed: {
      on: { 'objects.retry': 'loading' },
    },
    loaded: {
      on: {
        'objects.refresh': { target: 'loading', actions: assign({ notice: null }) },
        'schema.select': { target: 'loading', actions: assign(({ event }) => ({ schema: event.schema, notice: null })) },
        'change.request': { target: 'previewing', actions: { type: 'storeChange', params: ({ event }) => ({ change: event.change }) } },
        'draft.open': { target: 'editing', actions: assign(({ event }) => ({ draft: event.draft, changeError: null, notice: null })) },
      },
    },
    editing: {
      on: {
        // A patch holds fields of the open form's kind (the view edits the form it shows).
        'draft.edit': { actions: assign(({ context, event }) => ({ draft: context.draft ? ({ ...context.draft, ...event.patch } as ObjectDraft) : null })) },
        'draft.submit': {
          target: 'previewing',
          actions: { type: 'storeChange', params: ({ context }) => ({ change: changeOfDraft(context.schema, context.draft!) }) },
        },
        'draft.close': { target: 'loaded', actions: assign({ draft: null, changeError: null }) },
      },
    },
    previewing: {
      invoke: {
        id: 'previewChange',
        src: 'previewChange',
        input: ({ context }) => ({ ref: context.ref, change: context.change! }),
        onDone: { target: 'confirming', actions: { type: 'storeSql', params: ({ event }) => ({ sql: event.output }) } },
        onError: [
          {
            guard: 'fromForm',
            target: 'editing',
            actions: ['forgetChange', { type: 'storeChangeError', params: ({ event }) => ({ error: messageOf(event.error, 'The change was refused') }) }],
          },
          {
            target: 'loaded',
            actions: ['forgetChange', { type: 'storeChangeError', params: ({ event }) => ({ error: messageOf(event.error, 'The change was refused') }) }],
          },
        ],
      },
    },
    confirming: {
      on: {
        'change.confirm': { target: 'applying', actions: assign({ changeError: null }) },
        'change.cancel': [
          { guard: 'fromForm', target: 'editing', actions: ['forgetChange', assign({ changeError: null })] },
          { target: 'loaded', actions: ['forgetChange', assign({ changeError: null })] },
        ],
      },
    },
    applying: {
      invoke: {
        id: 'applyChange',
        src: 'applyChange',
        input: ({ context }) => ({ ref: context.ref, change: context.change! }),
        onDone: { target: 'loading', actions: { type: 'storeNotice', params: ({ event }) => ({ applied: event.output }) } },
        onError: { target: 'confirming', actions: { type: 'storeChangeError', params: ({ event }) => ({ error: messageOf(event.error, 'The change failed') }) } },
      },
    },
  },
})

export type DatabaseObjectsSnapshot = SnapshotFrom<typeof databaseObjectsMachine>

export type DatabaseObjectsView =
  | { phase: 'loading'; schema: string; notice: string | null }
  | { phase: 'failed'; error: string }
  | {
      phase: 'loaded'
      data: ObjectData
      schema: string
      schemas: string[]
      /** The list's actions are open (no change under way). */
      idle: boolean
      notice: string | null
      changeError: string | null
      draft: ObjectDraft | null
      /** The SQL to confirm, while a change waits for it or runs. */
      confirm: { sql: string; running: boolean } | null
      previewing: boolean
    }

export function selectDatabaseObjectsView(snapshot: DatabaseObjectsSnapshot): DatabaseObjectsView {
  const { data, error, schema, schemas, notice, changeError, draft, sql } = snapshot.context
  if (snapshot.matches('loading') || !data) {
    if (snapshot.matches('failed')) return { phase: 'failed', error: error ?? 'Failed to load' }
    return { phase: 'loading', schema, notice }
  }
  if (snapshot.matches('failed')) return { phase: 'failed', error: error ?? 'Failed to load' }
  const confirming = snapshot.matches('confirming') || snapshot.matches('applying')
  return {
    phase: 'loaded',
    data,
    schema,
    schemas,
    idle: snapshot.matches('loaded'),
    notice,
    changeError,
    draft,
    confirm: confirming && sql !== null ? { sql, running: snapshot.matches('applying') } : null,
    previewing: snapshot.matches('previewing'),
  }
}
