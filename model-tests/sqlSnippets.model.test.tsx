import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, waitFor, type AnyMachineSnapshot } from 'xstate'
import { selectSqlSnippetsView, sqlSnippetsMachine, type SqlSnippetsEvent, type SnippetChange, type SnippetDraft } from '../machines/sqlSnippets.machine'
import type { Snippet } from '../src/contracts/snippets'
import type { SqlHistoryEntry } from '../src/contracts/sqlEditor'
import { SqlSnippetsPanel } from '../src/views/project/database/SqlSnippetsPanel'
import { REF } from '../tests/fixtures'
import { snippet } from '../tests/fixtures.sqlEditor'
import { describePath, errorOf, eventFor, missingCoverage, modelOf, outputOf } from './harness'
import { deferredActor, usePathClock } from './fakes'

const ev = eventFor(sqlSnippetsMachine)

const QUERY = 'select * from customers'
/** The signed-in person: the author of EXISTING, not of THEIRS. */
const ACCOUNT = 1
const EXISTING = snippet()
const THEIRS = snippet({
  id: '66666666-6666-4666-8666-666666666666',
  name: 'Theirs',
  visibility: 'project',
  owner: { id: 2, username: 'ada' },
  updated_by: { id: 2, username: 'ada' },
})
const FIRST_READ = [EXISTING, THEIRS]
const SAVED = snippet({ id: '55555555-5555-4555-8555-555555555555', name: 'Orders', visibility: 'project', content: { schema_version: '1.0', sql: QUERY } })
const HISTORY: SqlHistoryEntry[] = [{ id: 1, query: 'select 1', role: 'postgres', ran_at: '2026-11-20T10:00:00.000Z', duration_ms: 1, error: null }]
const FAILURE = new Error('Only the snippet’s author can rename it')

const snapshotTarget = (snapshot: AnyMachineSnapshot) => {
  const target = snapshot.context.target as Snippet | null
  return target ? JSON.stringify([target.name, target.favorite, target.content.sql, target.visibility]) : ''
}

const model = modelOf(sqlSnippetsMachine, {
  input: { ref: REF, accountId: ACCOUNT },
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.loadSnippets', output: { snippets: FIRST_READ, history: [] } },
        { type: 'xstate.error.actor.loadSnippets', error: new Error('Network down') },
      ]
    }
    if (snapshot.matches('failed')) return [ev({ type: 'retry' })]
    if (snapshot.matches({ ready: 'idle' })) {
      // Each change starts from the list as first read: every change and its outcome once, not every sequence of them.
      const list = snapshot.context.snippets as Snippet[]
      if (snapshot.context.error || snapshot.context.history.length > 0 || JSON.stringify(list) !== JSON.stringify(FIRST_READ)) return []
      return [
        ev({ type: 'save.start' }),
        ev({ type: 'rename.start', id: EXISTING.id }),
        ev({ type: 'delete.start', id: EXISTING.id }),
        ev({ type: 'snippet.favourite', id: EXISTING.id, favorite: true }),
        ev({ type: 'snippet.share', id: EXISTING.id, visibility: 'project' }),
        ev({ type: 'snippet.update', id: EXISTING.id, sql: 'select 2' }),
        ev({ type: 'history.refresh' }),
      ]
    }
    if (snapshot.matches({ ready: 'naming' })) return [ev({ type: 'snippet.save', draft: { name: 'Orders', sql: QUERY, visibility: 'project' } }), ev({ type: 'save.cancel' })]
    if (snapshot.matches({ ready: 'renaming' })) return [ev({ type: 'snippet.rename', name: 'Renamed' }), ev({ type: 'rename.cancel' })]
    if (snapshot.matches({ ready: 'confirmingDelete' })) return [ev({ type: 'delete.confirm' }), ev({ type: 'delete.cancel' })]
    if (snapshot.matches({ ready: 'saving' })) return [{ type: 'xstate.done.actor.createSnippet', output: SAVED }, { type: 'xstate.error.actor.createSnippet', error: FAILURE }]
    if (snapshot.matches({ ready: 'updating' })) {
      const target = snapshot.context.target as Snippet
      return [{ type: 'xstate.done.actor.updateSnippet', output: target }, { type: 'xstate.error.actor.updateSnippet', error: FAILURE }]
    }
    if (snapshot.matches({ ready: 'deleting' })) return [{ type: 'xstate.done.actor.deleteSnippet' }, { type: 'xstate.error.actor.deleteSnippet', error: FAILURE }]
    if (snapshot.matches({ ready: 'refreshing' })) return [{ type: 'xstate.done.actor.loadHistory', output: HISTORY }, { type: 'xstate.error.actor.loadHistory', error: FAILURE }]
    return []
  },
  serializeState: (snapshot, event) =>
    `${JSON.stringify(snapshot.value)}|${(snapshot.context.snippets as Snippet[]).map((s) => `${s.name}${s.favorite}${s.content.sql}${s.visibility}`).join(',')}|${snapshot.context.error ? 'error' : ''}|${snapshot.context.history.length}|${snapshotTarget(snapshot)}|${event && (event.type.startsWith('xstate.error') || event.type.endsWith('.cancel')) ? event.type : ''}`,
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('SQL saved queries model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(sqlSnippetsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  it("refuses to share, rename, edit or delete another person's query, and takes their favourite mark", async () => {
    const update = deferredActor<Snippet, { ref: string; id: string; change: SnippetChange }>('updateSnippet')
    const actor = createActor(
      sqlSnippetsMachine.provide({
        actors: {
          loadSnippets: fromPromise(async () => ({ snippets: FIRST_READ, history: [] as SqlHistoryEntry[] })),
          updateSnippet: update.logic,
        },
      }),
      { input: { ref: REF, accountId: ACCOUNT } },
    ).start()
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }))
    const refused: SqlSnippetsEvent[] = [
      { type: 'snippet.share', id: THEIRS.id, visibility: 'user' },
      { type: 'rename.start', id: THEIRS.id },
      { type: 'delete.start', id: THEIRS.id },
      { type: 'snippet.update', id: THEIRS.id, sql: 'select 2' },
    ]
    for (const event of refused) {
      actor.send(event)
      expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true)
    }
    expect(update.pending).toHaveLength(0)
    actor.send({ type: 'snippet.favourite', id: THEIRS.id, favorite: true })
    expect(actor.getSnapshot().matches({ ready: 'updating' })).toBe(true)
    expect(update.pending.at(-1)?.input).toEqual({ ref: REF, id: THEIRS.id, change: { favorite: true } })
    actor.stop()
  })

  it('offers nothing to change before the session names the person', async () => {
    const actor = createActor(sqlSnippetsMachine.provide({ actors: { loadSnippets: fromPromise(async () => ({ snippets: FIRST_READ, history: [] as SqlHistoryEntry[] })) } }), {
      input: { ref: REF, accountId: null },
    }).start()
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }))
    expect(selectSqlSnippetsView(actor.getSnapshot()).authored.size).toBe(0)
    actor.send({ type: 'snippet.share', id: EXISTING.id, visibility: 'project' })
    expect(actor.getSnapshot().matches({ ready: 'idle' })).toBe(true)
    actor.stop()
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const load = deferredActor<{ snippets: Snippet[]; history: SqlHistoryEntry[] }, { ref: string }>('loadSnippets')
      const create = deferredActor<Snippet, { ref: string; draft: SnippetDraft }>('createSnippet')
      const update = deferredActor<Snippet, { ref: string; id: string; change: SnippetChange }>('updateSnippet')
      const remove = deferredActor<void, { ref: string; id: string }>('deleteSnippet')
      const history = deferredActor<SqlHistoryEntry[], { ref: string }>('loadHistory')
      const opened: string[] = []
      const actor = runPath(
        createActor(
          sqlSnippetsMachine.provide({
            actors: { loadSnippets: load.logic, createSnippet: create.logic, updateSnippet: update.logic, deleteSnippet: remove.logic, loadHistory: history.logic },
          }),
          { input: { ref: REF, accountId: ACCOUNT } },
        ).start(),
      )
      render(<SqlSnippetsPanel actor={actor} query={QUERY} onOpen={(sql) => opened.push(sql)} />)
      const list = () => within(screen.getByRole('list', { name: 'Saved queries', hidden: true }))
      const listed = (snapshot: AnyMachineSnapshot) =>
        snapshot.context.snippets.length === 0
          ? expect(screen.getByText('No saved queries yet.')).toBeInTheDocument()
          : expect(list().getAllByRole('button', { name: /^Favourite /, hidden: true }).map((b) => b.getAttribute('aria-label'))).toEqual((snapshot.context.snippets as Snippet[]).map((s) => `Favourite ${s.name}`))

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Loading saved queries…')
          },
          failed: () => {
            expect(screen.getByRole('alert')).toHaveTextContent('Network down')
          },
          'ready.idle': (snapshot) => {
            listed(snapshot)
            // Each of the person's queries offers the other visibility (a private one to share, a shared one to make
            // private again), a rename and a delete; another's shared query offers none of them, only who wrote it.
            for (const s of snapshot.context.snippets as Snippet[]) {
              const names = [s.visibility === 'project' ? `Make ${s.name} private` : `Share ${s.name} with the project`, `Rename ${s.name}`, `Delete ${s.name}`]
              const mine = s.owner.id === ACCOUNT
              for (const name of names) expect(screen.queryByRole('button', { name, hidden: true }) !== null).toBe(mine)
              if (!mine) expect(list().getByRole('button', { name: new RegExp(`^${s.name}`), hidden: true })).toHaveTextContent(`by ${s.owner.username}`)
            }
            if (snapshot.context.error) expect(screen.getByText(snapshot.context.error)).toBeInTheDocument()
            if (snapshot.context.history.length > 0) expect(within(screen.getByRole('list', { name: 'Query history', hidden: true })).getByText('select 1')).toBeInTheDocument()
            else expect(screen.getByText('No queries run yet.')).toBeInTheDocument()
          },
          'ready.naming': () => {
            expect(screen.getByRole('dialog', { name: 'Save query' })).toBeInTheDocument()
          },
          'ready.renaming': () => {
            expect(screen.getByRole('textbox', { name: 'Name' })).toHaveValue(EXISTING.name)
          },
          'ready.confirmingDelete': () => {
            expect(screen.getByRole('dialog', { name: 'Delete query' })).toHaveTextContent(`Delete “${EXISTING.name}”?`)
          },
          'ready.saving': () => {
            expect(create.pending.at(-1)?.input).toEqual({ ref: REF, draft: { name: 'Orders', sql: QUERY, visibility: 'project' } })
            expect(screen.getAllByText('Saving…').length).toBeGreaterThan(0)
          },
          'ready.updating': (snapshot) => {
            const target = snapshot.context.target as Snippet
            const change = update.pending.at(-1)?.input.change
            expect(update.pending.at(-1)?.input.id).toBe(EXISTING.id)
            // Only the field the person changed goes to the platform.
            expect(Object.keys(change ?? {})).toHaveLength(1)
            const [field, value] = Object.entries(change ?? {})[0]
            expect(field === 'sql' ? target.content.sql : target[field as 'name' | 'favorite' | 'visibility']).toBe(value)
          },
          'ready.deleting': () => {
            expect(remove.pending.at(-1)?.input).toEqual({ ref: REF, id: EXISTING.id })
          },
          'ready.refreshing': (snapshot) => {
            listed(snapshot)
            expect(history.pending).toHaveLength(1)
          },
        },
        events: {
          'xstate.done.actor.loadSnippets': async (step) => load.resolve(outputOf(step)),
          'xstate.error.actor.loadSnippets': async (step) => load.reject(errorOf(step)),
          retry: async () => {
            fireEvent.click(screen.getByRole('button', { name: /try again|retry/i }))
          },
          'save.start': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Save query' }))
          },
          'save.cancel': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
          },
          'snippet.save': async () => {
            const dialog = screen.getByRole('dialog', { name: 'Save query' })
            fireEvent.change(within(dialog).getByRole('textbox', { name: 'Name' }), { target: { value: 'Orders' } })
            fireEvent.change(within(dialog).getByRole('combobox', { name: 'Who sees it' }), { target: { value: 'project' } })
            fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
          },
          'rename.start': async () => {
            fireEvent.click(screen.getByRole('button', { name: `Rename ${EXISTING.name}`, hidden: true }))
          },
          'rename.cancel': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
          },
          'snippet.rename': async () => {
            fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Renamed' } })
            fireEvent.click(screen.getByRole('button', { name: 'Rename' }))
          },
          'delete.start': async () => {
            fireEvent.click(screen.getByRole('button', { name: `Delete ${EXISTING.name}`, hidden: true }))
          },
          'delete.cancel': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
          },
          'delete.confirm': async () => {
            fireEvent.click(within(screen.getByRole('dialog', { name: 'Delete query' })).getByRole('button', { name: 'Delete' }))
          },
          'snippet.share': async () => {
            fireEvent.click(screen.getByRole('button', { name: `Share ${EXISTING.name} with the project`, hidden: true }))
          },
          'snippet.favourite': async () => {
            fireEvent.click(screen.getByRole('button', { name: `Favourite ${EXISTING.name}`, hidden: true }))
          },
          // Saving the editor's text over a saved query is the page's; the panel's actor takes it as is.
          'snippet.update': async (step) => {
            await act(async () => actor.send(step.event))
          },
          'history.refresh': async () => {
            await act(async () => actor.send({ type: 'history.refresh' }))
          },
          'xstate.done.actor.createSnippet': async (step) => create.resolve(outputOf(step)),
          'xstate.error.actor.createSnippet': async (step) => create.reject(errorOf(step)),
          'xstate.done.actor.updateSnippet': async (step) => update.resolve(outputOf(step)),
          'xstate.error.actor.updateSnippet': async (step) => update.reject(errorOf(step)),
          'xstate.done.actor.deleteSnippet': async () => remove.resolve(undefined),
          'xstate.error.actor.deleteSnippet': async (step) => remove.reject(errorOf(step)),
          'xstate.done.actor.loadHistory': async (step) => history.resolve(outputOf(step)),
          'xstate.error.actor.loadHistory': async (step) => history.reject(errorOf(step)),
        },
      })
      expect(opened).toEqual([])
    })
  }
})
