import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { functionSecretsMachine, type SecretDraft } from '../machines/functionSecrets.machine'
import type { SecretList } from '../src/contracts/functions'
import { FunctionSecrets } from '../src/views/project/functions/SecretsPage'
import { REF } from '../tests/fixtures'
import { SECRETS } from '../tests/fixtures.functionRuntime'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf, sendEdge } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const ev = eventFor(functionSecretsMachine)
const contextOf = (snapshot: SnapshotFrom<typeof functionSecretsMachine>) => snapshot.context

const model = modelOf(functionSecretsMachine, {
  input: { ref: REF },
  events: (snapshot) => {
    const { drafts, secrets, saveError, deleteError } = contextOf(snapshot)
    if (snapshot.matches('loading')) {
      // The first load answers the list or fails; a reload after a change answers the list once more.
      return secrets.length > 0
        ? [{ type: 'xstate.done.actor.listSecrets', output: SECRETS }]
        : [
            { type: 'xstate.done.actor.listSecrets', output: SECRETS },
            { type: 'xstate.error.actor.listSecrets', error: apiError('Internal server error', 500) },
            { type: 'xstate.after.requestTimeout.functionSecrets.loading' },
          ]
    }
    if (snapshot.matches('failed')) return [{ type: 'secrets.retry' }]
    if (snapshot.matches({ loaded: 'idle' })) {
      if (saveError !== null) return []
      const first = drafts[0]
      // Typing walks: a bad name, then a good one with a second row, whose removal and a save follow.
      if (drafts.length === 1 && first.name === '') return [ev({ type: 'draft.change', index: 0, name: '1BAD', value: 'x' }), ev({ type: 'secret.delete', name: 'GREETING' })]
      if (drafts.length === 1 && first.name === '1BAD') return [ev({ type: 'draft.change', index: 0, name: 'GREETING' }), ev({ type: 'secrets.save' })]
      if (drafts.length === 1 && first.name === 'GREETING') return [ev({ type: 'draft.add' })]
      if (drafts.length === 2 && drafts[1].name === '') return [ev({ type: 'draft.change', index: 1, name: 'OTHER', value: 'y' }), ev({ type: 'draft.remove', index: 1 })]
      if (drafts.length === 2) return [ev({ type: 'secrets.save' })]
      return []
    }
    if (snapshot.matches({ loaded: 'saving' })) {
      return [
        { type: 'xstate.done.actor.createSecrets' },
        { type: 'xstate.error.actor.createSecrets', error: apiError('Secret name must not start with the SUPABASE_ prefix.', 400) },
        { type: 'xstate.after.requestTimeout.functionSecrets.loaded.saving' },
      ]
    }
    if (snapshot.matches({ loaded: 'confirmingDelete' })) return deleteError === null ? [{ type: 'delete.confirm' }, { type: 'delete.cancel' }] : []
    if (snapshot.matches({ loaded: 'deleting' })) {
      return [
        { type: 'xstate.done.actor.deleteSecret' },
        { type: 'xstate.error.actor.deleteSecret', error: apiError('Internal server error', 500) },
        { type: 'xstate.after.requestTimeout.functionSecrets.loaded.deleting' },
      ]
    }
    return []
  },
  serializeState: (snapshot, event) => {
    const { secrets, ...rest } = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, JSON.stringify({ ...rest, secrets: secrets.length }))
  },
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('edge function secrets model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(functionSecretsMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const list = deferredActor<SecretList, { ref: string }>('listSecrets')
      const create = deferredActor<void, { ref: string; secrets: SecretDraft[] }>('createSecrets')
      const remove = deferredActor<void, { ref: string; name: string }>('deleteSecret')
      const actor = runPath(
        createActor(functionSecretsMachine.provide({ actors: { listSecrets: list.logic, createSecrets: create.logic, deleteSecret: remove.logic } }), { input: { ref: REF } }).start(),
      )
      render(<FunctionSecrets actor={actor} />)

      const listShown = (secrets: SecretList) => {
        const rows = within(screen.getByRole('table', { name: 'Secrets' })).getAllByRole('row').slice(1)
        expect(rows.map((row) => [within(row).getByRole('rowheader').textContent, row.children[1].textContent])).toEqual(secrets.map((s) => [s.name, s.value]))
        // A value is never on the page: only its digest.
        expect(screen.queryByText('x')).toBeNull()
      }

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('status')).toHaveTextContent('Loading secrets…')
            expect(list.pending.at(-1)?.input).toEqual({ ref: REF })
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(alert).toHaveTextContent('Failed to load secrets')
            expect(alert).toHaveTextContent(contextOf(snapshot).loadError!)
          },
          'loaded.idle': (snapshot) => {
            const { drafts, saveError } = contextOf(snapshot)
            listShown(contextOf(snapshot).secrets)
            drafts.forEach((row, i) => {
              expect(screen.getByLabelText(`Name of secret ${i + 1}`)).toHaveValue(row.name)
              expect(screen.getByLabelText(`Value of secret ${i + 1}`)).toHaveValue(row.value)
            })
            if (drafts[0].name === '1BAD') expect(screen.getByText('a secret name holds letters, digits and _ and does not start with a digit')).toBeInTheDocument()
            expect(screen.getByRole('button', { name: 'Save secrets' })).toHaveProperty('disabled', !snapshot.can({ type: 'secrets.save' }))
            if (saveError) expect(screen.getByRole('alert')).toHaveTextContent(saveError)
            else expect(screen.queryByRole('alert')).toBeNull()
            expect(screen.queryByRole('alertdialog')).toBeNull()
          },
          'loaded.saving': (snapshot) => {
            expect(screen.getByRole('button', { name: 'Saving…' })).toBeDisabled()
            expect(create.pending.at(-1)?.input).toEqual({ ref: REF, secrets: contextOf(snapshot).drafts })
          },
          'loaded.confirmingDelete': (snapshot) => {
            const dialog = screen.getByRole('alertdialog', { name: 'Delete the secret GREETING?' })
            expect(within(dialog).getByRole('button', { name: 'Delete secret' })).toBeEnabled()
            const { deleteError } = contextOf(snapshot)
            if (deleteError) expect(within(dialog).getByRole('alert')).toHaveTextContent(deleteError)
          },
          'loaded.deleting': () => {
            expect(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Deleting…' })).toBeDisabled()
            expect(remove.pending.at(-1)?.input).toEqual({ ref: REF, name: 'GREETING' })
          },
        },
        events: {
          'xstate.done.actor.listSecrets': (step) => list.resolve(outputOf<SecretList>(step)),
          'xstate.error.actor.listSecrets': (step) => list.reject(errorOf(step)),
          'xstate.after.requestTimeout.functionSecrets.loading': () => sendEdge(actor, { type: 'xstate.after.requestTimeout.functionSecrets.loading' }),
          'secrets.retry': () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })),
          'draft.change': ({ event }) => {
            if (event.name !== undefined) fireEvent.change(screen.getByLabelText(`Name of secret ${event.index + 1}`), { target: { value: event.name } })
            if (event.value !== undefined) fireEvent.change(screen.getByLabelText(`Value of secret ${event.index + 1}`), { target: { value: event.value } })
          },
          'draft.add': () => fireEvent.click(screen.getByRole('button', { name: 'Add another' })),
          'draft.remove': ({ event }) => fireEvent.click(screen.getByRole('button', { name: `Remove row ${event.index + 1}` })),
          'secrets.save': () => fireEvent.click(screen.getByRole('button', { name: 'Save secrets' })),
          'xstate.done.actor.createSecrets': () => create.resolve(undefined),
          'xstate.error.actor.createSecrets': (step) => create.reject(errorOf(step)),
          'xstate.after.requestTimeout.functionSecrets.loaded.saving': () => sendEdge(actor, { type: 'xstate.after.requestTimeout.functionSecrets.loaded.saving' }),
          'secret.delete': ({ event }) => fireEvent.click(screen.getByRole('button', { name: `Delete ${event.name}` })),
          'delete.confirm': () => fireEvent.click(screen.getByRole('button', { name: 'Delete secret' })),
          'delete.cancel': () => fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Cancel' })),
          'xstate.done.actor.deleteSecret': () => remove.resolve(undefined),
          'xstate.error.actor.deleteSecret': (step) => remove.reject(errorOf(step)),
          'xstate.after.requestTimeout.functionSecrets.loaded.deleting': () => sendEdge(actor, { type: 'xstate.after.requestTimeout.functionSecrets.loaded.deleting' }),
        },
      })
    })
  }
})
