/**
 * 'Enable database branching' (spec 4 'Branching modal', 5, 8, 9): a modal that reads, each in its own region, the
 * project's repository connection with the repository list, the Postgres version, the organization's plan and the
 * PITR add-on; checks the git branch name on blur and again on every change (longer than 1 character, then the
 * server's branch check), shows the dry run's plan of the checked branch, and creates the preview branch.
 * Invariants: the valid flag is a state (`branch.found`) that every change leaves and every opening resets; Enable
 * (`branching.enable`) is accepted only when the repositories and the Postgres version have loaded, the plan is known
 * and not free, the major version is 15 or higher and the check passed; what was typed survives a failed create;
 * every request unanswered after requestTimeout is abandoned (its signal aborted) and reported like a failure; a
 * failed add-ons read leaves PITR unknown and the PITR notice shown.
 */
import { and, assign, fromPromise, not, sendParent, sendTo, setup, stateIn, type ActorRefFrom, type SnapshotFrom } from 'xstate'
import type { BranchingPlan, BranchResponse } from '../src/contracts/branching'
import type { toastMachine, ToastTone } from './toast.machine'
import { href } from '../src/href'
import { branchCheckRegion } from './branchCheckRegion'
import { PROJECT_DATABASE_TIMEOUT_MS } from './projectDatabaseTimeout'

// ---------------------------------------------------------------------------------------------------------------
// What the modal reads (shapes the live actors map the platform's answers to)

export interface BranchingProject {
  ref: string
  organizationSlug: string
  organizationId: number
  region: string
}

/** The project's connection to a repository (`owner/repo`), or null when it has none. */
export interface ConnectedRepository {
  connectionId: number
  repositoryId: number
  name: string
}

export interface RepositoryFacts {
  connection: ConnectedRepository | null
  /** The repositories of the organization's installations (names `owner/repo`). */
  repositories: Array<{ id: number; name: string }>
}

export type ToastsRef = ActorRefFrom<typeof toastMachine>

// ---------------------------------------------------------------------------------------------------------------
// The spec's texts

export const FREE_PLAN_NOTICE = 'Database branching is only available on the Pro plan and above'
export const POSTGRES_VERSION_NOTICE = 'Your project needs to be on Postgres 15 to enable branching'
export const PITR_NOTICE = 'We strongly encourage enabling Point in Time Recovery (PITR)'
export const REPOSITORIES_FAILED = 'Failed to retrieve repositories'
export const POSTGRES_VERSION_FAILED = 'Failed to retrieve Postgres version'
export const BRANCH_CREATED = 'Successfully created new branch'
export const branchCreateFailed = (message: string) => `Failed to create branch: ${message}`
export const branchTooShort = (repository: string) => `Please enter a branch name from ${repository}`
export const branchNotFound = (repository: string) => `Unable to find branch from ${repository}`
export const branchCheckFailed = (message: string) => `Failed to check Github branch: ${message}`
/** Spec 9: preview branch cost. */
export const PREVIEW_BRANCH_COST = 'Each preview branch costs $0.32 per day (about $10 per month). Branching is in early access; pricing is subject to change.'
/** Spec 9: branching needs Postgres 15 or higher. */
export const MIN_POSTGRES_MAJOR = 15
export const FREE_PLAN_ID = 'free'


/** The major version of a Postgres version text ('15.6' → 15, '14.1' → 14); NaN when it has none. */
export function postgresMajor(version: string): number {
  const match = /^(\d+)/.exec(version.trim())
  return match ? Number(match[1]) : Number.NaN
}

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback = 'Unknown error') => (error instanceof Error && error.message ? error.message : fallback)
const statusOf = (error: unknown) => (typeof error === 'object' && error !== null && 'status' in error ? (error as { status: unknown }).status : null)

interface Context {
  project: BranchingProject
  toasts: ToastsRef
  connection: ConnectedRepository | null
  repositories: Array<{ id: number; name: string }>
  postgresVersion: string | null
  planId: string | null
  pitrEnabled: boolean | null
  gitBranch: string
  checkError: string | null
  dryRun: BranchingPlan | null
  dryRunError: string | null
  subscriptionError: string | null
}

type BranchingEnablementEvent =
  | { type: 'modal.open' }
  | { type: 'modal.close' }
  | { type: 'branch.change'; name: string }
  | { type: 'branch.blur' }
  | { type: 'branching.enable' }

export const branchingEnablementMachine = setup({
  types: {
    input: {} as { project: BranchingProject; toasts: ToastsRef },
    context: {} as Context,
    events: {} as BranchingEnablementEvent,
    children: {} as {
      fetchRepository: 'fetchRepository'
      fetchPostgresVersion: 'fetchPostgresVersion'
      fetchSubscription: 'fetchSubscription'
      fetchAddons: 'fetchAddons'
      checkBranch: 'checkBranch'
      fetchDryRun: 'fetchDryRun'
      createBranch: 'createBranch'
    },
  },
  actors: {
    fetchRepository: fromPromise<RepositoryFacts, { project: BranchingProject }>(async () => {
      throw new Error('fetchRepository not provided')
    }),
    fetchPostgresVersion: fromPromise<string, { ref: string }>(async () => {
      throw new Error('fetchPostgresVersion not provided')
    }),
    fetchSubscription: fromPromise<string, { slug: string }>(async () => {
      throw new Error('fetchSubscription not provided')
    }),
    /** Whether the PITR add-on is on. */
    fetchAddons: fromPromise<boolean, { ref: string }>(async () => {
      throw new Error('fetchAddons not provided')
    }),
    checkBranch: fromPromise<void, { connectionId: number; name: string }>(async () => {
      throw new Error('checkBranch not provided')
    }),
    fetchDryRun: fromPromise<BranchingPlan, { ref: string; gitBranch: string }>(async () => {
      throw new Error('fetchDryRun not provided')
    }),
    createBranch: fromPromise<BranchResponse, { ref: string; gitBranch: string; region: string }>(async () => {
      throw new Error('createBranch not provided')
    }),
  },
  actions: {
    resetForm: assign({ gitBranch: '', checkError: null, dryRun: null, dryRunError: null }),
    storeName: assign((_, params: { name: string }) => ({ gitBranch: params.name, checkError: null, dryRun: null, dryRunError: null })),
    storeCheckError: assign((_, params: { error: string }) => ({ checkError: params.error })),
    storeDryRun: assign((_, params: { plan: BranchingPlan }) => ({ dryRun: params.plan })),
    storeDryRunError: assign((_, params: { error: string }) => ({ dryRunError: params.error })),
    storeSubscriptionError: assign((_, params: { error: string }) => ({ subscriptionError: params.error })),
    showToast: sendTo(
      ({ context }) => context.toasts,
      (_, params: { tone: ToastTone; message: string }) => ({ type: 'toast.show' as const, tone: params.tone, message: params.message }),
    ),
    /** The page that opened the modal lists the new branch. */
    tellBranchCreated: sendParent((_, params: { branch: BranchResponse }) => ({ type: 'branch.created' as const, branch: params.branch })),
  },
  guards: {
    isTooShort: ({ context }) => context.gitBranch.trim().length <= 1,
    mayEditBranch: and([({ context }) => context.connection !== null, not(stateIn('#branchingEnablement.open.submission.creating'))]),
    isNotFound: (_, params: { error: unknown }) => statusOf(params.error) === 404,
    /** Spec 4: the repositories and the Postgres version loaded, a plan that is not free, Postgres 15+, the check passed. */
    canEnable: and([
      stateIn('#branchingEnablement.open.repository.loaded'),
      stateIn('#branchingEnablement.open.version.loaded'),
      stateIn('#branchingEnablement.open.subscription.loaded'),
      stateIn('#branchingEnablement.open.branch.found'),
      ({ context }) => context.planId !== FREE_PLAN_ID && context.postgresVersion !== null && postgresMajor(context.postgresVersion) >= MIN_POSTGRES_MAJOR,
    ]),
  },
  delays: {
    requestTimeout: 10_000,
    projectDatabaseTimeout: PROJECT_DATABASE_TIMEOUT_MS,
  },
}).createMachine({
  id: 'branchingEnablement',
  context: ({ input }) => ({
    project: input.project,
    toasts: input.toasts,
    connection: null,
    repositories: [],
    postgresVersion: null,
    planId: null,
    pitrEnabled: null,
    gitBranch: '',
    checkError: null,
    dryRun: null,
    dryRunError: null,
    subscriptionError: null,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: { 'modal.open': 'open' },
    },
    open: {
      type: 'parallel',
      // Opening resets the form and the valid flag; every fact is read again.
      entry: 'resetForm',
      states: {
        repository: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'fetchRepository',
                src: 'fetchRepository',
                input: ({ context }) => ({ project: context.project }),
                onDone: { target: 'loaded', actions: assign(({ event }) => ({ connection: event.output.connection, repositories: event.output.repositories })) },
                onError: 'failed',
              },
              after: { requestTimeout: 'failed' },
            },
            loaded: {},
            failed: { entry: assign({ connection: null, repositories: [] }) },
          },
        },
        version: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'fetchPostgresVersion',
                src: 'fetchPostgresVersion',
                input: ({ context }) => ({ ref: context.project.ref }),
                onDone: { target: 'loaded', actions: assign({ postgresVersion: ({ event }) => event.output }) },
                onError: 'failed',
              },
              after: { requestTimeout: 'failed' },
            },
            loaded: {},
            failed: { entry: assign({ postgresVersion: null }) },
          },
        },
        subscription: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'fetchSubscription',
                src: 'fetchSubscription',
                input: ({ context }) => ({ slug: context.project.organizationSlug }),
                onDone: { target: 'loaded', actions: assign({ planId: ({ event }) => event.output, subscriptionError: null }) },
                onError: { target: 'failed', actions: { type: 'storeSubscriptionError', params: ({ event }) => ({ error: messageOf(event.error) }) } },
              },
              after: { requestTimeout: { target: 'failed', actions: { type: 'storeSubscriptionError', params: { error: TIMED_OUT } } } },
            },
            loaded: {},
            failed: { entry: assign({ planId: null }) },
          },
        },
        pitr: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'fetchAddons',
                src: 'fetchAddons',
                input: ({ context }) => ({ ref: context.project.ref }),
                onDone: { target: 'known', actions: assign({ pitrEnabled: ({ event }) => event.output }) },
                onError: 'unknown',
              },
              after: { requestTimeout: 'unknown' },
            },
            known: {},
            /** The add-ons could not be read: the notice is shown all the same. */
            unknown: { entry: assign({ pitrEnabled: null }) },
          },
        },
        branch: branchCheckRegion,
        submission: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'branching.enable': { guard: 'canEnable', target: 'creating' },
                'modal.close': '#branchingEnablement.closed',
              },
            },
            creating: {
              invoke: {
                id: 'createBranch',
                src: 'createBranch',
                input: ({ context }) => ({ ref: context.project.ref, gitBranch: context.gitBranch.trim(), region: context.project.region }),
                onDone: {
                  target: '#branchingEnablement.closed',
                  actions: [
                    { type: 'showToast', params: { tone: 'success', message: BRANCH_CREATED } },
                    { type: 'tellBranchCreated', params: ({ event }) => ({ branch: event.output }) },
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: { type: 'showToast', params: ({ event }) => ({ tone: 'error', message: branchCreateFailed(messageOf(event.error)) }) },
                },
              },
              after: {
                requestTimeout: { target: 'idle', actions: { type: 'showToast', params: { tone: 'error', message: branchCreateFailed(TIMED_OUT) } } },
              },
            },
          },
        },
      },
    },
  },
})

type Snapshot = SnapshotFrom<typeof branchingEnablementMachine>

export type RepositoryView =
  | { phase: 'loading' }
  | { phase: 'failed' }
  | { phase: 'none'; integrationsHref: string }
  | { phase: 'connected'; name: string }

export interface BranchingModalView {
  open: boolean
  repository: RepositoryView
  postgres: { phase: 'loading' | 'loaded' | 'failed'; version: string | null }
  plan: { phase: 'loading' | 'loaded' | 'failed'; id: string | null; error: string | null }
  notices: {
    freePlan: { upgradeHref: string } | null
    postgresVersion: boolean
    pitr: { href: string } | null
    repositoriesFailed: boolean
    versionFailed: boolean
  }
  branch: {
    value: string
    editable: boolean
    checking: boolean
    /** The check passed. */
    valid: boolean
    error: string | null
  }
  dryRun: { phase: 'loading' } | { phase: 'loaded'; plan: BranchingPlan } | { phase: 'failed'; error: string } | null
  creating: boolean
}

function phaseOf(snapshot: Snapshot, region: 'repository' | 'version' | 'subscription') {
  // Each of these regions' states is atomic: the region's value names the one it is in.
  const state = typeof snapshot.value === 'object' ? snapshot.value.open[region] : null
  return state === 'loaded' ? 'loaded' : state === 'failed' ? 'failed' : 'loading'
}

export function selectBranchingModalView(snapshot: Snapshot): BranchingModalView {
  const { project, connection, postgresVersion, planId, pitrEnabled, gitBranch, checkError, dryRun, dryRunError, subscriptionError } = snapshot.context
  const open = snapshot.matches('open')
  const repositoryPhase = phaseOf(snapshot, 'repository')
  const versionPhase = phaseOf(snapshot, 'version')
  const planPhase = phaseOf(snapshot, 'subscription')
  const repositoryName = connection?.name ?? ''
  const repository: RepositoryView =
    repositoryPhase === 'loading'
      ? { phase: 'loading' }
      : repositoryPhase === 'failed'
        ? { phase: 'failed' }
        : connection === null
          ? { phase: 'none', integrationsHref: href.org(project.organizationSlug, 'integrations') }
          : { phase: 'connected', name: repositoryName }
  const inBranch = (state: 'tooShort' | 'notFound' | 'checkFailed' | 'checking' | 'found') => snapshot.matches({ open: { branch: state } })
  const creating = snapshot.matches({ open: { submission: 'creating' } })
  let error: string | null = null
  if (inBranch('tooShort')) error = branchTooShort(repositoryName)
  else if (inBranch('notFound')) error = branchNotFound(repositoryName)
  else if (inBranch('checkFailed')) error = branchCheckFailed(checkError ?? 'Unknown error')
  let dry: BranchingModalView['dryRun'] = null
  if (snapshot.matches({ open: { branch: { found: 'planning' } } })) dry = { phase: 'loading' }
  else if (snapshot.matches({ open: { branch: { found: 'planned' } } }) && dryRun) dry = { phase: 'loaded', plan: dryRun }
  else if (snapshot.matches({ open: { branch: { found: 'planFailed' } } })) dry = { phase: 'failed', error: dryRunError ?? 'Unknown error' }
  return {
    open,
    repository,
    postgres: { phase: versionPhase, version: postgresVersion },
    plan: { phase: planPhase, id: planId, error: planPhase === 'failed' ? subscriptionError : null },
    notices: {
      freePlan: planPhase === 'loaded' && planId === FREE_PLAN_ID ? { upgradeHref: href.orgPlans(project.organizationSlug) } : null,
      postgresVersion: versionPhase === 'loaded' && postgresVersion !== null && !(postgresMajor(postgresVersion) >= MIN_POSTGRES_MAJOR),
      // Unknown (a failed or unanswered add-ons read) counts as not enabled.
      pitr: open && pitrEnabled !== true && !snapshot.matches({ open: { pitr: 'loading' } }) ? { href: href.pitr(project.ref) } : null,
      repositoriesFailed: repositoryPhase === 'failed',
      versionFailed: versionPhase === 'failed',
    },
    branch: {
      value: gitBranch,
      editable: repositoryPhase === 'loaded' && connection !== null && !creating,
      checking: inBranch('checking'),
      valid: inBranch('found'),
      error,
    },
    dryRun: dry,
    creating,
  }
}
