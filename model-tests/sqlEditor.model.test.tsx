import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { EditorView } from '@codemirror/view'
import { describe, expect, it, vi } from 'vitest'
import { createActor, toPromise, type AnyMachineSnapshot, type EventObject, type PromiseActorLogic } from 'xstate'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../machines/projectDatabaseTimeout'
import { sqlEditorMachine, type FormattedSql, type RunInput, type SqlCatalog } from '../machines/sqlEditor.machine'
import { liveSqlEditorMachine } from '../src/api/live/sqlEditor'
import type { SqlRunResult } from '../src/contracts/sqlEditor'
import { SqlEditor } from '../src/views/project/database/SqlEditorPage'
import { REF } from '../tests/fixtures'
import { CATALOG, PLAN_RESULT, RUN_RESULT } from '../tests/fixtures.sqlEditor'
import { describePath, errorOf, eventFor, missingCoverage, modelOf, outputOf, type ModelEvent } from './harness'
import { deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(sqlEditorMachine)

const SAVED = 'select 1 as n,\n  doc from t'
const TYPED = 'select 2;\nselec 3;'
const DROP = 'drop table customers'
/** SAVED as sql-formatter writes it (checked against the live formatter below). */
const FORMATTED = 'select\n  1 as n,\n  doc\nfrom\n  t'
/** What the live actor throws for a 400 QueryError: the Postgres fields on the Error. */
const SYNTAX_ERROR = Object.assign(new Error('syntax error at or near "selec"'), { code: '42601', position: 11, hint: 'Check the spelling' })
const QUERY_TIMEOUT = PROJECT_DATABASE_TIMEOUT_MS
/** Events that leave the state as it was: the key keeps their type, so a path takes each of them. */
const SELF_LOOPS = new Set(['rowLimit.change', 'result.select', 'result.copy', 'result.export', 'catalog.refresh'])

const queryOf = (snapshot: AnyMachineSnapshot) => snapshot.context.query as string
const atRest = (s: AnyMachineSnapshot) => ['idle', 'succeeded', 'failed'].some((r) => s.matches({ editing: { run: { settled: r } } }))

/** What the model offers in each state; the paths below may take only these. */
const modelOptions = {
  input: { ref: REF },
  events: (snapshot: AnyMachineSnapshot): Array<ModelEvent<typeof sqlEditorMachine>> => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.loadSavedQuery', output: SAVED },
        { type: 'xstate.error.actor.loadSavedQuery', error: new Error('SecurityError: storage refused') },
      ]
    }
    const events = []
    const query = queryOf(snapshot)
    // The formatter loading: it answers, fails to load, or the person types over the text meanwhile.
    if (snapshot.matches({ editing: { format: 'formatting' } })) {
      events.push(
        ev({ type: 'xstate.done.actor.formatSql', output: { from: SAVED, formatted: FORMATTED } }),
        ev({ type: 'xstate.error.actor.formatSql', error: new Error('Failed to fetch dynamically imported module') }),
      )
      if (query === SAVED) events.push(ev({ type: 'query.change', query: TYPED }))
    }
    const runIdle = snapshot.matches({ editing: { run: { settled: 'idle' } } })
    const catalogLoading = snapshot.matches({ editing: { catalog: 'loading' } })
    if (catalogLoading && (runIdle || snapshot.matches({ editing: { run: { settled: 'succeeded' } } }))) {
      events.push(
        ev({ type: 'xstate.done.actor.loadCatalog', output: CATALOG }),
        ev({ type: 'xstate.error.actor.loadCatalog', error: new Error('Request timed out') }),
      )
    }
    if (catalogLoading) return events
    if (snapshot.matches({ editing: { catalog: 'unavailable' } }) && runIdle) events.push(ev({ type: 'catalog.retry' }), ev({ type: 'catalog.refresh' }))
    // A run that changed the schema raises it; sent here too, so a path takes it as a step of its own.
    if (snapshot.matches({ editing: { catalog: 'ready' } }) && runIdle && queryOf(snapshot) === SAVED) events.push(ev({ type: 'catalog.refresh' }))
    if (snapshot.matches({ editing: { run: 'running' } })) {
      const explain = snapshot.context.explain as boolean
      return [
        ...events,
        { type: 'xstate.done.actor.runSql', output: explain ? PLAN_RESULT : RUN_RESULT },
        { type: 'xstate.error.actor.runSql', error: SYNTAX_ERROR },
        { type: 'xstate.after.queryTimeout.sqlEditor.editing.run.running' },
      ]
    }
    if (snapshot.matches({ editing: { run: 'confirming' } })) return [...events, ev({ type: 'run.confirm' }), ev({ type: 'run.cancel' })]
    if (runIdle && snapshot.matches({ editing: { catalog: 'ready' } })) {
      if (query !== TYPED && query !== DROP) events.push(ev({ type: 'query.change', query: TYPED }))
      if (query === SAVED) events.push(ev({ type: 'query.change', query: DROP }))
      if (query === SAVED && snapshot.matches({ editing: { format: 'idle' } })) events.push(ev({ type: 'query.format' }))
      if (snapshot.context.role === 'postgres') events.push(ev({ type: 'role.change', role: 'authenticated' }))
      if (snapshot.context.role === 'authenticated' && snapshot.context.userId === null) events.push(ev({ type: 'user.change', userId: CATALOG.users[0].id }))
      if (snapshot.context.rowLimit === 1000 && query === TYPED && snapshot.context.role === 'postgres') events.push(ev({ type: 'rowLimit.change', rowLimit: 100 }))
    }
    if (snapshot.matches({ editing: { run: { settled: 'succeeded' } } }) && snapshot.context.result && !snapshot.context.result.plan && snapshot.context.selected === 0 && snapshot.matches({ editing: { catalog: 'ready' } })) {
      events.push(ev({ type: 'result.select', index: 1 }), ev({ type: 'result.copy', text: 'ada@example.com' }), ev({ type: 'result.export', format: 'csv' }))
    }
    if (atRest(snapshot) && snapshot.context.role === 'postgres' && snapshot.context.rowLimit === 1000) {
      events.push(ev({ type: 'query.run', text: query }))
      // Explain takes the statement at the cursor, which stays at the start of the text.
      if (query === SAVED || query === TYPED) events.push(ev({ type: 'query.explain', text: query === SAVED ? SAVED : 'select 2' }))
    }
    return events
  },
  serializeState: (snapshot: AnyMachineSnapshot, event: EventObject | undefined) => {
    const c = snapshot.context
    const facts = [queryOf(snapshot), c.role, c.userId ?? '', c.rowLimit, c.failure?.code ?? '', c.result?.plan ? 'plan' : '', c.selected, c.explain, c.formatFailure ?? '']
    return `${JSON.stringify(snapshot.value)}|${facts.join('|')}|${event && SELF_LOOPS.has(event.type) ? event.type : ''}`
  },
}
const model = modelOf(sqlEditorMachine, modelOptions)

const savedLoaded = ev({ type: 'xstate.done.actor.loadSavedQuery', output: SAVED })
const catalogRead = ev({ type: 'xstate.done.actor.loadCatalog', output: CATALOG })
const catalogFailed = ev({ type: 'xstate.error.actor.loadCatalog', error: new Error('Request timed out') })
const runAnswered = ev({ type: 'xstate.done.actor.runSql', output: RUN_RESULT })
const planAnswered = ev({ type: 'xstate.done.actor.runSql', output: PLAN_RESULT })
const runFailed = ev({ type: 'xstate.error.actor.runSql', error: SYNTAX_ERROR })
const timedOut = ev({ type: 'xstate.after.queryTimeout.sqlEditor.editing.run.running' })
const run = (text: string) => ev({ type: 'query.run', text })
const explain = (text: string) => ev({ type: 'query.explain', text })
const formatted = ev({ type: 'xstate.done.actor.formatSql', output: { from: SAVED, formatted: FORMATTED } })

/**
 * A few short paths that between them reach every state and transition (the first test checks it), each one a story
 * a person lives through; every event of a path must be one the model offers in that state.
 */
const paths = [
  // Nothing remembered, the schema unreadable twice; a run fails, the next times out, the one after answers (only it:
  // the abandoned run's request was aborted) and changes the schema, so the catalog is read again.
  [
    ev({ type: 'xstate.error.actor.loadSavedQuery', error: new Error('SecurityError: storage refused') }),
    catalogFailed,
    ev({ type: 'catalog.retry' }),
    catalogFailed,
    ev({ type: 'catalog.refresh' }),
    catalogRead,
    ev({ type: 'query.change', query: TYPED }),
    run(TYPED),
    runFailed,
    run(TYPED),
    timedOut,
    run(TYPED),
    runAnswered,
    catalogRead,
    ev({ type: 'result.copy', text: 'ada@example.com' }),
    ev({ type: 'result.export', format: 'csv' }),
    ev({ type: 'result.select', index: 1 }),
  ],
  // The remembered query: the catalog read again by hand, its plan asked for (failing once), then run after the plan.
  [savedLoaded, catalogRead, ev({ type: 'catalog.refresh' }), catalogRead, explain(SAVED), runFailed, explain(SAVED), planAnswered, run(SAVED), runAnswered],
  // A destructive statement: cancelled once, then confirmed.
  [savedLoaded, catalogRead, ev({ type: 'query.change', query: DROP }), run(DROP), ev({ type: 'run.cancel' }), run(DROP), ev({ type: 'run.confirm' }), runAnswered],
  // After an answer, the plan of the statement at the cursor.
  [savedLoaded, catalogRead, ev({ type: 'query.change', query: TYPED }), run(TYPED), runAnswered, catalogRead, explain('select 2'), planAnswered],
  // Format (the formatter's code loads first), a smaller row limit, and a run as a chosen user.
  [
    savedLoaded,
    catalogRead,
    ev({ type: 'query.format' }),
    formatted,
    ev({ type: 'query.change', query: TYPED }),
    ev({ type: 'rowLimit.change', rowLimit: 100 }),
    ev({ type: 'role.change', role: 'authenticated' }),
    ev({ type: 'user.change', userId: CATALOG.users[0].id }),
  ],
  // The formatter fails to load; on the next Format the person types over the text before it answers: theirs stays.
  [
    savedLoaded,
    catalogRead,
    ev({ type: 'query.format' }),
    ev({ type: 'xstate.error.actor.formatSql', error: new Error('Failed to fetch dynamically imported module') }),
    ev({ type: 'query.format' }),
    ev({ type: 'query.change', query: TYPED }),
    formatted,
  ],
].flatMap((events) =>
  // getPathsFromEvents walks from a snapshot made without the model's input; it starts from the one made with it.
  model.getPathsFromEvents(events, { ...modelOptions, fromState: createActor(sqlEditorMachine, { input: { ref: REF } }).getSnapshot() }),
)

const runPath = usePathClock()

function editorView(): EditorView {
  const content = screen.getByRole('textbox', { name: 'SQL query' })
  const view = EditorView.findFromDOM(content)
  if (!view) throw new Error('no editor')
  return view
}

describe('SQL editor model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(sqlEditorMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  it("formats with the live formatter, loaded on demand, as the walk's answers say", async () => {
    // The live machine's own actor, as the page runs it.
    const logic = liveSqlEditorMachine.implementations.actors.formatSql as PromiseActorLogic<FormattedSql, { query: string }>
    const answer = await toPromise(createActor(logic, { input: { query: SAVED } }).start())
    expect(answer).toEqual({ from: SAVED, formatted: FORMATTED } satisfies FormattedSql)
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const load = deferredActor<string | null, { ref: string }>('loadSavedQuery')
      const run = deferredActor<SqlRunResult, RunInput>('runSql')
      const catalog = deferredActor<SqlCatalog, { ref: string }>('loadCatalog')
      const format = deferredActor<FormattedSql, { query: string }>('formatSql')
      const persisted: Array<{ ref: string; query: string }> = []
      const copied: string[] = []
      const downloads: Array<{ filename: string; text: string }> = []
      const actor = createActor(
        sqlEditorMachine.provide({
          actors: { loadSavedQuery: load.logic, runSql: run.logic, loadCatalog: catalog.logic, formatSql: format.logic },
          actions: {
            persistQuery: (_, params) => persisted.push(params),
            copyText: (_, params) => copied.push(params.text),
            download: (_, params) => downloads.push(params),
          },
        }),
        { input: { ref: REF } },
      ).start()
      runPath(actor)
      render(<SqlEditor actor={actor} canWrite />)
      const results = () => within(screen.getByRole('region', { name: 'Results' }))
      const runButton = () => screen.getByRole('button', { name: /^(Run|Running…)$/ })
      /** Whatever happens, the editor shows the text the person typed (or that was remembered, or formatted). */
      const textKept = (snapshot: AnyMachineSnapshot) => expect(editorView().state.doc.toString()).toBe(queryOf(snapshot))

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Loading query…')
            expect(load.pending.at(-1)?.input).toEqual({ ref: REF })
          },
          'editing.catalog.loading': () => {
            expect(screen.getByText('Reading the schema for completion…')).toBeInTheDocument()
            expect(catalog.pending.at(-1)?.input).toEqual({ ref: REF })
          },
          'editing.catalog.unavailable': () => {
            expect(screen.getByText(/Completion offers keywords only/)).toBeInTheDocument()
          },
          'editing.format.formatting': () => {
            expect(screen.getByRole('button', { name: 'Formatting…' })).toBeDisabled()
            expect(format.pending.at(-1)?.input).toEqual({ query: SAVED })
          },
          'editing.format.idle': (snapshot) => {
            // Behind the confirmation dialog the page is hidden from assistive technology: still on screen.
            expect(screen.getByRole('button', { name: 'Format', hidden: true })).toHaveProperty('disabled', queryOf(snapshot).trim() === '')
            if (snapshot.context.formatFailure) expect(screen.getByText(/^The formatter could not be loaded/)).toHaveTextContent('Failed to fetch dynamically imported module')
            else expect(screen.queryByText(/^The formatter could not be loaded/)).toBeNull()
          },
          'editing.catalog.ready': () => {
            expect(screen.queryByText(/Completion offers keywords only|Reading the schema/)).toBeNull()
          },
          'editing.run.settled.idle': (snapshot) => {
            textKept(snapshot)
            expect(results().getByText('Run a query to see its results here.')).toBeInTheDocument()
            if (snapshot.context.role === 'authenticated' && snapshot.context.userId === null) expect(runButton()).toBeDisabled()
            else if (queryOf(snapshot).trim() !== '') expect(runButton()).toBeEnabled()
          },
          'editing.run.confirming': () => {
            const dialog = screen.getByRole('dialog', { name: 'Run a destructive query?' })
            expect(dialog).toHaveTextContent(DROP)
            // No run started: an earlier run abandoned by its time-out is aborted, never answered.
            expect(run.pending.filter((p) => !p.signal.aborted)).toHaveLength(0)
          },
          'editing.run.running': (snapshot) => {
            textKept(snapshot)
            expect(results().getByRole('status')).toHaveTextContent(snapshot.context.explain ? 'Explaining query…' : 'Running query…')
            expect(run.pending.at(-1)?.input).toMatchObject({ ref: REF, query: snapshot.context.ran, explain: snapshot.context.explain, rowLimit: snapshot.context.rowLimit })
            expect(screen.queryByRole('dialog')).toBeNull()
          },
          'editing.run.settled.succeeded': (snapshot) => {
            textKept(snapshot)
            expect(runButton()).toBeEnabled()
            if (snapshot.context.result?.plan) {
              const tree = results().getByRole('tree', { name: 'Query plan' })
              expect(within(tree).getAllByRole('treeitem').map((i) => i.getAttribute('aria-level'))).toEqual(['1', '2'])
              expect(tree).toHaveTextContent('Seq Scan')
              return
            }
            expect(results().getAllByRole('tab').map((t) => t.getAttribute('aria-selected'))).toEqual(snapshot.context.selected === 0 ? ['true', 'false'] : ['false', 'true'])
            if (snapshot.context.selected === 0) {
              const grid = results().getByRole('table', { name: 'Query results' })
              expect(within(grid).getAllByRole('row')).toHaveLength(RUN_RESULT.results[0].rows.length + 1)
              expect(within(grid).getByRole('button', { name: 'ada@example.com' })).toBeInTheDocument()
              expect(results().getByText('2 rows')).toBeInTheDocument()
            } else {
              expect(results().getByText('Success. No rows returned.')).toBeInTheDocument()
            }
          },
          'editing.run.settled.failed': (snapshot) => {
            textKept(snapshot)
            const alert = results().getByRole('alert')
            if (snapshot.context.failure?.code === 'client_timeout') {
              expect(alert).toHaveTextContent(`did not answer within ${QUERY_TIMEOUT / 1_000} s`)
            } else {
              expect(alert).toHaveTextContent('ERROR: 42601: syntax error at or near "selec"')
              expect(alert).toHaveTextContent('Hint: Check the spelling')
            }
          },
        },
        events: {
          'xstate.done.actor.loadSavedQuery': async (step) => load.resolve(outputOf<string>(step)),
          'xstate.error.actor.loadSavedQuery': async (step) => load.reject(errorOf(step)),
          'xstate.done.actor.loadCatalog': async (step) => catalog.resolve(outputOf<SqlCatalog>(step)),
          'xstate.error.actor.loadCatalog': async (step) => catalog.reject(errorOf(step)),
          'catalog.retry': async () => {
            await act(async () => actor.send({ type: 'catalog.retry' }))
          },
          'catalog.refresh': async () => {
            await act(async () => actor.send({ type: 'catalog.refresh' }))
          },
          'query.change': async (step) => {
            const { query } = step.event
            const view = editorView()
            await act(async () => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: query } }))
            expect(persisted.at(-1)).toEqual({ ref: REF, query })
          },
          'query.format': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Format' }))
          },
          'xstate.done.actor.formatSql': async (step) => {
            const before = editorView().state.doc.toString()
            const answer = outputOf<FormattedSql>(step)
            await format.resolve(answer)
            // The formatted text replaces the query only if the query is still the text it was made from.
            expect(editorView().state.doc.toString()).toBe(before === answer.from ? answer.formatted : before)
            if (before === answer.from) expect(persisted.at(-1)).toEqual({ ref: REF, query: answer.formatted })
          },
          'xstate.error.actor.formatSql': async (step) => format.reject(errorOf(step)),
          'role.change': async (step) => {
            fireEvent.change(screen.getByRole('combobox', { name: 'Run as role' }), { target: { value: step.event.role } })
          },
          'user.change': async (step) => {
            fireEvent.change(screen.getByRole('combobox', { name: 'User to run as' }), { target: { value: step.event.userId } })
          },
          'rowLimit.change': async (step) => {
            fireEvent.change(screen.getByRole('combobox', { name: 'Row limit' }), { target: { value: String(step.event.rowLimit) } })
          },
          'query.run': async () => {
            fireEvent.click(runButton())
          },
          'query.explain': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Explain' }))
          },
          'run.confirm': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Run this query' }))
          },
          'run.cancel': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
          },
          'result.select': async () => {
            fireEvent.click(screen.getByRole('tab', { name: '2. CREATE TABLE' }))
          },
          'result.copy': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'ada@example.com' }))
            expect(copied.at(-1)).toBe('ada@example.com')
          },
          'result.export': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }))
            expect(downloads.at(-1)).toEqual({ filename: 'results.csv', mediaType: 'text/csv', text: 'id,email\r\n1,ada@example.com\r\n2,\r\n' })
          },
          // The run the machine waits for is the latest: one abandoned at its time-out stays unsettled (its request
          // aborted), so settling the oldest would answer the abandoned run and leave the new one running.
          'xstate.done.actor.runSql': async (step) => {
            const latest = run.runs.at(-1)!
            await act(async () => latest.resolve(outputOf<SqlRunResult>(step)))
          },
          'xstate.error.actor.runSql': async (step) => {
            const latest = run.runs.at(-1)!
            await act(async () => latest.reject(errorOf(step)))
          },
          'xstate.after.queryTimeout.sqlEditor.editing.run.running': async () => {
            await act(() => vi.advanceTimersByTimeAsync(QUERY_TIMEOUT))
            // Leaving `running` aborted the abandoned run's request.
            expect(run.runs.at(-1)!.signal.aborted).toBe(true)
          },
        },
      })
    })
  }
})
