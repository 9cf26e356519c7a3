/**
 * The live actors of the Branches page: the project's branches, a branch's build results and its schema difference,
 * the merge plan, merge, reset and delete; the enablement modal runs as its child with its own live actors.
 */
import { fromPromise } from 'xstate'
import { branchStatusMachine, type BranchDetail } from '../../../machines/branchStatus.machine'
import { deleteBranch, getBranchDiff, getBranchMergePlan, getBranchMigrations, listBranches, mergeBranch, resetBranch } from '../calls/branching'
import { liveBranchingEnablementMachine } from './branchingEnablement'

type Signal = { signal: AbortSignal }
type ById = Signal & { input: { id: string } }

export const liveBranchStatusMachine = branchStatusMachine.provide({
  actors: {
    enablement: liveBranchingEnablementMachine,
    listBranches: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => listBranches(input.ref, { signal })),
    fetchBranchDetail: fromPromise(async ({ input, signal }: ById): Promise<BranchDetail> => {
      // The results are the page; a difference that cannot be computed yet (a branch still being built) is said beside them.
      const [migrations, diff] = await Promise.all([
        getBranchMigrations(input.id, { signal }),
        getBranchDiff(input.id, { signal }).then(
          (value) => ({ value, error: null }),
          (error: unknown) => ({ value: null, error: error instanceof Error ? error.message : 'Failed to compare schemas' }),
        ),
      ])
      return { migrations, diff: diff.value, diffError: diff.error }
    }),
    fetchMergePlan: fromPromise(({ input, signal }: ById) => getBranchMergePlan(input.id, { signal })),
    mergeBranch: fromPromise(({ input, signal }: ById) => mergeBranch(input.id, {}, { signal })),
    resetBranch: fromPromise(async ({ input, signal }: ById) => {
      await resetBranch(input.id, {}, { signal })
    }),
    deleteBranch: fromPromise(async ({ input, signal }: ById) => {
      await deleteBranch(input.id, { signal })
    }),
  },
})
