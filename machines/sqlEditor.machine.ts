/**
 * SQL Editor: one query per project, kept as it is typed (persistQuery, the browser's storage) and read back when the
 * editor opens (loadSavedQuery). Run sends the selection or the statement under the cursor (the view says which text);
 * each statement's result, capped at the row limit, or the Postgres error replaces the previous outcome. Explain asks
 * for the plan of one statement instead. A destructive statement (drop, truncate, delete/update without where) waits
 * for a confirmation first. A run goes as the owner, anon, or a chosen user (`authenticated` needs one).
 * The catalog (schemas, tables, columns, functions, the users to run as) is read for completion beside the editor,
 * and read again after a run that changed the schema.
 * Format waits for the formatter (formatSql: its code loads on the first Format, not with the editor); its text
 * replaces the query only if the query is still the one it formatted.
 * Invariants: a run, its failure or its time-out never changes the text; one run at a time; a run unanswered after
 * queryTimeout is abandoned (leaving `running` aborts its request) and reported as timed out.
 */
import { assign, emit, fromPromise, raise, setup, type SnapshotFrom } from 'xstate'
import { ROW_LIMIT_DEFAULT, type SqlCompletions, type SqlRunResult, type SqlRunRole, type SqlUsers, type StatementResult } from '../src/contracts/sqlEditor'
import { PROJECT_DATABASE_TIMEOUT_MS } from './projectDatabaseTimeout'

/** A failed run as the editor shows it: the Postgres error's fields when the server sent them. */
export interface QueryFailure {
  message: string
  code?: string
  /** 1-based character offset in the query that ran. */
  position?: number
  detail?: string
  hint?: string
}

export interface SqlCatalog {
  completions: SqlCompletions
  users: SqlUsers['users']
}

/** A formatted query, with the text it was made from. */
export interface FormattedSql {
  from: string
  formatted: string
}

export interface RunInput {
  ref: string
  query: string
  role: SqlRunRole
  userId: string | null
  rowLimit: number
  explain: boolean
}

interface Context {
  ref: string
  query: string
  /** The text of the last run (the error's position points into it, whatever was typed since). */
  ran: string
  explain: boolean
  role: SqlRunRole
  userId: string | null
  rowLimit: number
  result: SqlRunResult | null
  failure: QueryFailure | null
  /** The result on screen when a run answered several. */
  selected: number
  /** The destructive statement a confirmation waits for. */
  destructive: string | null
  catalog: SqlCatalog | null
  /** Why the last Format did nothing (its code could not be loaded). */
  formatFailure: string | null
}

type SqlEditorEvent =
  | { type: 'query.change'; query: string }
  | { type: 'query.format' }
  | { type: 'query.run'; text: string }
  | { type: 'query.explain'; text: string }
  | { type: 'run.confirm' }
  | { type: 'run.cancel' }
  | { type: 'role.change'; role: SqlRunRole }
  | { type: 'user.change'; userId: string | null }
  | { type: 'rowLimit.change'; rowLimit: number }
  | { type: 'result.select'; index: number }
  | { type: 'result.copy'; text: string }
  | { type: 'result.export'; format: 'csv' | 'json' }
  | { type: 'catalog.retry' }
  | { type: 'catalog.refresh' }

// A statement may run up to the platform's query time-out after waiting for a database slot (and the database to
// open): the editor waits as every other read of the project's database does, never less than the platform may take.
const QUERY_TIMEOUT_MS = PROJECT_DATABASE_TIMEOUT_MS

const optionalString = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined)

/** The fields of a failure, whatever threw it (the live actor throws the server's QueryError fields on an Error). */
export function failureOf(error: unknown): QueryFailure {
  if (!(error instanceof Error)) return { message: 'The query failed' }
  const fields = error as Error & Record<string, unknown>
  const position = typeof fields.position === 'number' && Number.isInteger(fields.position) && fields.position > 0 ? fields.position : undefined
  return {
    message: error.message || 'The query failed',
    code: optionalString(fields.code),
    position,
    detail: optionalString(fields.detail),
    hint: optionalString(fields.hint),
  }
}

/** The script's text with comments and quoted text blanked (same length), so words are found only in code. */
function codeOnly(text: string): string {
  return text.replace(/--[^\n]*|\/\*[\s\S]*?\*\/|'(?:[^']|'')*'|"(?:[^"]|"")*"|\$([A-Za-z_]*)\$[\s\S]*?\$\1\$/g, (m) => ' '.repeat(m.length))
}

/** The statements of a script with their offsets (cut at `;` outside quotes, comments and dollar quotes). */
export function statementsOf(text: string): Array<{ from: number; to: number; text: string }> {
  const code = codeOnly(text)
  const out: Array<{ from: number; to: number; text: string }> = []
  let from = 0
  for (let i = 0; i <= code.length; i += 1) {
    if (i === code.length || code[i] === ';') {
      const piece = text.slice(from, i)
      if (piece.trim() !== '') out.push({ from, to: i, text: piece.trim() })
      from = i + 1
    }
  }
  return out
}

/** The statement the cursor is in (or just after), or the whole text when it has none. */
export function statementAt(text: string, cursor: number): string {
  const statements = statementsOf(text)
  const found = statements.find((s) => cursor >= s.from && cursor <= s.to + 1) ?? statements.findLast((s) => s.to < cursor)
  return found?.text ?? text
}

/**
 * The first statement that destroys data without a filter, as the platform asks before it runs one: DROP, TRUNCATE,
 * or DELETE/UPDATE without WHERE. Null when there is none.
 */
export function destructiveStatement(text: string): string | null {
  for (const statement of statementsOf(text)) {
    const code = codeOnly(statement.text).toLowerCase().trim()
    if (/^(drop|truncate)\b/.test(code)) return statement.text
    if (/^(with\b[\s\S]*\b)?(delete|update)\b/.test(code) && !/\bwhere\b/.test(code)) return statement.text
  }
  return null
}

const SCHEMA_COMMAND = /^(CREATE|ALTER|DROP|COMMENT|GRANT|REVOKE|TRUNCATE)\b/

/** A result as CSV (RFC 4180: every field quoted when it holds a comma, quote or line break). */
export function csvOf(result: StatementResult): string {
  const field = (value: unknown) => {
    const text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
  }
  const lines = [result.columns.map((c) => field(c.name)).join(',')]
  for (const row of result.rows) lines.push(result.columns.map((c) => field(row[c.name])).join(','))
  return `${lines.join('\r\n')}\r\n`
}

export const jsonOf = (result: StatementResult) => JSON.stringify(result.rows, null, 2)

const sqlEditorSetup = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    events: {} as SqlEditorEvent,
    children: {} as { loadSavedQuery: 'loadSavedQuery'; runSql: 'runSql'; loadCatalog: 'loadCatalog'; formatSql: 'formatSql' },
    /** A run ended (answered or failed): the history has a new entry. */
    emitted: {} as { type: 'ran' },
  },
  actors: {
    loadSavedQuery: fromPromise<string | null, { ref: string }>(async () => {
      throw new Error('loadSavedQuery not provided')
    }),
    runSql: fromPromise<SqlRunResult, RunInput>(async () => {
      throw new Error('runSql not provided')
    }),
    loadCatalog: fromPromise<SqlCatalog, { ref: string }>(async () => {
      throw new Error('loadCatalog not provided')
    }),
    formatSql: fromPromise<FormattedSql, { query: string }>(async () => {
      throw new Error('formatSql not provided')
    }),
  },
  actions: {
    /** Provided by the app: remembers the text for this project (the browser's storage). */
    persistQuery: (_, _params: { ref: string; query: string }) => {},
    /** Provided by the app: puts text on the clipboard. */
    copyText: (_, _params: { text: string }) => {},
    /** Provided by the app: saves a file. */
    download: (_, _params: { filename: string; mediaType: string; text: string }) => {},
    storeQuery: assign((_, params: { query: string }) => ({ query: params.query })),
    storeFailure: assign((_, params: { failure: QueryFailure }) => ({ failure: params.failure, result: null })),
    storeResult: assign((_, params: { result: SqlRunResult }) => ({ result: params.result, failure: null, selected: 0, destructive: null })),
  },
  guards: {
    canRun: ({ context }, params: { text: string }) => params.text.trim() !== '' && (context.role !== 'authenticated' || context.userId !== null),
    isDestructive: (_, params: { text: string }) => destructiveStatement(params.text) !== null,
    changedSchema: (_, params: { result: SqlRunResult }) => params.result.results.some((r) => SCHEMA_COMMAND.test(r.command)),
    /** The query is still the text the formatter was given (nothing typed or opened while it loaded). */
    stillFormatted: ({ context }, params: { from: string }) => context.query === params.from,
  },
  delays: {
    queryTimeout: QUERY_TIMEOUT_MS,
  },
})

export const sqlEditorMachine = sqlEditorSetup.createMachine({
  id: 'sqlEditor',
  context: ({ input }) => ({
    ref: input.ref,
    query: '',
    ran: '',
    explain: false,
    role: 'postgres',
    userId: null,
    rowLimit: ROW_LIMIT_DEFAULT,
    result: null,
    failure: null,
    selected: 0,
    destructive: null,
    catalog: null,
    formatFailure: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadSavedQuery',
        src: 'loadSavedQuery',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'editing', actions: { type: 'storeQuery', params: ({ event }) => ({ query: event.output ?? '' }) } },
        // Nothing remembered (storage refused): start from an empty editor.
        onError: 'editing',
      },
    },
    editing: {
      type: 'parallel',
      on: {
        'query.change': {
          actions: [
            { type: 'storeQuery', params: ({ event }) => ({ query: event.query }) },
            { type: 'persistQuery', params: ({ context, event }) => ({ ref: context.ref, query: event.query }) },
          ],
        },
        'role.change': { actions: assign({ role: ({ event }) => event.role }) },
        'user.change': { actions: assign({ userId: ({ event }) => event.userId }) },
        'rowLimit.change': { actions: assign({ rowLimit: ({ event }) => event.rowLimit }) },
        'result.select': { actions: assign({ selected: ({ event }) => event.index }) },
        'result.copy': { actions: { type: 'copyText', params: ({ event }) => ({ text: event.text }) } },
        'result.export': {
          guard: ({ context }) => (context.result?.results[context.selected]?.columns.length ?? 0) > 0,
          actions: {
            type: 'download',
            params: ({ context, event }) => {
              const result = context.result!.results[context.selected]
              return event.format === 'csv'
                ? { filename: 'results.csv', mediaType: 'text/csv', text: csvOf(result) }
                : { filename: 'results.json', mediaType: 'application/json', text: jsonOf(result) }
            },
          },
        },
      },
      states: {
        run: {
          initial: 'settled',
          states: {
            /** No run under way: the last outcome (none, an answer, a failure) stays on screen until the next run. */
            settled: {
              initial: 'idle',
              on: {
                // A destructive statement waits for its confirmation (confirming passes straight on otherwise).
                'query.run': {
                  guard: { type: 'canRun', params: ({ event }) => ({ text: event.text }) },
                  target: 'confirming',
                  actions: assign({ ran: ({ event }) => event.text, explain: false, destructive: ({ event }) => destructiveStatement(event.text) }),
                },
                // Explain only reads the plan: nothing to confirm.
                'query.explain': {
                  guard: { type: 'canRun', params: ({ event }) => ({ text: event.text }) },
                  target: 'running',
                  actions: assign({ ran: ({ event }) => event.text, explain: true, destructive: null }),
                },
              },
              states: { idle: {}, succeeded: {}, failed: {} },
            },
            confirming: {
              always: { guard: ({ context }) => context.destructive === null, target: 'running' },
              on: {
                'run.confirm': 'running',
                'run.cancel': { target: 'settled.idle', actions: assign({ destructive: null, result: null, failure: null }) },
              },
            },
            running: {
              invoke: {
                id: 'runSql',
                src: 'runSql',
                input: ({ context }) => ({
                  ref: context.ref,
                  query: context.ran,
                  role: context.role,
                  userId: context.role === 'authenticated' ? context.userId : null,
                  rowLimit: context.rowLimit,
                  explain: context.explain,
                }),
                onDone: [
                  {
                    guard: { type: 'changedSchema', params: ({ event }) => ({ result: event.output }) },
                    target: 'settled.succeeded',
                    actions: [{ type: 'storeResult', params: ({ event }) => ({ result: event.output }) }, raise({ type: 'catalog.refresh' }), emit({ type: 'ran' })],
                  },
                  { target: 'settled.succeeded', actions: [{ type: 'storeResult', params: ({ event }) => ({ result: event.output }) }, emit({ type: 'ran' })] },
                ],
                onError: {
                  target: 'settled.failed',
                  actions: [{ type: 'storeFailure', params: ({ event }) => ({ failure: failureOf(event.error) }) }, assign({ destructive: null }), emit({ type: 'ran' })],
                },
              },
              after: {
                queryTimeout: {
                  target: 'settled.failed',
                  actions: {
                    type: 'storeFailure',
                    params: {
                      failure: {
                        message: `The query did not answer within ${QUERY_TIMEOUT_MS / 1_000} s and was abandoned. Your query is still in the editor: run it again or make it faster.`,
                        code: 'client_timeout',
                      },
                    },
                  },
                },
              },
            },
          },
        },
        format: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'query.format': { guard: ({ context }) => context.query.trim() !== '', target: 'formatting', actions: assign({ formatFailure: null }) },
              },
            },
            /** Waiting for the formatter: on the first Format its code loads; later ones answer at once. */
            formatting: {
              invoke: {
                id: 'formatSql',
                src: 'formatSql',
                input: ({ context }) => ({ query: context.query }),
                onDone: [
                  {
                    guard: { type: 'stillFormatted', params: ({ event }) => ({ from: event.output.from }) },
                    target: 'idle',
                    actions: [
                      { type: 'storeQuery', params: ({ event }) => ({ query: event.output.formatted }) },
                      { type: 'persistQuery', params: ({ context, event }) => ({ ref: context.ref, query: event.output.formatted }) },
                    ],
                  },
                  // Typed over meanwhile: the person's text wins, the formatted one is dropped.
                  { target: 'idle' },
                ],
                onError: {
                  target: 'idle',
                  actions: assign({ formatFailure: ({ event }) => `The formatter could not be loaded: ${event.error instanceof Error ? event.error.message : String(event.error)}` }),
                },
              },
            },
          },
        },
        catalog: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadCatalog',
                src: 'loadCatalog',
                input: ({ context }) => ({ ref: context.ref }),
                onDone: { target: 'ready', actions: assign({ catalog: ({ event }) => event.output }) },
                // Completion then offers the keywords only; the editor works as before.
                onError: 'unavailable',
              },
            },
            ready: { on: { 'catalog.refresh': 'loading' } },
            unavailable: { on: { 'catalog.retry': 'loading', 'catalog.refresh': 'loading' } },
          },
        },
      },
    },
  },
})

type SqlEditorSnapshot = SnapshotFrom<typeof sqlEditorMachine>

/** Where a 1-based character position falls in a text: its line and column (both 1-based) and that line. */
export function locate(text: string, position: number): { line: number; column: number; text: string } | null {
  // Postgres counts characters (code points), not UTF-16 units.
  const chars = Array.from(text)
  if (position < 1 || position > chars.length + 1) return null
  const before = chars.slice(0, position - 1).join('')
  const lines = before.split('\n')
  const line = lines.length
  const column = Array.from(lines[lines.length - 1]).length + 1
  return { line, column, text: text.split('\n')[line - 1] ?? '' }
}

export type SqlOutcome =
  | { kind: 'none' }
  | { kind: 'confirming'; statement: string }
  | { kind: 'running'; explain: boolean }
  | { kind: 'result'; run: SqlRunResult; selected: number }
  | { kind: 'plan'; run: SqlRunResult }
  | { kind: 'error'; failure: QueryFailure; at: { line: number; column: number; text: string } | null }

export interface SqlEditorView {
  phase: 'loading' | 'ready'
  query: string
  role: SqlRunRole
  userId: string | null
  rowLimit: number
  outcome: SqlOutcome
  catalog: SqlCatalog | null
  catalogState: 'loading' | 'ready' | 'unavailable'
  formatting: boolean
  formatFailure: string | null
}

export function selectSqlEditorView(snapshot: SqlEditorSnapshot): SqlEditorView {
  const { query, ran, result, failure, role, userId, rowLimit, catalog, selected, destructive, explain, formatFailure } = snapshot.context
  const base = { query, role, userId, rowLimit, catalog, formatting: snapshot.matches({ editing: { format: 'formatting' } }), formatFailure }
  if (snapshot.matches('loading')) return { ...base, phase: 'loading', outcome: { kind: 'none' }, catalogState: 'loading' }
  let outcome: SqlOutcome = { kind: 'none' }
  if (snapshot.matches({ editing: { run: 'confirming' } }) && destructive) outcome = { kind: 'confirming', statement: destructive }
  else if (snapshot.matches({ editing: { run: 'running' } })) outcome = { kind: 'running', explain }
  else if (snapshot.matches({ editing: { run: { settled: 'succeeded' } } }) && result) {
    outcome = result.plan ? { kind: 'plan', run: result } : { kind: 'result', run: result, selected: Math.min(selected, Math.max(result.results.length - 1, 0)) }
  } else if (snapshot.matches({ editing: { run: { settled: 'failed' } } }) && failure) {
    outcome = { kind: 'error', failure, at: failure.position === undefined ? null : locate(ran, failure.position) }
  }
  const catalogState = snapshot.matches({ editing: { catalog: 'ready' } }) ? 'ready' : snapshot.matches({ editing: { catalog: 'unavailable' } }) ? 'unavailable' : 'loading'
  return { ...base, phase: 'ready', outcome, catalogState }
}

/** Whether Run would start a run of `text` now. */
export const selectCanRun = (snapshot: SqlEditorSnapshot) => snapshot.can({ type: 'query.run', text: snapshot.context.query })
