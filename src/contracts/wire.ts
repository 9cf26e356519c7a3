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
