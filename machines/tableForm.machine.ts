/**
 * Table Editor form: a table made or changed from a description (name, comment, RLS, columns, foreign keys). The form
 * opens once it has read what a foreign key may reference (the picker's schemas, tables and columns) and, to change a
 * table, the table as the catalog has it (add, rename, drop columns; change a type, default or nullability).
 * The SQL it will run is asked of the platform and shown before anything runs; only a confirmation runs it.
 * Invariants: what runs is the definition the person reviewed (editing after a preview goes back to editing, and a
 * new preview is needed); a failed preview or run keeps the definition and says why.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { TableDefinition, TableDefinitionAnswer, TableReferences } from '../src/contracts/tableEditor'

export interface DefinitionRequest {
  ref: string
  /** The table changed; null when a new one is made. */
  table: string | null
  definition: TableDefinition
  run: boolean
}

export interface FormData {
  /** The table as the catalog has it; null for a new table (the input's definition is the start). */
  definition: TableDefinition | null
  references: TableReferences['tables']
}

interface Context {
  ref: string
  table: string | null
  definition: TableDefinition
  references: TableReferences['tables']
  sql: string | null
  error: string | null
}

type FormEvent =
  | { type: 'form.retry' }
  | { type: 'definition.changed'; definition: TableDefinition }
  | { type: 'preview.request' }
  | { type: 'review.back' }
  | { type: 'review.confirm' }

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

export const NEW_TABLE: TableDefinition = {
  name: '',
  comment: '',
  rls_enabled: true,
  columns: [
    { name: 'id', type: 'bigint', identity: true, primary_key: true, nullable: false },
    { name: 'created_at', type: 'timestamp with time zone', default: 'now()', nullable: false },
  ],
  foreign_keys: [],
}

export const tableFormMachine = setup({
  types: {
    input: {} as { ref: string; table: string | null; definition: TableDefinition },
    context: {} as Context,
    events: {} as FormEvent,
    children: {} as { loadForm: 'loadForm'; previewTable: 'previewTable'; runTable: 'runTable' },
  },
  actors: {
    loadForm: fromPromise<FormData, { ref: string; table: string | null }>(async () => {
      throw new Error('loadForm not provided')
    }),
    previewTable: fromPromise<TableDefinitionAnswer, DefinitionRequest>(async () => {
      throw new Error('previewTable not provided')
    }),
    runTable: fromPromise<TableDefinitionAnswer, DefinitionRequest>(async () => {
      throw new Error('runTable not provided')
    }),
  },
  actions: {
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
  },
  guards: {
    hasName: ({ context }) => context.definition.name.trim() !== '' && context.definition.columns.length > 0,
  },
}).createMachine({
  id: 'tableForm',
  context: ({ input }) => ({ ref: input.ref, table: input.table, definition: input.definition, references: [], sql: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadForm',
        src: 'loadForm',
        input: ({ context }) => ({ ref: context.ref, table: context.table }),
        onDone: {
          target: 'editing',
          actions: assign(({ context, event }) => ({ definition: event.output.definition ?? context.definition, references: event.output.references, error: null })),
        },
        onError: { target: 'loadFailed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'The form could not be read') }) } },
      },
    },
    loadFailed: { on: { 'form.retry': 'loading' } },
    editing: {
      on: {
        'definition.changed': { actions: assign({ definition: ({ event }) => event.definition, sql: null }) },
        'preview.request': { guard: 'hasName', target: 'previewing', actions: assign({ error: null }) },
      },
    },
    previewing: {
      invoke: {
        id: 'previewTable',
        src: 'previewTable',
        input: ({ context }) => ({ ref: context.ref, table: context.table, definition: context.definition, run: false }),
        onDone: { target: 'reviewing', actions: assign({ sql: ({ event }) => event.output.sql }) },
        onError: { target: 'editing', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'The SQL could not be prepared') }) } },
      },
    },
    /** The SQL is shown; nothing has run. */
    reviewing: {
      on: {
        'review.back': { target: 'editing', actions: assign({ sql: null }) },
        'review.confirm': 'running',
      },
    },
    running: {
      invoke: {
        id: 'runTable',
        src: 'runTable',
        input: ({ context }) => ({ ref: context.ref, table: context.table, definition: context.definition, run: true }),
        onDone: 'done',
        onError: { target: 'reviewing', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error, 'The SQL failed') }) } },
      },
    },
    done: { type: 'final' },
  },
})

type TableFormSnapshot = SnapshotFrom<typeof tableFormMachine>

export type TableFormView = {
  step: 'loading' | 'loadFailed' | 'editing' | 'previewing' | 'reviewing' | 'running' | 'done'
  /** The table changed, or null when a new one is made. */
  table: string | null
  definition: TableDefinition
  references: TableReferences['tables']
  sql: string | null
  error: string | null
  canPreview: boolean
}

export function selectTableFormView(snapshot: TableFormSnapshot): TableFormView {
  const step = (['loading', 'loadFailed', 'previewing', 'reviewing', 'running', 'done'] as const).find((s) => snapshot.matches(s)) ?? 'editing'
  return {
    step,
    table: snapshot.context.table,
    definition: snapshot.context.definition,
    references: snapshot.context.references,
    sql: snapshot.context.sql,
    error: snapshot.context.error,
    canPreview: snapshot.can({ type: 'preview.request' }),
  }
}

/** The foreign-key picker's choices: the schemas, the tables of the chosen schema, the columns a key may point at. */
export function referenceChoices(references: TableReferences['tables'], schema: string, table: string) {
  const schemas = [...new Set(references.map((t) => t.schema))]
  const tables = references.filter((t) => t.schema === schema).map((t) => t.name)
  const columns = references.find((t) => t.schema === schema && t.name === table)?.columns.filter((c) => c.unique).map((c) => c.name) ?? []
  return { schemas, tables, columns }
}
