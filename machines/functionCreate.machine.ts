/**
 * 'Deploy a new function' (/project/{ref}/functions/new): a slug and the code of a template, edited in the browser,
 * deployed as version 1 of a new function (the Management API's create, which refuses a slug the project has already
 * rather than replacing that function); once deployed the page moves on to the function's own page.
 * Invariants: the slug is checked by the contract's rule before anything is sent; what was typed survives a failed
 * deploy, with the server's message.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { FunctionSlug, type FunctionResponse } from '../src/contracts/functions'
import { FUNCTION_TEMPLATES, templateById } from './functionTemplates'

export interface CreateDraft {
  slug: string
  template: string
  code: string
  verifyJwt: boolean
}

export const FIRST_DRAFT: CreateDraft = { slug: '', template: FUNCTION_TEMPLATES[0].id, code: FUNCTION_TEMPLATES[0].code, verifyJwt: true }

interface Context {
  ref: string
  draft: CreateDraft
  error: string | null
  created: FunctionResponse | null
}

type FunctionCreateEvent =
  | { type: 'create.template'; id: string }
  | { type: 'create.edit'; draft: Partial<Omit<CreateDraft, 'template'>> }
  | { type: 'create.submit' }

export function slugProblem(slug: string): string | null {
  if (slug === '') return 'Name the function'
  const parsed = FunctionSlug.safeParse(slug)
  if (!parsed.success) return parsed.error.issues[0]?.message ?? 'Invalid slug'
  if (slug.length > 128) return 'A function slug is at most 128 characters'
  return null
}

export const functionCreateMachine = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    events: {} as FunctionCreateEvent,
    children: {} as { deployFunction: 'deployFunction' },
  },
  actors: {
    deployFunction: fromPromise<FunctionResponse, { ref: string; slug: string; code: string; verifyJwt: boolean }>(async () => {
      throw new Error('deployFunction not provided')
    }),
  },
  guards: {
    isDraftValid: ({ context }) => slugProblem(context.draft.slug) === null && context.draft.code.trim() !== '',
  },
  delays: { deployTimeout: 60_000 },
}).createMachine({
  id: 'functionCreate',
  context: ({ input }) => ({ ref: input.ref, draft: FIRST_DRAFT, error: null, created: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'create.template': { actions: assign(({ context, event }) => ({ draft: { ...context.draft, template: templateById(event.id).id, code: templateById(event.id).code } })) },
        'create.edit': { actions: assign(({ context, event }) => ({ draft: { ...context.draft, ...event.draft } })) },
        'create.submit': { guard: 'isDraftValid', target: 'deploying', actions: assign({ error: null }) },
      },
    },
    deploying: {
      invoke: {
        id: 'deployFunction',
        src: 'deployFunction',
        input: ({ context }) => ({ ref: context.ref, slug: context.draft.slug, code: context.draft.code, verifyJwt: context.draft.verifyJwt }),
        onDone: { target: 'deployed', actions: assign(({ event }) => ({ created: event.output })) },
        onError: { target: 'editing', actions: assign(({ event }) => ({ error: event.error instanceof Error && event.error.message ? event.error.message : 'Failed to deploy the function' })) },
      },
      after: { deployTimeout: { target: 'editing', actions: assign({ error: 'The request timed out' }) } },
    },
    deployed: { type: 'final' },
  },
})

export type FunctionCreateView =
  | { phase: 'editing' | 'deploying'; draft: CreateDraft; problem: string | null; canSubmit: boolean; error: string | null }
  | { phase: 'deployed'; slug: string }

export function selectFunctionCreateView(snapshot: SnapshotFrom<typeof functionCreateMachine>): FunctionCreateView {
  const { draft, error, created } = snapshot.context
  if (snapshot.matches('deployed') && created) return { phase: 'deployed', slug: created.slug }
  return {
    phase: snapshot.matches('deploying') ? 'deploying' : 'editing',
    draft,
    problem: draft.slug === '' ? null : slugProblem(draft.slug),
    canSubmit: snapshot.can({ type: 'create.submit' }),
    error,
  }
}
