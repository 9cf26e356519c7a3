import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { databaseObjectsMachine, type ObjectsAnswer, type PolicyDraft } from '../machines/databaseObjects.machine'
import { BLANK_POLICY } from '../machines/policyTemplates'
import type { ChangeApplied, ObjectChangeInput, ObjectKind, PolicyTable } from '../src/contracts/databaseObjects'
import { DatabaseObjects } from '../src/views/project/databaseObjects/DatabaseObjectsPages'
import { REF } from '../tests/fixtures'
import { type ModelEvent, describePath, errorOf, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../machines/projectDatabaseTimeout'

// The shared catalog-list machine, walked on the Policies page: the one page with a form (the policy draft), so both
// origins of a change (the list's buttons, the form) are walked; the other kinds differ only in their lists' rows.
const REQUEST_TIMEOUT = PROJECT_DATABASE_TIMEOUT_MS
const contextOf = (snapshot: SnapshotFrom<typeof databaseObjectsMachine>) => snapshot.context

const NOTES: PolicyTable = {
  schema: 'public',
  name: 'my "notes" ✎',
  rls_enabled: false,
  rls_forced: false,
  policies: [{ name: 'read all', command: 'SELECT', permissive: true, roles: ['anon'], using: 'true', check: null }],
}
const answer = (tables: PolicyTable[]): ObjectsAnswer => ({ data: { kind: 'policies', items: tables }, schemas: ['public', 'auth'] })
const FIRST = answer([NOTES])
const AFTER = answer([{ ...NOTES, rls_enabled: true }])
const RLS_ON: ObjectChangeInput = { action: 'table.rls', schema: 'public', table: NOTES.name, enabled: true }
const DRAFT: PolicyDraft = { ...BLANK_POLICY, table: NOTES.name, editing: null }
const SQL = 'alter table "public"."my ""notes"" ✎" enable row level security;'
const APPLIED: ChangeApplied = { sql: SQL, command: 'ALTER TABLE' }

const model = modelOf(databaseObjectsMachine, {
  input: { ref: REF, kind: 'policies' },
  events: (snapshot) => {
    const events: Array<ModelEvent<typeof databaseObjectsMachine>> = []
    if (snapshot.matches('loading')) {
      events.push(
        { type: 'xstate.done.actor.listObjects', output: contextOf(snapshot).notice ? AFTER : FIRST },
        { type: 'xstate.error.actor.listObjects', error: new Error('Internal server error') },
        { type: 'xstate.after.requestTimeout.databaseObjects.loading' },
      )
    }
    if (snapshot.matches('failed')) events.push({ type: 'objects.retry' })
    if (snapshot.matches('loaded')) {
      events.push(
        { type: 'objects.refresh' },
        { type: 'schema.select', schema: 'auth' },
        { type: 'change.request', change: RLS_ON },
        { type: 'draft.open', draft: DRAFT },
      )
    }
    if (snapshot.matches('editing')) {
      events.push({ type: 'draft.edit', patch: { name: 'Only mine' } }, { type: 'draft.submit' }, { type: 'draft.close' })
    }
    if (snapshot.matches('previewing')) {
      events.push(
        { type: 'xstate.done.actor.previewChange', output: SQL },
        { type: 'xstate.error.actor.previewChange', error: apiError('Give a USING or a WITH CHECK expression', 400) },
      )
    }
    if (snapshot.matches('confirming')) events.push({ type: 'change.confirm' }, { type: 'change.cancel' })
    if (snapshot.matches('applying')) {
      events.push(
        { type: 'xstate.done.actor.applyChange', output: APPLIED },
        { type: 'xstate.error.actor.applyChange', error: apiError('must be owner of table', 400) },
      )
    }
    return events
  },
  serializeState: (snapshot, event) => {
    const c = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, `${c.draft ? 'form' : 'list'}|${c.notice ?? ''}|${c.schema}`)
  },
})
const paths = model.getShortestPaths()

const runPath = usePathClock()
const dialog = (name: string) => within(screen.getByRole('dialog', { name }))

describe('database objects model (the Policies page)', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(databaseObjectsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const list = deferredActor<ObjectsAnswer, { ref: string; kind: ObjectKind; schema: string }>('listObjects')
      const preview = deferredActor<string, { ref: string; change: ObjectChangeInput }>('previewChange')
      const apply = deferredActor<ChangeApplied, { ref: string; change: ObjectChangeInput }>('applyChange')
      const actor = createActor(
        databaseObjectsMachine.provide({ actors: { listObjects: list.logic, previewChange: preview.logic, applyChange: apply.logic } }),
        { input: { ref: REF, kind: 'policies' } },
      ).start()
      runPath(actor)
      render(<DatabaseObjects actor={actor} />)

      const listShown = (snapshot: SnapshotFrom<typeof databaseObjectsMachine>) => {
        const data = contextOf(snapshot).data
        if (data?.kind !== 'policies') throw new Error('no policies list')
        for (const table of data.items) {
          const card = within(screen.getByRole('region', { name: table.name }))
          expect(card.getByText(table.rls_enabled ? 'RLS enabled' : 'RLS disabled')).toBeInTheDocument()
          expect(card.getAllByRole('row')).toHaveLength(table.policies.length + 1)
        }
        expect(screen.getByRole('combobox', { name: 'Schema' })).toHaveValue(contextOf(snapshot).schema)
      }
      const idle = (expected: boolean) => {
        const button = screen.queryByRole('button', { name: `Enable RLS on ${NOTES.name}` }) ?? screen.getByRole('button', { name: `Disable RLS on ${NOTES.name}` })
        expect(button.hasAttribute('disabled')).toBe(!expected)
      }

      await path.test({
        states: {
          loading: (snapshot) => {
            expect(screen.getByRole('heading', { level: 1, name: 'Policies' })).toBeInTheDocument()
            expect(screen.getByRole('status')).toHaveTextContent('Loading policies…')
            expect(list.pending.at(-1)?.input).toEqual({ ref: REF, kind: 'policies', schema: contextOf(snapshot).schema })
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(alert).toHaveTextContent('Failed to load policies')
            expect(alert).toHaveTextContent(contextOf(snapshot).error!)
          },
          loaded: (snapshot) => {
            listShown(snapshot)
            idle(true)
            expect(screen.queryByRole('dialog')).toBeNull()
            const { notice, changeError } = contextOf(snapshot)
            if (notice) expect(screen.getByRole('status')).toHaveTextContent(`Done: ${notice}`)
            if (changeError) expect(screen.getByRole('alert')).toHaveTextContent(changeError)
            else expect(screen.queryByRole('alert')).toBeNull()
          },
          editing: (snapshot) => {
            const form = dialog('New policy')
            expect(form.getByRole('textbox', { name: 'Policy name' })).toHaveValue(contextOf(snapshot).draft!.name)
            expect(form.getByRole('button', { name: 'Review SQL' })).toBeEnabled()
            const error = contextOf(snapshot).changeError
            if (error) expect(form.getByRole('alert')).toHaveTextContent(error)
            idle(false)
          },
          previewing: (snapshot) => {
            if (contextOf(snapshot).draft) expect(dialog('New policy').getByRole('button', { name: 'Preparing SQL…' })).toBeDisabled()
            else expect(screen.queryByRole('dialog')).toBeNull()
            idle(false)
            expect(preview.pending.at(-1)?.input.ref).toBe(REF)
          },
          confirming: (snapshot) => {
            const review = dialog('Review the SQL')
            expect(review.getByLabelText('SQL to run')).toHaveTextContent(SQL)
            expect(review.getByRole('button', { name: 'Run this SQL' })).toBeEnabled()
            const error = contextOf(snapshot).changeError
            if (error) expect(review.getByRole('alert')).toHaveTextContent(error)
          },
          applying: () => {
            expect(dialog('Review the SQL').getByRole('button', { name: 'Running…' })).toBeDisabled()
            expect(apply.pending.at(-1)?.input.change).toEqual(preview.runs.at(-1)?.input.change)
          },
        },
        events: {
          'xstate.done.actor.listObjects': async (step) => list.resolve(outputOf<ObjectsAnswer>(step)),
          'xstate.error.actor.listObjects': async (step) => list.reject(errorOf(step)),
          'xstate.after.requestTimeout.databaseObjects.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'xstate.done.actor.previewChange': async (step) => preview.resolve(outputOf<string>(step)),
          'xstate.error.actor.previewChange': async (step) => preview.reject(errorOf(step)),
          'xstate.done.actor.applyChange': async (step) => apply.resolve(outputOf<ChangeApplied>(step)),
          'xstate.error.actor.applyChange': async (step) => apply.reject(errorOf(step)),
          'objects.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
          'objects.refresh': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Refresh' }))
          },
          'schema.select': async (step) => {
            fireEvent.change(screen.getByRole('combobox', { name: 'Schema' }), { target: { value: step.event.schema } })
          },
          'change.request': async () => {
            fireEvent.click(screen.getByRole('button', { name: `Enable RLS on ${NOTES.name}` }))
            expect(preview.pending.at(-1)?.input.change).toEqual(RLS_ON)
          },
          'draft.open': async () => {
            fireEvent.click(screen.getByRole('button', { name: `New policy on ${NOTES.name}` }))
          },
          'draft.edit': async (step) => {
            fireEvent.change(dialog('New policy').getByRole('textbox', { name: 'Policy name' }), { target: { value: step.event.patch.name } })
          },
          'draft.submit': async () => {
            fireEvent.click(dialog('New policy').getByRole('button', { name: 'Review SQL' }))
            const sent = preview.pending.at(-1)?.input.change
            expect(sent).toMatchObject({ action: 'policy.create', schema: actor.getSnapshot().context.schema, table: NOTES.name, command: 'SELECT' })
          },
          'draft.close': async () => {
            fireEvent.click(dialog('New policy').getByRole('button', { name: 'Cancel' }))
          },
          'change.confirm': async () => {
            fireEvent.click(dialog('Review the SQL').getByRole('button', { name: 'Run this SQL' }))
          },
          'change.cancel': async () => {
            fireEvent.click(dialog('Review the SQL').getByRole('button', { name: 'Cancel' }))
          },
        },
      })
    })
  }
})
