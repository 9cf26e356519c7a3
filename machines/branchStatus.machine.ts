/**
 * The Branches page (/project/{ref}/branches): the project's preview branches, their build watched while any is being
 * built (a list read on a fixed beat, ./polling.ts: every 4 s, each read 2 s before it is abandoned), and one
 * branch's detail — each migration's result and the seed's, the schema difference with the parent — with merge (its
 * plan shown for confirmation), reset and delete behind a confirmation. The 'Enable database branching' modal runs as
 * the child 'enablement' and tells this machine when it created a branch.
 * Invariants: the list is polled only while some branch is CREATING_PROJECT or RUNNING_MIGRATIONS, and stops when
 * none is; one action at a time on the open branch; a failed action keeps its confirmation open with the message;
 * every request unanswered after requestTimeout is abandoned (its signal aborted) and reported like a failure.
 */
import { assign, enqueueActions, fromPromise, raise, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate'
import { isBranchSettled, type BranchDiff, type BranchMigrations, type BranchResponse, type MergePlan, type MergeResponse } from '../src/contracts/branching'
import { branchingEnablementMachine, type BranchingProject, type ToastsRef } from './branchingEnablement.machine'
import { branchActionsRegion } from './branchActionsRegion'
import { onBeat, slot } from './polling'
import type { ToastTone } from './toast.machine'

export interface BranchDetail {
  migrations: BranchMigrations
  /** null with `diffError` when the difference could not be computed (a branch still being built, a failed read). */
  diff: BranchDiff | null
  diffError: string | null
}


const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback = 'Unknown error') => (error instanceof Error && error.message ? error.message : fallback)

interface Context {
  project: BranchingProject
  toasts: ToastsRef
  branches: BranchResponse[]
  loadError: string | null
  selectedId: string | null
  detail: BranchDetail | null
  detailError: string | null
  mergePlan: MergePlan | null
  actionError: string | null
}

type BranchStatusEvent =
  | { type: 'branches.retry' }
  | { type: 'branches.refresh' }
  | { type: 'branch.created'; branch: BranchResponse }
  | { type: 'branch.open'; id: string }
  | { type: 'branch.close' }
  | { type: 'detail.retry' }
  | { type: 'detail.changed' }
  | { type: 'merge.start' }
  | { type: 'reset.start' }
  | { type: 'delete.start' }
  | { type: 'action.confirm' }
  | { type: 'action.cancel' }

/** The open branch's status moved (or it was updated): its results are read again. */
function selectedChanged(context: Pick<Context, 'branches' | 'selectedId'>, next: BranchResponse[]) {
  const before = context.branches.find((b) => b.id === context.selectedId)
  const after = next.find((b) => b.id === context.selectedId)
  return before !== undefined && after !== undefined && (before.status !== after.status || before.updated_at !== after.updated_at)
}

const building = (branches: BranchResponse[]) => branches.some((branch) => !isBranchSettled(branch.status))

export const branchStatusMachine = setup({
  types: {
    input: {} as { project: BranchingProject; toasts: ToastsRef },
    context: {} as Context,
    events: {} as BranchStatusEvent,
    children: {} as {
      enablement: 'enablement'
      listBranches: 'listBranches'
      pollBranches: 'listBranches'
      fetchBranchDetail: 'fetchBranchDetail'
      fetchMergePlan: 'fetchMergePlan'
      mergeBranch: 'mergeBranch'
      resetBranch: 'resetBranch'
      deleteBranch: 'deleteBranch'
    },
  },
  actors: {
    /** The 'Enable database branching' modal (./branchingEnablement.machine.ts), provided with its live actors. */
    enablement: branchingEnablementMachine,
    listBranches: fromPromise<BranchResponse[], { ref: string }>(async () => {
      throw new Error('listBranches not provided')
    }),
    fetchBranchDetail: fromPromise<BranchDetail, { id: string }>(async () => {
      throw new Error('fetchBranchDetail not provided')
    }),
    fetchMergePlan: fromPromise<MergePlan, { id: string }>(async () => {
      throw new Error('fetchMergePlan not provided')
    }),
    mergeBranch: fromPromise<MergeResponse, { id: string }>(async () => {
      throw new Error('mergeBranch not provided')
    }),
    resetBranch: fromPromise<void, { id: string }>(async () => {
      throw new Error('resetBranch not provided')
    }),
    deleteBranch: fromPromise<void, { id: string }>(async () => {
      throw new Error('deleteBranch not provided')
    }),
  },
  actions: {
    storeBranches: assign((_, params: { branches: BranchResponse[] }) => ({ branches: params.branches })),
    storeActionError: assign((_, params: { error: string }) => ({ actionError: params.error })),
    clearActionError: assign({ actionError: null }),
    forgetMergePlan: assign({ actionError: null, mergePlan: null }),
    storeMergePlan: assign((_, params: { plan: MergePlan }) => ({ mergePlan: params.plan })),
    /** The open branch was deleted: it leaves the list and the detail closes. */
    forgetSelectedBranch: assign(({ context }) => ({ branches: context.branches.filter((b) => b.id !== context.selectedId), selectedId: null, detail: null })),
    /** The branch is being built again: the list watches it. */
    refreshBranches: raise({ type: 'branches.refresh' }),
    /** Compares with the branches before they are stored, so it runs first. */
    raiseIfSelectedChanged: enqueueActions(({ context, enqueue }, params: { branches: BranchResponse[] }) => {
      if (selectedChanged(context, params.branches)) enqueue.raise({ type: 'detail.changed' })
    }),
    showToast: sendTo(
      ({ context }) => context.toasts,
      (_, params: { tone: ToastTone; message: string }) => ({ type: 'toast.show' as const, tone: params.tone, message: params.message }),
    ),
  },
  guards: {
    isBuilding: ({ context }) => building(context.branches),
    allSettled: (_, params: { branches: BranchResponse[] }) => !building(params.branches),
    hasMigrationsToMerge: ({ context }) => (context.mergePlan?.migrations.length ?? 0) > 0,
  },
  delays: {
    pollInterval: 4_000,
    pollTimeout: 2_000,
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'branchStatus',
  context: ({ input }) => ({
    project: input.project,
    toasts: input.toasts,
    branches: [],
    loadError: null,
    selectedId: null,
    detail: null,
    detailError: null,
    mergePlan: null,
    actionError: null,
  }),
  invoke: { id: 'enablement', src: 'enablement', input: ({ context }) => ({ project: context.project, toasts: context.toasts }) },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'listBranches',
        src: 'listBranches',
        input: ({ context }) => ({ ref: context.project.ref }),
        onDone: { target: 'loaded', actions: assign(({ event }) => ({ branches: event.output, loadError: null })) },
        onError: { target: 'failed', actions: assign(({ event }) => ({ loadError: messageOf(event.error, 'Failed to load branches') })) },
      },
      after: { requestTimeout: { target: 'failed', actions: assign({ loadError: TIMED_OUT }) } },
    },
    failed: {
      on: { 'branches.retry': 'loading' },
    },
    loaded: {
      type: 'parallel',
      states: {
        list: {
          initial: 'deciding',
          states: {
            deciding: {
              always: [{ guard: 'isBuilding', target: 'watching' }, { target: 'still' }],
            },
            /** No branch is being built: nothing is polled. */
            still: {
              on: {
                'branch.created': { target: 'watching', actions: assign(({ context, event }) => ({ branches: [...context.branches, event.branch] })) },
                'branches.refresh': 'watching',
              },
            },
            // The fixed beat: a read every 4 s from the previous one's start, the first one beat in.
            watching: {
              ...onBeat('pollInterval', 'settled'),
              on: {
                'branch.created': { actions: assign(({ context, event }) => ({ branches: [...context.branches, event.branch] })) },
              },
              states: {
                requesting: {
                  invoke: {
                    id: 'pollBranches',
                    src: 'listBranches',
                    input: ({ context }) => ({ ref: context.project.ref }),
                    onDone: [
                      {
                        guard: { type: 'allSettled', params: ({ event }) => ({ branches: event.output }) },
                        target: '#branchStatus.loaded.list.still',
                        actions: [
                          { type: 'raiseIfSelectedChanged', params: ({ event }) => ({ branches: event.output }) },
                          { type: 'storeBranches', params: ({ event }) => ({ branches: event.output }) },
                        ],
                      },
                      {
                        target: 'settled',
                        actions: [
                          { type: 'raiseIfSelectedChanged', params: ({ event }) => ({ branches: event.output }) },
                          { type: 'storeBranches', params: ({ event }) => ({ branches: event.output }) },
                        ],
                      },
                    ],
                    onError: 'settled',
                  },
                  after: slot('pollTimeout'),
                },
                /** Answered, failed or abandoned: the next read goes out on the beat. */
                settled: {},
              },
            },
          },
        },
        detail: {
          initial: 'closed',
          states: {
            closed: {
              on: { 'branch.open': { target: 'open', actions: assign(({ event }) => ({ selectedId: event.id })) } },
            },
            open: {
              initial: 'loading',
              entry: assign({ detail: null, detailError: null, mergePlan: null, actionError: null }),
              on: {
                'branch.close': { target: 'closed', actions: assign({ selectedId: null, detail: null }) },
                'branch.open': { target: 'open', reenter: true, actions: assign(({ event }) => ({ selectedId: event.id })) },
              },
              states: {
                loading: {
                  invoke: {
                    id: 'fetchBranchDetail',
                    src: 'fetchBranchDetail',
                    input: ({ context }) => ({ id: context.selectedId ?? '' }),
                    onDone: { target: 'shown', actions: assign(({ event }) => ({ detail: event.output, detailError: null })) },
                    onError: { target: 'failed', actions: assign(({ event }) => ({ detailError: messageOf(event.error, 'Failed to load the branch') })) },
                  },
                  after: { requestTimeout: { target: 'failed', actions: assign({ detailError: TIMED_OUT }) } },
                },
                failed: {
                  on: { 'detail.retry': 'loading' },
                },
                shown: branchActionsRegion,
              },
            },
          },
        },
      },
    },
  },
})

type Snapshot = SnapshotFrom<typeof branchStatusMachine>
export type BranchStatusActorRef = ActorRefFrom<typeof branchStatusMachine>

/** How a branch's row reads its status: the build's, and the branch project's while it comes up. */
export function branchStatusLabel(branch: BranchResponse): string {
  switch (branch.status) {
    case 'CREATING_PROJECT':
      return 'Creating project'
    case 'RUNNING_MIGRATIONS':
      return 'Running migrations'
    case 'MIGRATIONS_PASSED':
      return branch.preview_project_status === 'COMING_UP' ? 'Migrations passed, project coming up' : 'Migrations passed'
    case 'MIGRATIONS_FAILED':
      return 'Migrations failed'
    case 'FUNCTIONS_DEPLOYED':
      return 'Functions deployed'
    case 'FUNCTIONS_FAILED':
      return 'Functions failed'
  }
}

export type BranchAction = 'merge' | 'reset' | 'delete'

export type BranchDetailView =
  | { phase: 'loading'; branch: BranchResponse }
  | { phase: 'failed'; branch: BranchResponse; error: string }
  | {
      phase: 'shown'
      branch: BranchResponse
      detail: BranchDetail
      /** The action being confirmed or run, with its plan (merge) and its error. */
      action: { kind: BranchAction; running: boolean; planning: boolean; plan: MergePlan | null } | null
      error: string | null
    }

export type BranchesView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | { phase: 'loaded'; branches: BranchResponse[]; watching: boolean; selected: BranchDetailView | null }

export function selectBranchesView(snapshot: Snapshot): BranchesView {
  const { branches, loadError, selectedId, detail, detailError, mergePlan, actionError } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed')) return { phase: 'failed', error: loadError ?? 'Failed to load branches' }
  const branch = branches.find((b) => b.id === selectedId)
  let selected: BranchDetailView | null = null
  if (branch && snapshot.matches({ loaded: { detail: 'open' } })) {
    if (snapshot.matches({ loaded: { detail: { open: 'loading' } } })) selected = { phase: 'loading', branch }
    else if (snapshot.matches({ loaded: { detail: { open: 'failed' } } })) selected = { phase: 'failed', branch, error: detailError ?? 'Failed to load the branch' }
    else if (detail) {
      const at = (state: 'planningMerge' | 'confirmingMerge' | 'merging' | 'confirmingReset' | 'resetting' | 'confirmingDelete' | 'deleting') =>
        snapshot.matches({ loaded: { detail: { open: { shown: state } } } })
      let action: Extract<BranchDetailView, { phase: 'shown' }>['action'] = null
      if (at('planningMerge')) action = { kind: 'merge', running: false, planning: true, plan: null }
      else if (at('confirmingMerge') || at('merging')) action = { kind: 'merge', running: at('merging'), planning: false, plan: mergePlan }
      else if (at('confirmingReset') || at('resetting')) action = { kind: 'reset', running: at('resetting'), planning: false, plan: null }
      else if (at('confirmingDelete') || at('deleting')) action = { kind: 'delete', running: at('deleting'), planning: false, plan: null }
      selected = { phase: 'shown', branch, detail, action, error: actionError }
    }
  }
  return { phase: 'loaded', branches, watching: snapshot.matches({ loaded: { list: 'watching' } }), selected }
}
