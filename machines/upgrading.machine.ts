/**
 * Upgrading: the screen of a project whose Postgres is being upgraded. Reads the upgrade status on a fixed beat whose
 * slot is the request's time-out (./polling.ts): at once, then every 5 s exactly, counted from the previous read's
 * start; a read gets 3 s and is then abandoned (its signal aborted), so polls never overlap nor drift. Failed,
 * malformed and timed-out answers keep polling. The eight steps follow the status's progress. Upgraded and failed are only ever entered on the
 * server's word, for the upgrade this screen is about (an older upgrade's outcome is not this one's). When upgraded,
 * the upgrade eligibility is read again; 'Return to project' asks the parent to refetch the project.
 * While running, an elapsed child (id 'elapsed') counts from the upgrade's start.
 */
import { assign, fromPromise, sendParent, setup, type SnapshotFrom } from 'xstate'
import type { DatabaseUpgradeStatus, DatabaseUpgradeStatusResponse, ProjectUpgradeEligibilityResponse } from '../src/contracts/upgrade'
import { UPGRADE_STEPS, progressIndex, type UpgradeStep } from '../src/contracts/upgrade'
import { elapsedMachine } from './elapsed.machine'
import { onBeat, slot } from './polling'
import { href } from '../src/href'

interface UpgradingInput {
  ref: string
  /** When the project became UPGRADING (server time) — the same instant the upgrade was initiated. */
  since: string
}

interface Context {
  ref: string
  since: string
  upgrade: DatabaseUpgradeStatus | null
  eligibility: ProjectUpgradeEligibilityResponse | null
}

/** Past this an upgrade is taking longer than usual and the screen offers support. */
const UPGRADE_OVERDUE_AFTER_MS = 10 * 60_000

/** An outcome counts only for an upgrade initiated no earlier than the project became UPGRADING. */
const isThisUpgrade = (context: Context, upgrade: DatabaseUpgradeStatus) => {
  const since = Date.parse(context.since)
  return Number.isNaN(since) || Date.parse(upgrade.initiated_at) >= since
}

export const upgradingMachine = setup({
  types: {
    input: {} as UpgradingInput,
    context: {} as Context,
    events: {} as { type: 'project.return' },
    children: {} as { elapsed: 'elapsed'; fetchUpgradeStatus: 'fetchUpgradeStatus'; fetchEligibility: 'fetchEligibility' },
  },
  actors: {
    fetchUpgradeStatus: fromPromise<DatabaseUpgradeStatusResponse, { ref: string }>(async () => {
      throw new Error('fetchUpgradeStatus not provided')
    }),
    fetchEligibility: fromPromise<ProjectUpgradeEligibilityResponse, { ref: string }>(async () => {
      throw new Error('fetchEligibility not provided')
    }),
    elapsed: elapsedMachine,
  },
  actions: {
    /** Provided by the parent: refetch the project (it is back online). */
    refreshProject: () => {},
  },
  delays: {
    /** Spec: upgrade status polled every 5 s. */
    pollInterval: 5_000,
    /** Our choice: a status read longer than this is abandoned; the next one still goes out on the beat. */
    requestTimeout: 3_000,
  },
  guards: {
    isUpgraded: ({ context }, params: { upgrade: DatabaseUpgradeStatus | null }) =>
      params.upgrade !== null && params.upgrade.status === 'upgraded' && isThisUpgrade(context, params.upgrade),
    isFailed: ({ context }, params: { upgrade: DatabaseUpgradeStatus | null }) =>
      params.upgrade !== null && params.upgrade.status === 'failed' && isThisUpgrade(context, params.upgrade),
  },
}).createMachine({
  id: 'upgrading',
  context: ({ input }) => ({ ref: input.ref, since: input.since, upgrade: null, eligibility: null }),
  initial: 'running',
  states: {
    running: {
      invoke: {
        id: 'elapsed',
        src: 'elapsed',
        input: ({ context }) => ({ since: context.since, overdueAfterMs: UPGRADE_OVERDUE_AFTER_MS }),
      },
      initial: 'polling',
      states: {
        // The fixed beat (./polling.ts): a read at once, then every 5 s from the previous read's start.
        polling: {
          ...onBeat('pollInterval'),
          states: {
            requesting: {
              invoke: {
                id: 'fetchUpgradeStatus',
                src: 'fetchUpgradeStatus',
                input: ({ context }) => ({ ref: context.ref }),
                onDone: [
                  {
                    guard: { type: 'isUpgraded', params: ({ event }) => ({ upgrade: event.output.databaseUpgradeStatus }) },
                    target: '#upgrading.upgraded',
                    actions: assign({ upgrade: ({ event }) => event.output.databaseUpgradeStatus }),
                  },
                  {
                    guard: { type: 'isFailed', params: ({ event }) => ({ upgrade: event.output.databaseUpgradeStatus }) },
                    target: '#upgrading.failed',
                    actions: assign({ upgrade: ({ event }) => event.output.databaseUpgradeStatus }),
                  },
                  {
                    target: 'settled',
                    // A stale outcome of an earlier upgrade is not shown as this one's progress.
                    actions: assign({
                      upgrade: ({ context, event }) => {
                        const upgrade = event.output.databaseUpgradeStatus
                        return upgrade !== null && upgrade.status === 'upgrading' ? upgrade : context.upgrade
                      },
                    }),
                  },
                ],
                onError: 'settled',
              },
              after: slot('requestTimeout'),
            },
            /** Answered, failed or abandoned: the next read goes out on the beat. */
            settled: {},
          },
        },
      },
    },
    upgraded: {
      // The eligibility changes with the version: read it again (spec: invalidated when upgraded).
      invoke: {
        id: 'fetchEligibility',
        src: 'fetchEligibility',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { actions: assign({ eligibility: ({ event }) => event.output }) },
        onError: {},
      },
      on: { 'project.return': { actions: 'refreshProject' } },
    },
    failed: {
      on: { 'project.return': { actions: 'refreshProject' } },
    },
  },
})

/** The spec's labels, from 'Prepare new server' to 'Optimize database'. */
const UPGRADE_STEP_LABELS: Record<UpgradeStep, string> = {
  Started: 'Prepare new server',
  LaunchedUpgradedInstance: 'Launch upgraded server',
  DetachedVolumeFromUpgradedInstance: 'Detach storage from upgraded server',
  AttachedVolumeToOriginalInstance: 'Attach storage to current server',
  InitiatedDataUpgrade: 'Start data upgrade',
  CompletedDataUpgrade: 'Complete data upgrade',
  DetachedVolumeFromOriginalInstance: 'Detach storage from current server',
  AttachedVolumeToUpgradedInstance: 'Optimize database',
}

export type StepState = 'pending' | 'inProgress' | 'completed'

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const pad = (n: number) => String(n).padStart(2, '0')
/** DD MMM YYYY HH:mm:ss in UTC (spec's upgrade time format). */
export function formatUtc(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return `${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
}
/** The same instant in the browser's time zone, for the tooltip. */
function formatLocal(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return `${pad(d.getDate())} ${MONTHS[d.getMonth()]} ${d.getFullYear()} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} (local time)`
}

type UpgradingView =
  | {
      phase: 'running'
      steps: Array<{ key: UpgradeStep; label: string; state: StepState }>
      targetVersion: number | null
      startedUtc: string | null
      startedLocal: string | null
      supportHref: string
    }
  | { phase: 'upgraded'; targetVersion: number; installedVersion: string | null }
  | { phase: 'failed'; targetVersion: number; startedUtc: string; startedLocal: string; error: string | null; supportHref: string }

function supportHrefFor(ref: string, upgrade: DatabaseUpgradeStatus | null, subject: string): string {
  const lines = [
    `Upgrade information for project ${ref}:`,
    `• Initiated at: ${upgrade ? `${formatUtc(upgrade.initiated_at)} (UTC)` : 'unknown'}`,
    `• Target Postgres version: ${upgrade?.target_version ?? 'unknown'}`,
    `• Error: ${upgrade?.error ?? 'none reported'}`,
  ]
  return href.support({ category: 'Database_unresponsive', ref, subject, message: lines.join('\n') })
}

export function selectUpgradingView(snapshot: SnapshotFrom<typeof upgradingMachine>): UpgradingView {
  const { upgrade, ref, eligibility } = snapshot.context
  if (snapshot.matches('upgraded') && upgrade) {
    return {
      phase: 'upgraded',
      targetVersion: upgrade.target_version,
      installedVersion: eligibility?.current_app_version ?? null,
    }
  }
  if (snapshot.matches('failed') && upgrade) {
    return {
      phase: 'failed',
      targetVersion: upgrade.target_version,
      startedUtc: formatUtc(upgrade.initiated_at),
      startedLocal: formatLocal(upgrade.initiated_at),
      error: upgrade.error,
      supportHref: supportHrefFor(ref, upgrade, 'Upgrade failed for project'),
    }
  }
  const current = progressIndex(upgrade?.progress)
  return {
    phase: 'running',
    steps: UPGRADE_STEPS.map((key, index) => ({
      key,
      label: UPGRADE_STEP_LABELS[key],
      state: index < current ? 'completed' : index === current ? 'inProgress' : 'pending',
    })),
    targetVersion: upgrade?.target_version ?? null,
    startedUtc: upgrade ? formatUtc(upgrade.initiated_at) : null,
    startedLocal: upgrade ? formatLocal(upgrade.initiated_at) : null,
    supportHref: supportHrefFor(ref, upgrade, 'Upgrade is taking longer than expected'),
  }
}

/** The upgrading flow as the project status machine's child: 'Return to project' asks it to refetch. */
export const upgradingChildMachine = upgradingMachine.provide({
  actions: { refreshProject: sendParent({ type: 'project.refresh' }) },
})
