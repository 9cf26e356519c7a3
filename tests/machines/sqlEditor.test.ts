import { describe, expect, it, vi } from 'vitest'
import { createActor, type PromiseActorLogic } from 'xstate'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../../machines/projectDatabaseTimeout'
import { csvOf, destructiveStatement, failureOf, locate, selectCanRun, selectSqlEditorView, sqlEditorMachine, statementAt, statementsOf, type FormattedSql, type RunInput, type SqlCatalog } from '../../machines/sqlEditor.machine'
import type { SqlRunResult } from '../../src/contracts/sqlEditor'
import { deferredActor, scriptedEndpoint, usePathClock } from '../../model-tests/fakes'
import { liveSqlEditorMachine } from '../../src/api/live/sqlEditor'
import { CATALOG, RUN_RESULT } from '../fixtures.sqlEditor'

const REF = 'abcdefghijklmnopqrst'

function start(saved: string | null | Error = null) {
  const run = deferredActor<SqlRunResult, RunInput>('runSql')
  const persisted: Array<{ ref: string; query: string }> = []
  const ran: number[] = []
  const actor = createActor(
    sqlEditorMachine.provide({
      actors: {
        loadSavedQuery: scriptedEndpoint<string | null, { ref: string }>([], saved).actor,
        loadCatalog: scriptedEndpoint<SqlCatalog, { ref: string }>([], CATALOG).actor,
        runSql: run.logic,
        // The live formatter: sql-formatter, loaded on the first Format.
        formatSql: liveSqlEditorMachine.implementations.actors.formatSql as PromiseActorLogic<FormattedSql, { query: string }>,
      },
      actions: { persistQuery: (_, params) => persisted.push(params) },
    }),
    { input: { ref: REF } },
  ).start()
  actor.on('ran', () => ran.push(1))
  return { actor, runs: run.runs, persisted, ran, view: () => selectSqlEditorView(actor.getSnapshot()) }
}

usePathClock()

describe('SQL editor machine', () => {
  it('opens with the query remembered for the project, and reads the catalog for completion', async () => {
    const { actor, view } = start('select 42;')
    expect(view().phase).toBe('loading')
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ phase: 'ready', query: 'select 42;', outcome: { kind: 'none' }, catalog: CATALOG, catalogState: 'ready' })
    expect(selectCanRun(actor.getSnapshot())).toBe(true)
  })

  it('opens empty when nothing is remembered or the storage refuses, and a blank query cannot run', async () => {
    for (const saved of [null, new Error('SecurityError')]) {
      const { actor, view, runs } = start(saved)
      await vi.advanceTimersByTimeAsync(0)
      expect(view()).toMatchObject({ phase: 'ready', query: '' })
      actor.send({ type: 'query.change', query: '  \n ' })
      expect(selectCanRun(actor.getSnapshot())).toBe(false)
      actor.send({ type: 'query.run', text: '  ' })
      expect(runs).toHaveLength(0)
      actor.stop()
    }
  })

  it('runs the text it is given with the role, user and row limit chosen; authenticated waits for a user', async () => {
    const { actor, runs, ran } = start('select 1')
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'role.change', role: 'authenticated' })
    actor.send({ type: 'query.run', text: 'select 1' })
    expect(runs).toHaveLength(0)
    actor.send({ type: 'user.change', userId: CATALOG.users[0].id })
    actor.send({ type: 'rowLimit.change', rowLimit: 100 })
    actor.send({ type: 'query.run', text: 'select 1' })
    expect(runs[0].input).toEqual({ ref: REF, query: 'select 1', role: 'authenticated', userId: CATALOG.users[0].id, rowLimit: 100, explain: false })
    // One run at a time.
    actor.send({ type: 'query.run', text: 'select 2' })
    expect(runs).toHaveLength(1)
    runs[0].resolve(RUN_RESULT)
    await vi.advanceTimersByTimeAsync(0)
    expect(ran).toEqual([1])
  })

  it('asks before a destructive statement, and runs nothing when cancelled', async () => {
    const { actor, runs, view } = start('')
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'query.run', text: 'select 1; delete from orders' })
    expect(view().outcome).toEqual({ kind: 'confirming', statement: 'delete from orders' })
    actor.send({ type: 'run.cancel' })
    expect(runs).toHaveLength(0)
    actor.send({ type: 'query.run', text: 'truncate orders' })
    actor.send({ type: 'run.confirm' })
    expect(runs[0].input.query).toBe('truncate orders')
  })

  it('reads the catalog again after a run that changed the schema', async () => {
    const { actor, runs, view } = start('')
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'query.run', text: 'create table t (x int)' })
    runs[0].resolve(RUN_RESULT)
    await vi.advanceTimersByTimeAsync(0)
    expect(view().outcome.kind).toBe('result')
    expect(view().catalogState).toBe('ready')
    actor.send({ type: 'query.explain', text: 'select 1' })
    expect(runs[1].input.explain).toBe(true)
  })

  it('abandons a run past the time-out and says so, keeping the text', async () => {
    const { actor, runs, view } = start('select pg_sleep(60)')
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'query.run', text: 'select pg_sleep(60)' })
    await vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS)
    expect(runs[0].signal.aborted).toBe(true)
    expect(view()).toMatchObject({ query: 'select pg_sleep(60)', outcome: { kind: 'error', failure: { code: 'client_timeout' } } })
  })

  it('formats the text with the PostgreSQL formatter and remembers it', async () => {
    const { actor, persisted } = start('SELECT a,b FROM t WHERE a=1')
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'query.format' })
    await vi.waitFor(() => expect(actor.getSnapshot().context.query).toBe('select\n  a,\n  b\nfrom\n  t\nwhere\n  a = 1'), { timeout: 15_000 })
    expect(persisted.at(-1)?.query).toBe('select\n  a,\n  b\nfrom\n  t\nwhere\n  a = 1')
  })
})

describe('the text around a run', () => {
  it('finds destructive statements as the platform does, ignoring strings and comments', () => {
    expect(destructiveStatement('drop table x')).toBe('drop table x')
    expect(destructiveStatement('  TRUNCATE orders;')).toBe('TRUNCATE orders')
    expect(destructiveStatement('delete from orders')).toBe('delete from orders')
    expect(destructiveStatement('update orders set paid = true')).toBe('update orders set paid = true')
    expect(destructiveStatement('delete from orders where id = 1')).toBeNull()
    expect(destructiveStatement("update t set note = 'where' ")).toBe("update t set note = 'where'")
    expect(destructiveStatement('select 1 -- drop table x')).toBeNull()
    expect(destructiveStatement("select 'drop table x'; select $$; drop table y$$")).toBeNull()
  })

  it('cuts statements outside quotes and picks the one at the cursor', () => {
    const text = "select ';' as a;\nselect 2;\n\nselect 3"
    expect(statementsOf(text).map((s) => s.text)).toEqual(["select ';' as a", 'select 2', 'select 3'])
    expect(statementAt(text, 0)).toBe("select ';' as a")
    expect(statementAt(text, text.indexOf('select 2') + 3)).toBe('select 2')
    expect(statementAt(text, text.length)).toBe('select 3')
  })

  it('writes CSV with quoted fields and JSON values', () => {
    expect(csvOf({ columns: [{ name: 'a', type: 'text' }, { name: 'b', type: 'jsonb' }], rows: [{ a: 'x,"y"', b: { k: 1 } }, { a: null, b: null }], rowCount: 2, command: 'SELECT', capped: false })).toBe(
      'a,b\r\n"x,""y""","{""k"":1}"\r\n,\r\n',
    )
  })

  it('reads failures and positions', () => {
    expect(failureOf(Object.assign(new Error('bad'), { code: '42601', position: 3 }))).toEqual({ message: 'bad', code: '42601', position: 3, detail: undefined, hint: undefined })
    expect(locate('select\n  x', 10)).toEqual({ line: 2, column: 3, text: '  x' })
  })
})
