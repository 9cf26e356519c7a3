/**
 * The git branch field of 'Enable database branching' (spec 4), as a region of the open modal: typing is stored
 * without a word until the field is first left; from then on every change is validated again — longer than 1
 * character, then the server's branch check —, and a branch that passed shows the dry run's plan of what creating it
 * will run. `found` is the valid flag Enable waits for: every change leaves it. Each request unanswered after
 * requestTimeout (the dry run, which reads the project's database: projectDatabaseTimeout) is abandoned (its signal
 * aborted) and reported like a failure.
 * The guards, actions and actors it names are the modal's (./branchingEnablement.machine.ts).
 */
import { TIMED_OUT } from './loaderRegion'

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Unknown error')
const nameOf = ({ event }: { event: { name: string } }) => ({ name: event.name })
const errorMessage = ({ event }: { event: { error: unknown } }) => ({ error: messageOf(event.error) })
const storeName = { type: 'storeName' as const, params: nameOf }

export const branchCheckRegion = {
  initial: 'pristine' as const,
  states: {
    /** Not yet left once: typing is stored, nothing is said. */
    pristine: {
      on: {
        'branch.change': { guard: 'mayEditBranch' as const, actions: storeName },
        'branch.blur': { guard: 'mayEditBranch' as const, target: 'validating' as const },
      },
    },
    validating: {
      always: [{ guard: 'isTooShort' as const, target: 'tooShort' as const }, { target: 'checking' as const }],
    },
    tooShort: {},
    checking: {
      invoke: {
        id: 'checkBranch' as const,
        src: 'checkBranch' as const,
        input: ({ context }: { context: { connection: { connectionId: number } | null; gitBranch: string } }) => ({
          connectionId: context.connection?.connectionId ?? 0,
          name: context.gitBranch.trim(),
        }),
        onDone: 'found' as const,
        onError: [
          { guard: { type: 'isNotFound' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) }, target: 'notFound' as const },
          { target: 'checkFailed' as const, actions: { type: 'storeCheckError' as const, params: errorMessage } },
        ],
      },
      after: { requestTimeout: { target: 'checkFailed' as const, actions: { type: 'storeCheckError' as const, params: { error: TIMED_OUT } } } },
    },
    /** The check passed (the valid flag): the dry run shows what creating the branch will run. */
    found: {
      initial: 'planning' as const,
      states: {
        planning: {
          invoke: {
            id: 'fetchDryRun' as const,
            src: 'fetchDryRun' as const,
            input: ({ context }: { context: { project: { ref: string }; gitBranch: string } }) => ({ ref: context.project.ref, gitBranch: context.gitBranch.trim() }),
            onDone: { target: 'planned' as const, actions: { type: 'storeDryRun' as const, params: <TPlan>({ event }: { event: { output: TPlan } }) => ({ plan: event.output }) } },
            onError: { target: 'planFailed' as const, actions: { type: 'storeDryRunError' as const, params: errorMessage } },
          },
          // The dry run reads the migrations the project's database has recorded: the wait of such reads.
          after: { projectDatabaseTimeout: { target: 'planFailed' as const, actions: { type: 'storeDryRunError' as const, params: { error: TIMED_OUT } } } },
        },
        planned: {},
        planFailed: {},
      },
    },
    notFound: {},
    checkFailed: {},
  },
  // Once left, every change validates again (and leaves the valid flag).
  on: {
    'branch.change': { guard: 'mayEditBranch' as const, target: '.validating' as const, actions: storeName },
  },
}
