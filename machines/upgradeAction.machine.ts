/**
 * Upgrade action: the "Upgrade Postgres" card of settings/infrastructure. Loads the project's upgrade eligibility and
 * whether the person may upgrade (projects:write); an eligible, permitted project can open a confirm dialog, pick a
 * target version and confirm. Once confirmed the buttons are disabled until the server answers; on success the
 * project is refetched (it is now UPGRADING and its upgrade page takes over); a refusal (409, 403…) is shown.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { ProjectUpgradeEligibilityResponse, ProjectUpgradeInitiateResponse } from '../src/contracts/upgrade'

interface UpgradeActionInput {
  ref: string
  organizationSlug: string
}

export interface UpgradeContext {
  eligibility: ProjectUpgradeEligibilityResponse
  canUpgrade: boolean
}

interface Context extends UpgradeActionInput {
  eligibility: ProjectUpgradeEligibilityResponse | null
  canUpgrade: boolean
  targetVersion: string | null
  error: string | null
}

type UpgradeActionEvent =
  | { type: 'upgrade.open' }
  | { type: 'upgrade.cancel' }
  | { type: 'upgrade.target'; version: string }
  | { type: 'upgrade.confirm' }
  | { type: 'upgrade.retry' }

const messageOf = (error: unknown, fallback: string) => (error instanceof Error ? error.message : fallback)

export const upgradeActionMachine = setup({
  types: {
    input: {} as UpgradeActionInput,
    context: {} as Context,
    events: {} as UpgradeActionEvent,
    children: {} as { fetchUpgradeContext: 'fetchUpgradeContext'; requestUpgrade: 'requestUpgrade' },
  },
  actors: {
    fetchUpgradeContext: fromPromise<UpgradeContext, { ref: string; organizationSlug: string }>(async () => {
      throw new Error('fetchUpgradeContext not provided')
    }),
    requestUpgrade: fromPromise<ProjectUpgradeInitiateResponse, { ref: string; targetVersion: string }>(async () => {
      throw new Error('requestUpgrade not provided')
    }),
  },
  actions: {
    /** Provided by the view: the project status actor refetches the project. */
    refreshProject: () => {},
    /**
     * Provided by the app: the upgrading page's code starts loading while the person confirms, so the page shows as
     * soon as the upgrade is answered, and its polling beat counts from then.
     */
    prepareForUpgrading: () => {},
  },
  guards: {
    mayUpgrade: ({ context }) => context.canUpgrade && context.eligibility !== null && context.eligibility.eligible,
    isTarget: ({ context }, params: { version: string }) =>
      context.eligibility?.target_upgrade_versions.some((t) => t.postgres_version === params.version) ?? false,
  },
}).createMachine({
  id: 'upgradeAction',
  context: ({ input }) => ({ ...input, eligibility: null, canUpgrade: false, targetVersion: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchUpgradeContext',
        src: 'fetchUpgradeContext',
        input: ({ context }) => ({ ref: context.ref, organizationSlug: context.organizationSlug }),
        onDone: {
          target: 'ready',
          actions: assign({
            eligibility: ({ event }) => event.output.eligibility,
            canUpgrade: ({ event }) => event.output.canUpgrade,
            error: null,
          }),
        },
        onError: { target: 'loadFailed', actions: assign({ error: ({ event }) => messageOf(event.error, 'Failed to load upgrade eligibility') }) },
      },
    },
    loadFailed: {
      on: { 'upgrade.retry': 'loading' },
    },
    ready: {
      on: {
        'upgrade.open': {
          guard: 'mayUpgrade',
          target: 'confirming',
          // The newest major is the default target.
          actions: assign({
            targetVersion: ({ context }) => context.eligibility?.target_upgrade_versions.at(-1)?.postgres_version ?? null,
            error: null,
          }),
        },
      },
    },
    confirming: {
      entry: 'prepareForUpgrading',
      on: {
        'upgrade.cancel': 'ready',
        'upgrade.target': {
          guard: { type: 'isTarget', params: ({ event }) => ({ version: event.version }) },
          actions: assign({ targetVersion: ({ event }) => event.version }),
        },
        'upgrade.confirm': 'starting',
      },
    },
    starting: {
      invoke: {
        id: 'requestUpgrade',
        src: 'requestUpgrade',
        input: ({ context }) => ({ ref: context.ref, targetVersion: context.targetVersion ?? '' }),
        onDone: 'started',
        onError: { target: 'ready', actions: assign({ error: ({ event }) => messageOf(event.error, 'Failed to start the upgrade') }) },
      },
    },
    started: {
      type: 'final',
      entry: 'refreshProject',
    },
  },
})

interface UpgradeActionView {
  phase: 'loading' | 'loadFailed' | 'ready' | 'started'
  dialogOpen: boolean
  submitting: boolean
  currentVersion: string | null
  eligible: boolean
  canUpgrade: boolean
  targets: string[]
  targetVersion: string | null
  durationHours: number | null
  error: string | null
}

export function selectUpgradeActionView(snapshot: SnapshotFrom<typeof upgradeActionMachine>): UpgradeActionView {
  const { eligibility, canUpgrade, targetVersion, error } = snapshot.context
  const submitting = snapshot.matches('starting')
  return {
    phase: snapshot.matches('loading') ? 'loading' : snapshot.matches('loadFailed') ? 'loadFailed' : snapshot.matches('started') ? 'started' : 'ready',
    dialogOpen: snapshot.matches('confirming') || submitting,
    submitting,
    currentVersion: eligibility?.current_app_version ?? null,
    eligible: eligibility?.eligible ?? false,
    canUpgrade,
    targets: eligibility?.target_upgrade_versions.map((t) => t.postgres_version) ?? [],
    targetVersion,
    durationHours: eligibility?.duration_estimate_hours ?? null,
    error,
  }
}
