/**
 * Postgres upgrade: the /v1 shapes of the Management API contract (../shared/reference/management-api.openapi.json)
 * and the dashboard's reading of them.
 *
 *   POST /v1/projects/{ref}/upgrade              UpgradeDatabaseBody -> ProjectUpgradeInitiateResponse (201)
 *   GET  /v1/projects/{ref}/upgrade/status       DatabaseUpgradeStatusResponse
 *   GET  /v1/projects/{ref}/upgrade/eligibility  ProjectUpgradeEligibilityResponse
 *   POST /dev/projects/{ref}/fail-next-upgrade   DevFailNextUpgradeBody (development control)
 *
 * `status` is a number in the contract. Mapping (both directions, the only place it is written down):
 *   0 = upgrading · 1 = upgraded · 2 = failed
 * `progress` is the contract's enum; its leading number is the index (0-based) of the step in progress, so
 * '0_requested' means step 1 (Started) is under way and '8_attached_volume_to_upgraded_instance' means all eight
 * steps are done. `error` is the contract's enum; its leading number names the step index that failed
 * (a failure of step 1, Started, is reported as '1_upgraded_instance_launch_failed': preparing the new server
 * is launching it).
 */
import * as z from 'zod/mini'

export const ReleaseChannel = z.enum(['internal', 'alpha', 'beta', 'ga', 'withdrawn', 'preview'])

/** The spec's eight steps, in order. */
export const UPGRADE_STEPS = [
  'Started',
  'LaunchedUpgradedInstance',
  'DetachedVolumeFromUpgradedInstance',
  'AttachedVolumeToOriginalInstance',
  'InitiatedDataUpgrade',
  'CompletedDataUpgrade',
  'DetachedVolumeFromOriginalInstance',
  'AttachedVolumeToUpgradedInstance',
] as const
export type UpgradeStep = (typeof UPGRADE_STEPS)[number]

export const UpgradeProgress = z.enum([
  '0_requested',
  '1_started',
  '2_launched_upgraded_instance',
  '3_detached_volume_from_upgraded_instance',
  '4_attached_volume_to_original_instance',
  '5_initiated_data_upgrade',
  '6_completed_data_upgrade',
  '7_detached_volume_from_original_instance',
  '8_attached_volume_to_upgraded_instance',
  '9_completed_upgrade',
  '10_completed_post_physical_backup',
])
export type UpgradeProgress = z.infer<typeof UpgradeProgress>

export const UpgradeError = z.enum([
  '1_upgraded_instance_launch_failed',
  '2_volume_detachchment_from_upgraded_instance_failed',
  '3_volume_attachment_to_original_instance_failed',
  '4_data_upgrade_initiation_failed',
  '5_data_upgrade_completion_failed',
  '6_volume_detachchment_from_original_instance_failed',
  '7_volume_attachment_to_upgraded_instance_failed',
  '8_upgrade_completion_failed',
  '9_post_physical_backup_failed',
])
export type UpgradeError = z.infer<typeof UpgradeError>

/** The spec's words for the upgrade status, and their numbers on the wire. */
export const UpgradeStatusWord = z.enum(['upgrading', 'upgraded', 'failed'])
export type UpgradeStatusWord = z.infer<typeof UpgradeStatusWord>
export const UPGRADE_STATUS_CODES: Record<UpgradeStatusWord, number> = { upgrading: 0, upgraded: 1, failed: 2 }
const wordOf = (code: number): UpgradeStatusWord | undefined =>
  (Object.keys(UPGRADE_STATUS_CODES) as UpgradeStatusWord[]).find((word) => UPGRADE_STATUS_CODES[word] === code)

/** Index (0-based) of the step a progress value is at: its number before the underscore. */
export function progressIndex(progress: string | null | undefined): number {
  const n = Number.parseInt(String(progress ?? '').split('_')[0] ?? '', 10)
  return Number.isNaN(n) ? 0 : n
}

export const UpgradeDatabaseBody = z.object({
  target_version: z.string().check(z.trim(), z.minLength(1, 'target_version is required')),
  release_channel: z.optional(ReleaseChannel),
})
export type UpgradeDatabaseBody = z.infer<typeof UpgradeDatabaseBody>

export const ProjectUpgradeInitiateResponse = z.object({ tracking_id: z.string() })
export type ProjectUpgradeInitiateResponse = z.infer<typeof ProjectUpgradeInitiateResponse>

/** What the server sends (status as a number). */
export const DatabaseUpgradeStatusWire = z.object({
  initiated_at: z.string(),
  latest_status_at: z.string(),
  target_version: z.number(),
  status: z.number(),
  progress: z.optional(UpgradeProgress),
  error: z.optional(UpgradeError),
})
export type DatabaseUpgradeStatusWire = z.infer<typeof DatabaseUpgradeStatusWire>
export const DatabaseUpgradeStatusWireResponse = z.object({ databaseUpgradeStatus: z.nullable(DatabaseUpgradeStatusWire) })
export type DatabaseUpgradeStatusWireResponse = z.infer<typeof DatabaseUpgradeStatusWireResponse>

/** What the dashboard reads: the number turned into the spec's word; an unknown number is a malformed answer. */
export const DatabaseUpgradeStatus = z.pipe(
  DatabaseUpgradeStatusWire,
  z.transform((wire: DatabaseUpgradeStatusWire, ctx) => {
    const status = wordOf(wire.status)
    if (status === undefined) {
      ctx.issues.push({ code: 'custom', message: `Unknown upgrade status ${wire.status}`, path: ['status'], input: wire })
      return z.NEVER
    }
    return {
      initiated_at: wire.initiated_at,
      latest_status_at: wire.latest_status_at,
      target_version: wire.target_version,
      status,
      progress: wire.progress ?? null,
      error: wire.error ?? null,
    }
  }),
)
export type DatabaseUpgradeStatus = z.output<typeof DatabaseUpgradeStatus>
export const DatabaseUpgradeStatusResponse = z.object({ databaseUpgradeStatus: z.nullable(DatabaseUpgradeStatus) })
export type DatabaseUpgradeStatusResponse = z.output<typeof DatabaseUpgradeStatusResponse>

export const PostgresMajor = z.enum(['13', '14', '15', '17', '17-oriole'])
export const ProjectUpgradeEligibilityResponse = z.object({
  eligible: z.boolean(),
  current_app_version: z.string(),
  current_app_version_release_channel: ReleaseChannel,
  latest_app_version: z.string(),
  target_upgrade_versions: z.array(
    z.object({ postgres_version: PostgresMajor, release_channel: ReleaseChannel, app_version: z.string() }),
  ),
  duration_estimate_hours: z.number(),
  legacy_auth_custom_roles: z.array(z.string()),
  objects_to_be_dropped: z.array(z.string()),
  unsupported_extensions: z.array(z.string()),
  user_defined_objects_in_internal_schemas: z.array(z.string()),
  validation_errors: z.array(z.looseObject({ type: z.string() })),
  warnings: z.array(z.looseObject({ type: z.string() })),
})
export type ProjectUpgradeEligibilityResponse = z.infer<typeof ProjectUpgradeEligibilityResponse>

/** Development control: the next upgrade of the project fails at step `at_step` (1 = Started … 8). */
export const DevFailNextUpgradeBody = z.object({ at_step: z.number().check(z.int(), z.gte(1), z.lte(UPGRADE_STEPS.length)) })

/** GET /v1/projects/{ref}/upgrade/status?tracking_id: one upgrade instead of the latest. */
export const UpgradeStatusQuery = z.object({ tracking_id: z.optional(z.string().check(z.maxLength(100))) })

/** What the development control answers: the step the next upgrade fails at. */
export const DevFailNextUpgradeResponse = z.object({ at_step: z.number().check(z.int()) })
