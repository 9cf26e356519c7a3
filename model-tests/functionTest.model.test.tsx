import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { EMPTY_TEST, functionTestMachine, type ProjectKeys } from '../machines/functionTest.machine'
import type { FunctionTestRequest, FunctionTestResult } from '../src/contracts/functionRuntime'
import { FunctionTestPanel } from '../src/views/project/functions/FunctionTestPanel'
import { REF } from '../tests/fixtures'
import { DEVELOPER_KEYS, OWNER_KEYS, TEST_RESULT, TEST_USER } from '../tests/fixtures.functionRuntime'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf, sendEdge } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const ev = eventFor(functionTestMachine)
const contextOf = (snapshot: SnapshotFrom<typeof functionTestMachine>) => snapshot.context
const SLUG = 'hello-world'
const UNAUTHORIZED: FunctionTestResult = { status: 401, statusText: 'Unauthorized', headers: [['content-type', 'application/json']], body: '{"code":401,"message":"Missing authorization header"}', duration_ms: 3 }

const model = modelOf(functionTestMachine, {
  input: { ref: REF, slug: SLUG },
  events: (snapshot) => {
    const { keys, draft, result, error } = contextOf(snapshot)
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.loadKeys', output: OWNER_KEYS },
        { type: 'xstate.done.actor.loadKeys', output: DEVELOPER_KEYS },
        { type: 'xstate.error.actor.loadKeys', error: apiError('Internal server error', 500) },
        { type: 'xstate.after.requestTimeout.functionTest.loading' },
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'test.retry' }]
    if (snapshot.matches({ ready: 'idle' })) {
      if (result !== null || error !== null) return []
      const untouched = JSON.stringify(draft) === JSON.stringify(EMPTY_TEST)
      if (keys?.serviceKey === null) return untouched ? [ev({ type: 'test.edit', draft: { role: 'service_role' } }), ev({ type: 'test.send' })] : [ev({ type: 'test.send' })]
      if (untouched) {
        return [
          ev({ type: 'test.edit', draft: { method: 'GET', path: '/items?limit=5' } }),
          ev({ type: 'test.edit', draft: { path: '/../other' } }),
          ev({ type: 'test.header.add' }),
          ev({ type: 'test.header.remove', index: 0 }),
          ev({ type: 'test.edit', draft: { role: 'service_role' } }),
          ev({ type: 'test.edit', draft: { role: 'user' } }),
        ]
      }
      // As a user: none chosen yet (the send is refused), then one.
      if (draft.role === 'user' && draft.userId === null) return [ev({ type: 'test.edit', draft: { userId: TEST_USER.id } })]
      if (draft.headers.length === 2 && draft.headers[1][0] === '') return [ev({ type: 'test.header.change', index: 1, name: 'x-trace', value: 'abc' })]
      return [ev({ type: 'test.send' })]
    }
    if (snapshot.matches({ ready: 'sending' })) {
      return [
        { type: 'xstate.done.actor.invokeFunction', output: TEST_RESULT },
        { type: 'xstate.done.actor.invokeFunction', output: UNAUTHORIZED },
        { type: 'xstate.error.actor.invokeFunction', error: new Error('The function could not be reached: Failed to fetch') },
        { type: 'xstate.after.invokeTimeout.functionTest.ready.sending' },
      ]
    }
    return []
  },
  serializeState: (snapshot, event) => keyByIncomingEdge(snapshot, event, JSON.stringify(contextOf(snapshot))),
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('function Test panel model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(functionTestMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const keys = deferredActor<ProjectKeys, { ref: string }>('loadKeys')
      const invoke = deferredActor<FunctionTestResult, FunctionTestRequest>('invokeFunction')
      const actor = runPath(createActor(functionTestMachine.provide({ actors: { loadKeys: keys.logic, invokeFunction: invoke.logic } }), { input: { ref: REF, slug: SLUG } }).start())
      render(<FunctionTestPanel actor={actor} />)

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByRole('status')).toHaveTextContent("Loading the project's keys…")
            expect(keys.pending.at(-1)?.input).toEqual({ ref: REF })
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(alert).toHaveTextContent('The Test panel could not load')
            expect(alert).toHaveTextContent(contextOf(snapshot).loadError!)
          },
          'ready.idle': (snapshot) => {
            const { draft, keys: loaded, result, error } = contextOf(snapshot)
            expect(screen.getByLabelText('Method')).toHaveValue(draft.method)
            expect(screen.getByLabelText('Path after the function')).toHaveValue(draft.path)
            expect(screen.getByLabelText('Role')).toHaveValue(draft.role)
            expect(screen.getByRole('option', { name: loaded?.serviceKey ? 'service_role' : 'service_role (not allowed to you)' })).toHaveProperty('disabled', loaded?.serviceKey === null)
            draft.headers.forEach(([name, value], i) => {
              expect(screen.getByLabelText(`Header ${i + 1} name`)).toHaveValue(name)
              expect(screen.getByLabelText(`Header ${i + 1} value`)).toHaveValue(value)
            })
            expect(screen.queryByLabelText(`Header ${draft.headers.length + 1} name`)).toBeNull()
            expect(screen.getByLabelText('Request body')).toHaveProperty('disabled', draft.method === 'GET')
            expect(screen.getByRole('option', { name: loaded?.serviceKey ? 'A user' : 'A user (not allowed to you)' })).toHaveProperty('disabled', loaded?.serviceKey === null)
            if (draft.role === 'user') {
              expect(screen.getByLabelText('User')).toHaveValue(draft.userId ?? '')
              expect(screen.getByRole('option', { name: TEST_USER.label })).toBeInTheDocument()
            } else expect(screen.queryByLabelText('User')).toBeNull()
            if (draft.role === 'user' && draft.userId === null) expect(screen.getByText('Choose a user', { selector: 'p' })).toBeInTheDocument()
            const invalid = draft.path.includes('..') || (draft.role === 'service_role' && !loaded?.serviceKey) || (draft.role === 'user' && draft.userId === null)
            expect(screen.getByRole('button', { name: 'Send request' })).toHaveProperty('disabled', invalid)
            if (draft.path.includes('..')) expect(screen.getByText('The path may not contain ..')).toBeInTheDocument()
            if (result) {
              const response = screen.getByRole('region', { name: 'Response' })
              expect(within(response).getByRole('status')).toHaveTextContent(`${result.status} ${result.statusText} · ${result.duration_ms} ms`)
              expect(within(response).getByLabelText('Response body')).toHaveTextContent(result.body)
              expect(within(response).getByText('content-type')).toBeInTheDocument()
            } else expect(screen.queryByRole('region', { name: 'Response' })).toBeNull()
            if (error) expect(screen.getByRole('alert')).toHaveTextContent(error)
            else expect(screen.queryByRole('alert')).toBeNull()
          },
          'ready.sending': (snapshot) => {
            const { draft, keys: loaded } = contextOf(snapshot)
            expect(screen.getByRole('button', { name: 'Sending…' })).toBeDisabled()
            expect(invoke.pending.at(-1)?.input).toEqual({
              ref: REF,
              projectUrl: loaded!.projectUrl,
              slug: SLUG,
              method: draft.method,
              path: draft.path,
              headers: draft.headers,
              body: draft.body,
              apiKey: draft.role === 'service_role' ? loaded!.serviceKey : loaded!.anonKey,
              ...(draft.role === 'user' ? { userId: draft.userId } : {}),
            })
          },
        },
        events: {
          'xstate.done.actor.loadKeys': (step) => keys.resolve(outputOf<ProjectKeys>(step)),
          'xstate.error.actor.loadKeys': (step) => keys.reject(errorOf(step)),
          'xstate.after.requestTimeout.functionTest.loading': () => sendEdge(actor, { type: 'xstate.after.requestTimeout.functionTest.loading' }),
          'test.retry': () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })),
          'test.edit': ({ event }) => {
            if (event.draft.method !== undefined) fireEvent.change(screen.getByLabelText('Method'), { target: { value: event.draft.method } })
            if (event.draft.path !== undefined) fireEvent.change(screen.getByLabelText('Path after the function'), { target: { value: event.draft.path } })
            if (event.draft.role !== undefined) fireEvent.change(screen.getByLabelText('Role'), { target: { value: event.draft.role } })
            if (event.draft.userId !== undefined) fireEvent.change(screen.getByLabelText('User'), { target: { value: event.draft.userId ?? '' } })
          },
          'test.header.add': () => fireEvent.click(screen.getByRole('button', { name: 'Add header' })),
          'test.header.change': ({ event }) => {
            fireEvent.change(screen.getByLabelText(`Header ${event.index + 1} name`), { target: { value: event.name } })
            fireEvent.change(screen.getByLabelText(`Header ${event.index + 1} value`), { target: { value: event.value } })
          },
          'test.header.remove': ({ event }) => fireEvent.click(screen.getByRole('button', { name: `Remove header ${event.index + 1}` })),
          'test.send': () => fireEvent.click(screen.getByRole('button', { name: 'Send request' })),
          'xstate.done.actor.invokeFunction': (step) => invoke.resolve(outputOf<FunctionTestResult>(step)),
          'xstate.error.actor.invokeFunction': (step) => invoke.reject(errorOf(step)),
          'xstate.after.invokeTimeout.functionTest.ready.sending': () => sendEdge(actor, { type: 'xstate.after.invokeTimeout.functionTest.ready.sending' }),
        },
      })
    })
  }
})
