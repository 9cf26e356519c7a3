/**
 * The Test panel of a function's page: a request (method, path, headers, body) sent to the function through the
 * project's gateway with the anon or the service_role key, or as a user of the project's auth (the anon key plus that
 * user's access token), as a client would; it shows the answer (status, headers, body) and how long it took. The
 * project's URL, keys and users load first; a member who may not read the service_role key sends with the anon key
 * only (acting as a user is what that key allows).
 * Invariants: any answer of the function is a result, whatever its status; only a request that got no answer (or
 * none within the platform's wall clock) is an error; what was typed survives every outcome.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { TEST_METHODS, type FunctionTestRequest, type FunctionTestResult, type TestMethod, type TestRole } from '../src/contracts/functionRuntime'

export interface ProjectKeys {
  projectUrl: string
  anonKey: string
  /** Null for a member who may not read it. */
  serviceKey: string | null
  /** The project's users one may test as (empty for a member without the service_role key). */
  users: TestUser[]
}

export interface TestUser {
  id: string
  label: string
}

export interface TestDraft {
  method: TestMethod
  path: string
  headers: Array<[string, string]>
  body: string
  role: TestRole
  /** The user a 'user' test is sent as. */
  userId: string | null
}

export const EMPTY_TEST: TestDraft = { method: 'POST', path: '', headers: [['content-type', 'application/json']], body: '{"name":"Functions"}', role: 'anon', userId: null }

interface Context {
  ref: string
  slug: string
  keys: ProjectKeys | null
  loadError: string | null
  draft: TestDraft
  result: FunctionTestResult | null
  error: string | null
}

type FunctionTestEvent =
  | { type: 'test.retry' }
  | { type: 'test.edit'; draft: Partial<Omit<TestDraft, 'headers'>> }
  | { type: 'test.header.add' }
  | { type: 'test.header.change'; index: number; name?: string; value?: string }
  | { type: 'test.header.remove'; index: number }
  | { type: 'test.send' }

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

/** What is wrong with a draft, if anything: the path must stay under the function; the role needs its key. */
export function testDraftProblem(draft: TestDraft, keys: ProjectKeys | null): string | null {
  if (!TEST_METHODS.includes(draft.method)) return 'Choose a method'
  if (draft.path !== '' && !/^[/?]/.test(draft.path)) return 'The path starts with / or ?'
  if (draft.path.includes('..')) return 'The path may not contain ..'
  if (draft.role === 'service_role' && !keys?.serviceKey) return 'You may not use the service_role key of this project'
  if (draft.role === 'user' && !keys?.serviceKey) return 'You may not test as a user of this project'
  if (draft.role === 'user' && !keys?.users.some((u) => u.id === draft.userId)) return 'Choose a user'
  return null
}

export const functionTestMachine = setup({
  types: {
    input: {} as { ref: string; slug: string },
    context: {} as Context,
    events: {} as FunctionTestEvent,
    children: {} as { loadKeys: 'loadKeys'; invokeFunction: 'invokeFunction' },
  },
  actors: {
    loadKeys: fromPromise<ProjectKeys, { ref: string }>(async () => {
      throw new Error('loadKeys not provided')
    }),
    invokeFunction: fromPromise<FunctionTestResult, FunctionTestRequest>(async () => {
      throw new Error('invokeFunction not provided')
    }),
  },
  guards: {
    isDraftValid: ({ context }) => testDraftProblem(context.draft, context.keys) === null,
  },
  delays: {
    requestTimeout: 10_000,
    /** The platform's wall clock of a paid project's function, and a little more for the way there and back. */
    invokeTimeout: 405_000,
  },
}).createMachine({
  id: 'functionTest',
  context: ({ input }) => ({ ref: input.ref, slug: input.slug, keys: null, loadError: null, draft: EMPTY_TEST, result: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadKeys',
        src: 'loadKeys',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ keys: event.output, loadError: null })) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ loadError: messageOf(event.error, "Failed to load the project's keys") })) },
      },
      after: { requestTimeout: { target: 'failed', actions: assign({ loadError: 'The request timed out' }) } },
    },
    failed: {
      on: { 'test.retry': 'loading' },
    },
    ready: {
      initial: 'idle',
      on: {
        'test.edit': { actions: assign(({ context, event }) => ({ draft: { ...context.draft, ...event.draft } })) },
        'test.header.add': { actions: assign(({ context }) => ({ draft: { ...context.draft, headers: [...context.draft.headers, ['', ''] as [string, string]] } })) },
        'test.header.change': {
          actions: assign(({ context, event }) => ({
            draft: {
              ...context.draft,
              headers: context.draft.headers.map(([name, value], i): [string, string] => (i === event.index ? [event.name ?? name, event.value ?? value] : [name, value])),
            },
          })),
        },
        'test.header.remove': { actions: assign(({ context, event }) => ({ draft: { ...context.draft, headers: context.draft.headers.filter((_, i) => i !== event.index) } })) },
      },
      states: {
        idle: {
          on: { 'test.send': { guard: 'isDraftValid', target: 'sending' } },
        },
        sending: {
          invoke: {
            id: 'invokeFunction',
            src: 'invokeFunction',
            input: ({ context }) => ({
              ref: context.ref,
              projectUrl: context.keys?.projectUrl ?? '',
              slug: context.slug,
              method: context.draft.method,
              path: context.draft.path,
              headers: context.draft.headers,
              body: context.draft.body,
              apiKey: (context.draft.role === 'service_role' ? context.keys?.serviceKey : context.keys?.anonKey) ?? '',
              ...(context.draft.role === 'user' && context.draft.userId ? { userId: context.draft.userId } : {}),
            }),
            onDone: { target: 'idle', actions: assign(({ event }) => ({ result: event.output, error: null })) },
            onError: { target: 'idle', actions: assign(({ event }) => ({ result: null, error: messageOf(event.error, 'The request failed') })) },
          },
          after: { invokeTimeout: { target: 'idle', actions: assign({ result: null, error: 'The function did not answer in time' }) } },
        },
      },
    },
  },
})

export type FunctionTestView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | {
      phase: 'ready'
      draft: TestDraft
      problem: string | null
      serviceAllowed: boolean
      users: TestUser[]
      sending: boolean
      result: FunctionTestResult | null
      error: string | null
    }

export function selectFunctionTestView(snapshot: SnapshotFrom<typeof functionTestMachine>): FunctionTestView {
  const { keys, loadError, draft, result, error } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed') || keys === null) return { phase: 'failed', error: loadError ?? "Failed to load the project's keys" }
  return { phase: 'ready', draft, problem: testDraftProblem(draft, keys), serviceAllowed: keys.serviceKey !== null, users: keys.users, sending: snapshot.matches({ ready: 'sending' }), result, error }
}
