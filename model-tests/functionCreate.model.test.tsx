import { EditorView } from '@codemirror/view'
import { fireEvent, render, screen } from '@testing-library/react'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { describe, expect, it } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { FIRST_DRAFT, functionCreateMachine } from '../machines/functionCreate.machine'
import { FUNCTION_TEMPLATES } from '../machines/functionTemplates'
import type { FunctionResponse } from '../src/contracts/functions'
import { FunctionCreate } from '../src/views/project/functions/NewFunctionPage'
import { REF } from '../tests/fixtures'
import { HELLO_WORLD } from '../tests/fixtures.storage'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, sendEdge } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const ev = eventFor(functionCreateMachine)
const contextOf = (snapshot: SnapshotFrom<typeof functionCreateMachine>) => snapshot.context
const GREET = { ...HELLO_WORLD, slug: 'greet', name: 'greet', version: 1 }

const model = modelOf(functionCreateMachine, {
  input: { ref: REF },
  events: (snapshot) => {
    const { draft, error } = contextOf(snapshot)
    if (snapshot.matches('editing')) {
      if (error !== null) return []
      // A bad slug, then a good one; a template chosen; then the deploy.
      if (draft.slug === '') return [ev({ type: 'create.edit', draft: { slug: '9lives' } }), ev({ type: 'create.submit' })]
      if (draft.slug === '9lives') return [ev({ type: 'create.edit', draft: { slug: 'greet' } })]
      if (draft.template === FIRST_DRAFT.template) return [ev({ type: 'create.template', id: FUNCTION_TEMPLATES[2].id }), ev({ type: 'create.submit' })]
      return [ev({ type: 'create.edit', draft: { verifyJwt: false } })]
    }
    if (snapshot.matches('deploying')) {
      return [
        { type: 'xstate.done.actor.deployFunction', output: GREET },
        { type: 'xstate.error.actor.deployFunction', error: apiError("The resource already exists: this project has an edge function 'greet'", 409) },
        { type: 'xstate.after.deployTimeout.functionCreate.deploying' },
      ]
    }
    return []
  },
  serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event, JSON.stringify(contextOf(snapshot))),
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('deploy a new function model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(functionCreateMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const deploy = deferredActor<FunctionResponse, { ref: string; slug: string; code: string; verifyJwt: boolean }>('deployFunction')
      const actor = runPath(createActor(functionCreateMachine.provide({ actors: { deployFunction: deploy.logic } }), { input: { ref: REF } }).start())
      const location = memoryLocation({ path: `/project/${REF}/functions/new`, record: true })
      render(
        <Router hook={location.hook}>
          <FunctionCreate actor={actor} />
        </Router>,
      )

      await path.test({
        states: {
          editing: (snapshot) => {
            const { draft, error } = contextOf(snapshot)
            expect(screen.getByRole('heading', { level: 1, name: 'Deploy a new function' })).toBeInTheDocument()
            expect(screen.getByLabelText('Function name')).toHaveValue(draft.slug)
            expect(screen.getByLabelText('Template')).toHaveValue(draft.template)
            // The code editor's text, as CodeMirror holds it (the element shows only the lines in view).
            expect(EditorView.findFromDOM(screen.getByRole('textbox', { name: 'Code of index.ts' }))?.state.doc.toString()).toBe(draft.code)
            expect(screen.getByLabelText('Enforce JWT verification')).toHaveProperty('checked', draft.verifyJwt)
            expect(screen.getByRole('button', { name: 'Deploy function' })).toHaveProperty('disabled', draft.slug !== 'greet')
            if (draft.slug === '9lives') expect(screen.getByText('A function slug starts with a letter and holds only letters, digits, - and _')).toBeInTheDocument()
            if (error) expect(screen.getByRole('alert')).toHaveTextContent(error)
            else expect(screen.queryByRole('alert')).toBeNull()
          },
          deploying: (snapshot) => {
            const { draft } = contextOf(snapshot)
            expect(screen.getByRole('button', { name: 'Deploying…' })).toBeDisabled()
            expect(deploy.pending.at(-1)?.input).toEqual({ ref: REF, slug: 'greet', code: draft.code, verifyJwt: draft.verifyJwt })
          },
          deployed: () => {
            expect(location.history.at(-1)).toBe(`/project/${REF}/functions/greet`)
          },
        },
        events: {
          'create.edit': ({ event }) => {
            if (event.draft.slug !== undefined) fireEvent.change(screen.getByLabelText('Function name'), { target: { value: event.draft.slug } })
            if (event.draft.verifyJwt !== undefined) fireEvent.click(screen.getByLabelText('Enforce JWT verification'))
          },
          'create.template': ({ event }) => fireEvent.change(screen.getByLabelText('Template'), { target: { value: event.id } }),
          'create.submit': () => fireEvent.click(screen.getByRole('button', { name: 'Deploy function' })),
          'xstate.done.actor.deployFunction': () => deploy.resolve(GREET),
          'xstate.error.actor.deployFunction': (step) => deploy.reject(errorOf(step)),
          'xstate.after.deployTimeout.functionCreate.deploying': () => sendEdge(actor, { type: 'xstate.after.deployTimeout.functionCreate.deploying' }),
        },
      })
    })
  }
})
