/**
 * Create a project in an organization (/new/{slug}): a name, a database password strong enough (passwordProblem: the
 * rule the form shows while it is not met), and a region, then Create. The server decides who may
 * create (a Read-only member gets 403, said plainly); any other refusal shows the server's message. On success the
 * project list is asked to load again and the page opens the new project, whose building screen takes over.
 * Invariants: what was typed survives every failure; one create at a time; a create unanswered after createTimeout
 * is abandoned and reported, saying the project may exist (the server may have finished it).
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import { REGIONS, type V1CreatedProject } from '../src/contracts/database'
import { passwordProblem } from './dbPassword'

export type RegionCode = (typeof REGIONS)[number]
export const DEFAULT_REGION: RegionCode = 'us-east-1'
export { REGIONS }
export { passwordProblem }

export interface CreateProjectInput {
  organizationSlug: string
  name: string
  region: RegionCode
  /** The database password (the Postgres port's `postgres.<ref>` login); the platform keeps only its verifier. */
  dbPass: string
}

interface Context {
  slug: string
  name: string
  password: string
  region: RegionCode
  created: V1CreatedProject | null
  error: string | null
}

type NewProjectEvent =
  | { type: 'project.name'; name: string }
  | { type: 'project.password'; password: string }
  | { type: 'project.region'; region: RegionCode }
  | { type: 'project.create' }

const CREATE_TIMEOUT_MS = 15_000

/** What a failed create says: a 403 in words a person understands, otherwise the server's message. */
export function createErrorOf(error: unknown): string {
  const status = error !== null && typeof error === 'object' && 'status' in error ? error.status : null
  if (status === 403) return 'You do not have permission to create projects in this organization. Ask an Owner or Administrator to create it, or to change your role.'
  return error instanceof Error && error.message ? `Failed to create project: ${error.message}` : 'Failed to create project'
}

export const newProjectMachine = setup({
  types: {
    input: {} as { slug: string },
    context: {} as Context,
    events: {} as NewProjectEvent,
    children: {} as { createProject: 'createProject' },
  },
  actors: {
    createProject: fromPromise<V1CreatedProject, CreateProjectInput>(async () => {
      throw new Error('createProject not provided')
    }),
  },
  actions: {
    /** Provided by the app: the project list loads again, so it holds the new project. */
    refreshProjectList: () => {},
    storeError: assign((_, params: { error: string }) => ({ error: params.error })),
  },
  guards: {
    isComplete: ({ context }) => context.name.trim() !== '' && passwordProblem(context.password) === null,
    isRegion: (_, params: { region: string }) => (REGIONS as readonly string[]).includes(params.region),
  },
  delays: {
    createTimeout: CREATE_TIMEOUT_MS,
  },
}).createMachine({
  id: 'newProject',
  context: ({ input }) => ({ slug: input.slug, name: '', password: '', region: DEFAULT_REGION, created: null, error: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'project.name': { actions: assign({ name: ({ event }) => event.name }) },
        'project.password': { actions: assign({ password: ({ event }) => event.password }) },
        'project.region': {
          guard: { type: 'isRegion', params: ({ event }) => ({ region: event.region }) },
          actions: assign({ region: ({ event }) => event.region }),
        },
        'project.create': { guard: 'isComplete', target: 'creating', actions: assign({ error: null }) },
      },
    },
    creating: {
      invoke: {
        id: 'createProject',
        src: 'createProject',
        input: ({ context }) => ({ organizationSlug: context.slug, name: context.name.trim(), region: context.region, dbPass: context.password }),
        onDone: { target: 'created', actions: assign({ created: ({ event }) => event.output }) },
        onError: { target: 'editing', actions: { type: 'storeError', params: ({ event }) => ({ error: createErrorOf(event.error) }) } },
      },
      after: {
        createTimeout: {
          target: 'editing',
          actions: {
            type: 'storeError',
            params: {
              error: `The platform did not answer within ${CREATE_TIMEOUT_MS / 1_000} s. The project may still have been created: check the project list before trying again.`,
            },
          },
        },
      },
    },
    created: {
      type: 'final',
      entry: 'refreshProjectList',
    },
  },
})

type NewProjectView =
  | { phase: 'editing'; name: string; password: string; passwordProblem: string | null; region: RegionCode; creating: boolean; error: string | null }
  | { phase: 'created'; ref: string; name: string }

export function selectNewProjectView(snapshot: SnapshotFrom<typeof newProjectMachine>): NewProjectView {
  const { name, password, region, created, error } = snapshot.context
  if (snapshot.matches('created') && created) return { phase: 'created', ref: created.ref, name: created.name }
  return { phase: 'editing', name, password, passwordProblem: passwordProblem(password), region, creating: snapshot.matches('creating'), error }
}

export const selectCanCreate = (snapshot: SnapshotFrom<typeof newProjectMachine>) => snapshot.can({ type: 'project.create' })
