/**
 * A project's database over the wire protocol, in the Management API contract's shapes:
 *   PATCH /v1/projects/{ref}/database/password       V1UpdatePasswordBody → V1UpdatePasswordResponse
 *   GET   /v1/projects/{ref}/config/database/pooler   → SupavisorConfigResponse[] (the CLI reads connection_string)
 *   GET   /v1/projects/{ref}/config/database/pgbouncer → V1PgbouncerConfigResponse
 */
import * as z from 'zod/mini'

export const UpdateDatabasePasswordBody = z.object({
  password: z.string().check(z.minLength(4, 'password must be at least 4 characters'), z.maxLength(1024, 'password must be at most 1024 characters')),
})
export type UpdateDatabasePasswordBody = z.infer<typeof UpdateDatabasePasswordBody>

export const UpdateDatabasePasswordResponse = z.object({ message: z.string() })
export type UpdateDatabasePasswordResponse = z.infer<typeof UpdateDatabasePasswordResponse>

export const PoolerConfig = z.object({
  identifier: z.string(),
  database_type: z.enum(['PRIMARY', 'READ_REPLICA']),
  is_using_scram_auth: z.boolean(),
  db_user: z.string(),
  db_host: z.string(),
  db_port: z.number().check(z.int()),
  db_name: z.string(),
  connection_string: z.string(),
  connectionString: z.string(),
  default_pool_size: z.nullable(z.number().check(z.int())),
  max_client_conn: z.nullable(z.number().check(z.int())),
  pool_mode: z.enum(['transaction', 'session']),
})
export type PoolerConfig = z.infer<typeof PoolerConfig>
export const PoolerConfigList = z.array(PoolerConfig)
export type PoolerConfigList = z.infer<typeof PoolerConfigList>

export const PgbouncerConfig = z.object({
  default_pool_size: z.optional(z.number().check(z.int())),
  ignore_startup_parameters: z.optional(z.string()),
  max_client_conn: z.optional(z.number().check(z.int())),
  pool_mode: z.optional(z.enum(['transaction', 'session', 'statement'])),
  connection_string: z.optional(z.string()),
  server_idle_timeout: z.optional(z.number().check(z.int())),
  server_lifetime: z.optional(z.number().check(z.int())),
  query_wait_timeout: z.optional(z.number().check(z.int())),
  reserve_pool_size: z.optional(z.number().check(z.int())),
})
export type PgbouncerConfig = z.infer<typeof PgbouncerConfig>

/** POST /v1/projects/{ref}/database/migrations: applied as the project owner and recorded as the CLI records one. */
export const CreateMigrationBody = z.object({
  query: z.string().check(z.minLength(1, 'query is required')),
  name: z.optional(z.string().check(z.maxLength(256, 'name must be at most 256 characters'))),
  rollback: z.optional(z.string()),
})
export type CreateMigrationBody = z.infer<typeof CreateMigrationBody>

/** GET /v1/projects/{ref}/database/migrations: supabase_migrations.schema_migrations, oldest first. */
export const MigrationList = z.array(z.object({ version: z.string().check(z.minLength(1)), name: z.optional(z.string()) }))
export type MigrationList = z.infer<typeof MigrationList>

/** GET /v1/projects/{ref}/ssl-enforcement: what the port enforces (it has no TLS: nothing). */
export const SslEnforcement = z.object({ currentConfig: z.object({ database: z.boolean() }), appliedSuccessfully: z.boolean() })
export type SslEnforcement = z.infer<typeof SslEnforcement>

const Cidrs = z.object({ dbAllowedCidrs: z.optional(z.array(z.string())), dbAllowedCidrsV6: z.optional(z.array(z.string())) })
/** GET /v1/projects/{ref}/network-restrictions: the addresses the port accepts. */
export const NetworkRestrictions = z.object({
  entitlement: z.enum(['disallowed', 'allowed']),
  config: Cidrs,
  old_config: z.optional(Cidrs),
  status: z.enum(['stored', 'applied']),
  updated_at: z.optional(z.string()),
  applied_at: z.optional(z.string()),
})
export type NetworkRestrictions = z.infer<typeof NetworkRestrictions>

/** GET /v1/projects/{ref}/database/backups: the platform takes no scheduled backups and has no PITR. */
export const Backups = z.object({
  region: z.string(),
  walg_enabled: z.boolean(),
  pitr_enabled: z.boolean(),
  backups: z.array(
    z.object({
      id: z.number().check(z.int()),
      is_physical_backup: z.boolean(),
      status: z.enum(['COMPLETED', 'FAILED', 'PENDING', 'REMOVED', 'ARCHIVED', 'CANCELLED']),
      inserted_at: z.string(),
    }),
  ),
  physical_backup_data: z.object({
    earliest_physical_backup_date_unix: z.optional(z.number().check(z.int())),
    latest_physical_backup_date_unix: z.optional(z.number().check(z.int())),
  }),
})
export type Backups = z.infer<typeof Backups>

/** PATCH /v1/projects/{ref}/network-restrictions: CIDRs to add to and remove from the allowed lists. */
export const NetworkRestrictionsPatchBody = z.object({ add: z.optional(Cidrs), remove: z.optional(Cidrs) })
export type NetworkRestrictionsPatchBody = z.infer<typeof NetworkRestrictionsPatchBody>

/** POST /v1/projects/{ref}/network-restrictions/apply: the allowed lists, replaced whole. */
export const NetworkRestrictionsApplyBody = Cidrs
export type NetworkRestrictionsApplyBody = z.infer<typeof NetworkRestrictionsApplyBody>

const CidrsV2 = z.object({ dbAllowedCidrs: z.optional(z.array(z.object({ address: z.string(), type: z.enum(['v4', 'v6']) }))) })
/** PATCH's answer (NetworkRestrictionsV2Response): one list, each address tagged with its family. */
export const NetworkRestrictionsV2 = z.object({
  entitlement: z.enum(['disallowed', 'allowed']),
  config: CidrsV2,
  old_config: z.optional(CidrsV2),
  updated_at: z.optional(z.string()),
  applied_at: z.optional(z.string()),
  status: z.enum(['stored', 'applied']),
})
export type NetworkRestrictionsV2 = z.infer<typeof NetworkRestrictionsV2>

/** PUT /v1/projects/{ref}/ssl-enforcement. */
export const SslEnforcementBody = z.object({ requestedConfig: z.object({ database: z.boolean() }) })
export type SslEnforcementBody = z.infer<typeof SslEnforcementBody>

const Duration = z.string().check(z.regex(/^(-?[0-9]+(?:\.[0-9]+)?)(us|ms|s|min|h|d)?$/, 'must be a number with an optional unit (us, ms, s, min, h, d)'))
const PostgresConfigFields = {
  effective_cache_size: z.optional(z.string()),
  logical_decoding_work_mem: z.optional(z.string()),
  maintenance_work_mem: z.optional(z.string()),
  track_activity_query_size: z.optional(z.string()),
  max_connections: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(262143))),
  max_locks_per_transaction: z.optional(z.number().check(z.int(), z.minimum(10), z.maximum(2147483640))),
  max_parallel_maintenance_workers: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(1024))),
  max_parallel_workers: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(1024))),
  max_parallel_workers_per_gather: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(1024))),
  max_replication_slots: z.optional(z.number().check(z.int())),
  max_slot_wal_keep_size: z.optional(z.string()),
  max_standby_archive_delay: z.optional(z.string()),
  max_standby_streaming_delay: z.optional(z.string()),
  max_wal_size: z.optional(z.string()),
  max_wal_senders: z.optional(z.number().check(z.int())),
  max_worker_processes: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(262143))),
  session_replication_role: z.optional(z.enum(['origin', 'replica', 'local'])),
  shared_buffers: z.optional(z.string()),
  statement_timeout: z.optional(Duration),
  track_commit_timestamp: z.optional(z.boolean()),
  wal_keep_size: z.optional(z.string()),
  wal_sender_timeout: z.optional(Duration),
  work_mem: z.optional(z.string()),
  checkpoint_timeout: z.optional(Duration),
  hot_standby_feedback: z.optional(z.boolean()),
}
/** GET /v1/projects/{ref}/config/database/postgres: the settings the project's engine runs with. */
export const PostgresConfig = z.object(PostgresConfigFields)
export type PostgresConfig = z.infer<typeof PostgresConfig>
/** PUT …/config/database/postgres (unknown fields refused, as the contract's additionalProperties: false). */
export const UpdatePostgresConfigBody = z.strictObject({ ...PostgresConfigFields, restart_database: z.optional(z.boolean()) })
export type UpdatePostgresConfigBody = z.infer<typeof UpdatePostgresConfigBody>

/** GET /v1/projects/{ref}/readonly: the platform's read-only mode of the project. */
export const ReadOnlyStatus = z.object({ enabled: z.boolean(), override_enabled: z.boolean(), override_active_until: z.string() })
export type ReadOnlyStatus = z.infer<typeof ReadOnlyStatus>

export const HEALTH_SERVICES = ['auth', 'db', 'db_postgres_user', 'pooler', 'realtime', 'rest', 'storage', 'pg_bouncer'] as const
export type HealthService = (typeof HEALTH_SERVICES)[number]
/** GET /v1/projects/{ref}/health?services=…: one entry per service asked for. */
export const ServiceHealth = z.object({
  name: z.enum(HEALTH_SERVICES),
  healthy: z.boolean(),
  status: z.enum(['COMING_UP', 'ACTIVE_HEALTHY', 'UNHEALTHY']),
  info: z.optional(
    z.union([
      z.object({ name: z.enum(['GoTrue']), version: z.string(), description: z.string() }),
      z.object({ healthy: z.boolean(), db_connected: z.boolean(), replication_connected: z.boolean(), connected_cluster: z.number().check(z.int()) }),
      z.object({ db_schema: z.string() }),
    ]),
  ),
  error: z.optional(z.string()),
})
export type ServiceHealth = z.infer<typeof ServiceHealth>
export const ServiceHealthList = z.array(ServiceHealth)
export type ServiceHealthList = z.infer<typeof ServiceHealthList>

/** GET/PATCH /v1/projects/{ref}/postgrest: the schemas REST serves and the most rows a read answers. */
export const PostgrestConfig = z.object({
  db_schema: z.string(),
  max_rows: z.number().check(z.int()),
  db_extra_search_path: z.string(),
  db_pool: z.nullable(z.number().check(z.int())),
})
export type PostgrestConfig = z.infer<typeof PostgrestConfig>
export const UpdatePostgrestConfigBody = z.object({
  db_extra_search_path: z.optional(z.string()),
  db_schema: z.optional(z.string().check(z.maxLength(1000))),
  max_rows: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(1000000))),
  db_pool: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(1000))),
})
export type UpdatePostgrestConfigBody = z.infer<typeof UpdatePostgrestConfigBody>
