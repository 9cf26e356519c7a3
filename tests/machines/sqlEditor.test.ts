import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { failureOf, locate, selectCanRun, selectSqlEditorView, sqlEditorMachine } from '../../machines/sqlEditor.machine'
import type { QueryResult } from '../../src/contracts/database'
import { deferredActor, scriptedEndpoint, usePathClock } from '../../model-tests/fakes'

const REF = 'abcdefghijklmnopqrst'
const RESULT: QueryResult = {
  columns: [{ name: 'n', type: 'integer' }],
  rows: [{ n: 1 }],
  rowCount: 1,
  command: 'SELECT',
  durationMs: 1.5,
  readOnly: false,
}

function start(saved: string | null | Error = null) {
  const run = deferredActor<QueryResult, { ref: string; query: string }>('runQuery')
  const persisted: Array<{ ref: string; query: string }> = []
  const actor = createActor(
    sqlEditorMachine.provide({
      actors: {
        loadSavedQuery: scriptedEndpoint<string | null, { ref: string }>([], saved).actor,
        runQuery: run.logic,
      },
      actions: { persistQuery: (_, params) => persisted.push(params) },
    }),
    { input: { ref: REF } },
  ).start()
  return { actor, runs: run.runs, persisted, view: () => selectSqlEditorView(actor.getSnapshot()) }
}

usePathClock()

describe('SQL editor machine', () => {
  it('opens with the query remembered for the project', async () => {
    const { actor, view } = start('select 42;')
    expect(view()).toEqual({ phase: 'loading' })
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'ready', query: 'select 42;', outcome: { kind: 'none' } })
    expect(selectCanRun(actor.getSnapshot())).toBe(true)
  })

  it('opens empty when nothing is remembered or the storage refuses, and a blank query cannot run', async () => {
    for (const saved of [null, new Error('SecurityError')]) {
      const { actor, view, runs } = start(saved)
      await vi.advanceTimersByTimeAsync(0)
      expect(view()).toMatchObject({ phase: 'ready', query: '' })
      actor.send({ type: 'query.change', query: '  \n ' })
      expect(selectCanRun(actor.getSnapshot())).toBe(false)
      actor.send({ type: 'query.run' })
      expect(runs).toHaveLength(0)
      actor.stop()
    }
  })

  it('remembers every change of the text for its project', async () => {
    const { actor, persisted } = start()
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'query.change', query: 's' })
    actor.send({ type: 'query.change', query: 'select 1' })
    expect(persisted).toEqual([
      { ref: REF, query: 's' },
      { ref: REF, query: 'select 1' },
    ])
  })

  it('runs the text, one run at a time, and shows the answer; typing during the run keeps the new text', async () => {
    const { actor, runs, view } = start('select 1 as n')
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'query.run' })
    expect(runs.map((run) => run.input)).toEqual([{ ref: REF, query: 'select 1 as n' }])
    expect(view()).toMatchObject({ outcome: { kind: 'running' } })
    expect(selectCanRun(actor.getSnapshot())).toBe(false)
    actor.send({ type: 'query.run' })
    expect(runs).toHaveLength(1)
    actor.send({ type: 'query.change', query: 'select 1 as n; -- edited' })
    runs[0].resolve(RESULT)
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({ phase: 'ready', query: 'select 1 as n; -- edited', outcome: { kind: 'result', result: RESULT } })
  })

  it('a failed run shows the Postgres error at its line and column of the text that ran, even once edited', async () => {
    const { actor, runs, view } = start('select 1;\nselec 2;')
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'query.run' })
    actor.send({ type: 'query.change', query: 'something else entirely' })
    runs[0].reject(Object.assign(new Error('syntax error at or near "selec"'), { code: '42601', position: 11 }))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toEqual({
      phase: 'ready',
      query: 'something else entirely',
      outcome: {
        kind: 'error',
        failure: { message: 'syntax error at or near "selec"', code: '42601', position: 11, detail: undefined, hint: undefined },
        at: { line: 2, column: 1, text: 'selec 2;' },
      },
    })
    // Running again replaces the error with the new answer.
    actor.send({ type: 'query.run' })
    expect(runs[1].input.query).toBe('something else entirely')
    runs[1].resolve(RESULT)
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ outcome: { kind: 'result' } })
  })

  it('a run unanswered for 20 s is abandoned (its request aborted) and reported; the text stays', async () => {
    const { actor, runs, view } = start('select pg_sleep(60)')
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'query.run' })
    await vi.advanceTimersByTimeAsync(19_999)
    expect(view()).toMatchObject({ outcome: { kind: 'running' } })
    expect(runs[0].signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(runs[0].signal.aborted).toBe(true)
    expect(view()).toMatchObject({ query: 'select pg_sleep(60)', outcome: { kind: 'error', at: null } })
    const outcome = view()
    expect(outcome.phase === 'ready' && outcome.outcome.kind === 'error' && outcome.outcome.failure.message).toMatch(/did not answer within 20 s/)
    expect(selectCanRun(actor.getSnapshot())).toBe(true)
  })

  it('a failure without Postgres fields shows its message alone', async () => {
    const { actor, runs, view } = start('select 1')
    await vi.advanceTimersByTimeAsync(0)
    actor.send({ type: 'query.run' })
    runs[0].reject(Object.assign(new Error('Malformed response from /platform/projects/x/database/query'), { status: 200 }))
    await vi.advanceTimersByTimeAsync(0)
    expect(view()).toMatchObject({ outcome: { kind: 'error', failure: { message: 'Malformed response from /platform/projects/x/database/query' }, at: null } })
  })
})

describe('failureOf and locate', () => {
  it('keeps only well-formed Postgres fields', () => {
    expect(failureOf(Object.assign(new Error('boom'), { code: 42, position: -1, detail: '', hint: 'try this' }))).toEqual({
      message: 'boom',
      code: undefined,
      position: undefined,
      detail: undefined,
      hint: 'try this',
    })
    expect(failureOf('not an error')).toEqual({ message: 'The query failed' })
  })

  it('counts lines and columns from 1, in characters (code points) as Postgres does', () => {
    expect(locate('select x', 8)).toEqual({ line: 1, column: 8, text: 'select x' })
    expect(locate('a\nbb\nccc', 7)).toEqual({ line: 3, column: 2, text: 'ccc' })
    // '😀' is one character to Postgres, two UTF-16 units to JavaScript.
    expect(locate("select '😀', y", 13)).toEqual({ line: 1, column: 13, text: "select '😀', y" })
    expect(locate('abc', 4)).toEqual({ line: 1, column: 4, text: 'abc' })
    expect(locate('abc', 5)).toBeNull()
    expect(locate('abc', 0)).toBeNull()
  })
})
