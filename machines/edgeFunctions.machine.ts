/**
 * Edge Functions: the project's functions as the Management API lists them (GET /v1/projects/{ref}/functions) —
 * name, slug, status, version, when each was last updated, whether it verifies a JWT.
 * Invariants: a request unanswered after requestTimeout is abandoned (its signal aborted) and reported; a failed
 * load shows why and offers a retry; an empty list is a state of the list, not a failure.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { FunctionResponse } from '../src/contracts/functions'

interface Context {
  ref: string
  functions: FunctionResponse[]
  error: string | null
}

type EdgeFunctionsEvent = { type: 'functions.retry' }

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Failed to load functions')

export const edgeFunctionsMachine = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    events: {} as EdgeFunctionsEvent,
    children: {} as { listFunctions: 'listFunctions' },
  },
  actors: {
    listFunctions: fromPromise<FunctionResponse[], { ref: string }>(async () => {
      throw new Error('listFunctions not provided')
    }),
  },
  actions: {
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'edgeFunctions',
  context: ({ input }) => ({ ref: input.ref, functions: [], error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'listFunctions',
        src: 'listFunctions',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'loaded', actions: assign(({ event }) => ({ functions: event.output, error: null })) },
        onError: { target: 'failed', actions: { type: 'storeError', params: ({ event }) => ({ error: messageOf(event.error) }) } },
      },
      after: {
        requestTimeout: { target: 'failed', actions: { type: 'storeError', params: { error: 'The request timed out' } } },
      },
    },
    failed: {
      on: { 'functions.retry': 'loading' },
    },
    loaded: {},
  },
})

export type EdgeFunctionsView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | { phase: 'loaded'; functions: FunctionResponse[] }

export function selectEdgeFunctionsView(snapshot: SnapshotFrom<typeof edgeFunctionsMachine>): EdgeFunctionsView {
  const { functions, error } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed')) return { phase: 'failed', error: error ?? 'Failed to load functions' }
  return { phase: 'loaded', functions }
}
