/**
 * Postgres upgrades on the local platform. Starting one moves the project to UPGRADING and schedules the spec's
 * eight steps at once (step k due at start + k × LIFECYCLE_UPGRADE_STEP_MS), each a persisted lifecycle
 * transition, so a restart resumes where it was. Each step applies only if the upgrade is still running and is
 * at the step before (order is kept even when several are overdue). The eighth step completes it: the project's
 * db_version becomes the target. A failure chosen by the development control stops it at that step. Either way
 * the project arrives at ACTIVE_HEALTHY again (the engine's move, with the arrival hooks).
 */
import { randomUUID } from 'node:crypto'
import { UPGRADE_STEPS, UpgradeError, UpgradeProgress, type ProjectUpgradeEligibilityResponse } from '../../../contracts/upgrade'
import type { ServerConfig } from '../../config'
import { takeDevSwitch } from '../../core/devSwitches'
import type { Queryable } from '../../db'
import { scheduleTransition, type Lifecycle, type TransitionRow } from '../../engine/lifecycle'
import { advanceUpgrade, dbVersionOf, failRunningUpgrades, failUpgrade, insertUpgrade, lockUpgrade, setDbVersion } from './store'

const UPGRADE_STEP_KIND = 'project.upgrade.step'

/** The Postgres majors this platform upgrades to, and the minor each installs. */
const RELEASES: Record<string, string> = { '13': '13.16', '14': '14.13', '15': '15.8', '17': '17.4' }
const UPGRADE_TARGETS = ['15', '17'] as const
const LATEST_MAJOR = '17'

const majorOf = (dbVersion: string) => Number.parseInt(dbVersion.split('.')[0] ?? '0', 10)
export const targetsFor = (dbVersion: string) => UPGRADE_TARGETS.filter((t) => Number(t) > majorOf(dbVersion))
const appVersion = (version: string) => `supabase-postgres-${RELEASES[version] ?? version}.1.042`

/** The error code of a failure at step n (1-based): its leading number is the failing step's index. */
function errorForStep(step: number): UpgradeError {
  const index = Math.max(step - 1, 1)
  return UpgradeError.options.find((code) => code.startsWith(`${index}_`))!
}

export function eligibilityFor(dbVersion: string): ProjectUpgradeEligibilityResponse {
  const targets = targetsFor(dbVersion)
  return {
    eligible: targets.length > 0,
    current_app_version: `supabase-postgres-${dbVersion}.1.042`,
    current_app_version_release_channel: 'ga',
    latest_app_version: appVersion(LATEST_MAJOR),
    target_upgrade_versions: targets.map((t) => ({ postgres_version: t, release_channel: 'ga', app_version: appVersion(t) })),
    duration_estimate_hours: 1,
    legacy_auth_custom_roles: [],
    objects_to_be_dropped: [],
    unsupported_extensions: [],
    user_defined_objects_in_internal_schemas: [],
    validation_errors: [],
    warnings: [],
  }
}

/**
 * Records an upgrade of a project that has just been set UPGRADING (same `now`, so initiated_at equals the
 * project's status_changed_at) and schedules its eight steps (unless told not to: a stuck upgrade). Any upgrade row still marked running belongs to
 * an upgrade cut short from outside (a development control set another status): it is closed as failed first.
 */
export async function beginUpgrade(
  tx: Queryable,
  projectId: number,
  opts: { targetVersion?: string; releaseChannel?: string; stepMs: number; now: Date; scheduleSteps?: boolean },
): Promise<string> {
  const { now, stepMs } = opts
  const fromVersion = (await dbVersionOf(tx, projectId)) ?? '15.6'
  const target = opts.targetVersion ?? targetsFor(fromVersion).at(-1) ?? String(majorOf(fromVersion))
  await failRunningUpgrades(tx, projectId, '8_upgrade_completion_failed', now)
  // The development switch 'fail the next upgrade' is used up by this upgrade, stuck or not.
  const failure = await takeDevSwitch(tx, projectId, 'fail_next_upgrade')
  const trackingId = randomUUID()
  const upgradeId = await insertUpgrade(tx, {
    projectId,
    trackingId,
    fromVersion,
    targetVersion: target,
    releaseChannel: opts.releaseChannel ?? 'ga',
    failAtStep: failure?.at_step ?? null,
    now,
  })
  if (opts.scheduleSteps === false) return trackingId
  for (let step = 1; step <= UPGRADE_STEPS.length; step++) {
    const due = new Date(now.getTime() + step * stepMs)
    await scheduleTransition(tx, projectId, UPGRADE_STEP_KIND, { upgrade_id: upgradeId, step }, due, now)
  }
  return trackingId
}

/** Lifecycle handler of one upgrade step: payload { upgrade_id, step } with step 1..8. */
async function applyUpgradeStep(lifecycle: Lifecycle, tx: Queryable, row: TransitionRow, now: Date): Promise<string> {
  const { upgrade_id: upgradeId, step } = row.payload as { upgrade_id: number; step: number }
  const upgrade = await lockUpgrade(tx, upgradeId)
  if (!upgrade || upgrade.status !== 'upgrading') return 'skipped: upgrade no longer running'
  const at = Number.parseInt(upgrade.progress.split('_')[0] ?? '', 10)
  if (at !== step - 1) return `skipped: upgrade at ${upgrade.progress}, not before step ${step}`
  // Back up as any way up arrives (its arrival hooks run); a project set to another status meanwhile stays there.
  const backOnline = () => lifecycle.move(tx, upgrade.project_id, { from: 'UPGRADING', to: 'ACTIVE_HEALTHY', run: 'arrival' }, now)

  if (upgrade.fail_at_step === step) {
    await failUpgrade(tx, upgradeId, errorForStep(step), now)
    await backOnline()
    return `applied: failed at step ${step} (${UPGRADE_STEPS[step - 1]})`
  }
  const progress = UpgradeProgress.options[step]
  const done = step === UPGRADE_STEPS.length
  await advanceUpgrade(tx, upgradeId, progress, done ? 'upgraded' : 'upgrading', now)
  if (done) {
    await setDbVersion(tx, upgrade.project_id, RELEASES[upgrade.target_version] ?? `${upgrade.target_version}.0`)
    await backOnline()
    return 'applied: upgraded'
  }
  return `applied: ${progress}`
}

/**
 * What this feature gives the lifecycle engine: the handler of each upgrade step, and an upgrade record for a
 * project put UPGRADING from outside (seed, development control). That record does not advance: a stuck upgrade,
 * as the upgrade page and its overdue prompt show. Real upgrades start at POST /v1/…/upgrade.
 */
export function registerUpgradeLifecycle(lifecycle: Lifecycle, durations: ServerConfig['lifecycle']): void {
  lifecycle.registerTransition(UPGRADE_STEP_KIND, (tx, row, now) => applyUpgradeStep(lifecycle, tx, row, now))
  lifecycle.onEntry(async (tx, projectId, status, now) => {
    if (status === 'UPGRADING') await beginUpgrade(tx, projectId, { stepMs: durations.upgradeStepMs, now, scheduleSteps: false })
  })
}
