/**
 * What a person does with the open branch of the Branches page (spec 4, 8): merge it into its parent (its plan read
 * and shown for confirmation first; nothing to merge cannot be confirmed), reset it (its migrations run again) or
 * delete it, each behind a confirmation, one at a time, as the `shown` state of the open branch's detail.
 * Invariants: a failed action keeps its confirmation open with the message; a request unanswered after
 * requestTimeout is abandoned (its signal aborted) and reported like a failure; a merge or a reset reads the branch's
 * results again, a delete closes it. The guards, actions and actors it names are the page's (./branchStatus.machine.ts).
 */
import type { BranchResponse, RecordedMigration } from '../src/contracts/branching'
import { TIMED_OUT } from './loaderRegion'

export const branchResetMessage = (name: string) => `Resetting branch ${name}: its migrations run again`
export const branchDeletedMessage = (name: string) => `Deleted branch ${name}`
export const branchMergedMessage = (applied: RecordedMigration[]) =>
  applied.length === 0 ? 'Nothing to merge: the parent has every migration of the branch' : `Merged ${applied.length} migration${applied.length === 1 ? '' : 's'} into the parent`

interface Selection {
  branches: BranchResponse[]
  selectedId: string | null
}

const nameOf = (context: Selection) => context.branches.find((b) => b.id === context.selectedId)?.name ?? 'branch'
const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Unknown error')
const selectedInput = ({ context }: { context: Selection }) => ({ id: context.selectedId ?? '' })
const storeError = { type: 'storeActionError' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: messageOf(event.error) }) }
const storeTimeout = { type: 'storeActionError' as const, params: { error: TIMED_OUT } }
const success = (message: (context: Selection) => string) => ({
  type: 'showToast' as const,
  params: ({ context }: { context: Selection }) => ({ tone: 'success' as const, message: message(context) }),
})
/** A confirmation: confirmed, the action runs; cancelled, back to the branch. */
const confirming = <TTarget extends string>(running: TTarget) => ({
  on: {
    'action.confirm': { target: running, actions: 'clearActionError' as const },
    'action.cancel': { target: 'idle' as const, actions: 'clearActionError' as const },
  },
})

export const branchActionsRegion = {
  initial: 'idle' as const,
  states: {
    idle: {
      on: {
        'detail.changed': '#branchStatus.loaded.detail.open.loading',
        'merge.start': { target: 'planningMerge' as const, actions: 'forgetMergePlan' as const },
        'reset.start': { target: 'confirmingReset' as const, actions: 'clearActionError' as const },
        'delete.start': { target: 'confirmingDelete' as const, actions: 'clearActionError' as const },
      },
    },
    planningMerge: {
      invoke: {
        id: 'fetchMergePlan' as const,
        src: 'fetchMergePlan' as const,
        input: selectedInput,
        onDone: { target: 'confirmingMerge' as const, actions: { type: 'storeMergePlan' as const, params: <TPlan>({ event }: { event: { output: TPlan } }) => ({ plan: event.output }) } },
        onError: { target: 'idle' as const, actions: storeError },
      },
      after: { requestTimeout: { target: 'idle' as const, actions: storeTimeout } },
    },
    confirmingMerge: {
      on: {
        'action.confirm': { guard: 'hasMigrationsToMerge' as const, target: 'merging' as const, actions: 'clearActionError' as const },
        'action.cancel': { target: 'idle' as const, actions: 'clearActionError' as const },
      },
    },
    merging: {
      invoke: {
        id: 'mergeBranch' as const,
        src: 'mergeBranch' as const,
        input: selectedInput,
        onDone: {
          target: '#branchStatus.loaded.detail.open.loading',
          actions: {
            type: 'showToast' as const,
            params: ({ event }: { event: { output: { applied: RecordedMigration[] } } }) => ({ tone: 'success' as const, message: branchMergedMessage(event.output.applied) }),
          },
        },
        onError: { target: 'confirmingMerge' as const, actions: storeError },
      },
      after: { requestTimeout: { target: 'confirmingMerge' as const, actions: storeTimeout } },
    },
    confirmingReset: confirming('resetting' as const),
    resetting: {
      invoke: {
        id: 'resetBranch' as const,
        src: 'resetBranch' as const,
        input: selectedInput,
        onDone: {
          target: '#branchStatus.loaded.detail.open.loading',
          // The branch is being built again: the list watches it.
          actions: [success((context) => branchResetMessage(nameOf(context))), 'refreshBranches' as const],
        },
        onError: { target: 'confirmingReset' as const, actions: storeError },
      },
      after: { requestTimeout: { target: 'confirmingReset' as const, actions: storeTimeout } },
    },
    confirmingDelete: confirming('deleting' as const),
    deleting: {
      invoke: {
        id: 'deleteBranch' as const,
        src: 'deleteBranch' as const,
        input: selectedInput,
        onDone: {
          target: '#branchStatus.loaded.detail.closed',
          actions: [success((context) => branchDeletedMessage(nameOf(context))), 'forgetSelectedBranch' as const],
        },
        onError: { target: 'confirmingDelete' as const, actions: storeError },
      },
      after: { requestTimeout: { target: 'confirmingDelete' as const, actions: storeTimeout } },
    },
  },
}
