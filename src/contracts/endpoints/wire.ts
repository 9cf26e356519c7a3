import { endpoint } from '../endpoint'
import {
  Backups,
  CreateMigrationBody,
  NetworkRestrictions,
  SslEnforcement,
  MigrationList,
  PgbouncerConfig,
  PoolerConfigList,
  UpdateDatabasePasswordBody,
  UpdateDatabasePasswordResponse,
  NetworkRestrictionsApplyBody,
  NetworkRestrictionsPatchBody,
  NetworkRestrictionsV2,
  PostgresConfig,
  PostgrestConfig,
  ReadOnlyStatus,
  ServiceHealthList,
  SslEnforcementBody,
  UpdatePostgresConfigBody,
  UpdatePostgrestConfigBody,
} from '../wire'

// A project's database over the wire protocol (src/contracts/wire.ts).
export const updateDatabasePassword = /* @__PURE__ */ endpoint('PATCH', 'v1', '/projects/:ref/database/password', {
  body: UpdateDatabasePasswordBody,
  response: UpdateDatabasePasswordResponse,
})
export const getPoolerConfig = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/config/database/pooler', { response: PoolerConfigList })
export const getPgbouncerConfig = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/config/database/pgbouncer', { response: PgbouncerConfig })
export const listMigrations = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/database/migrations', { response: MigrationList })
export const applyMigration = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/database/migrations', { body: CreateMigrationBody })
export const getSslEnforcement = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/ssl-enforcement', { response: SslEnforcement })
export const getNetworkRestrictions = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/network-restrictions', { response: NetworkRestrictions })
export const listBackups = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/database/backups', { response: Backups })
export const patchNetworkRestrictions = /* @__PURE__ */ endpoint('PATCH', 'v1', '/projects/:ref/network-restrictions', {
  body: NetworkRestrictionsPatchBody,
  response: NetworkRestrictionsV2,
})
export const applyNetworkRestrictions = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/network-restrictions/apply', {
  body: NetworkRestrictionsApplyBody,
  response: NetworkRestrictions,
})
export const updateSslEnforcement = /* @__PURE__ */ endpoint('PUT', 'v1', '/projects/:ref/ssl-enforcement', { body: SslEnforcementBody, response: SslEnforcement })
export const getPostgresConfig = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/config/database/postgres', { response: PostgresConfig })
export const updatePostgresConfig = /* @__PURE__ */ endpoint('PUT', 'v1', '/projects/:ref/config/database/postgres', {
  body: UpdatePostgresConfigBody,
  response: PostgresConfig,
})
export const getReadOnlyStatus = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/readonly', { response: ReadOnlyStatus })
export const getServicesHealth = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/health', { response: ServiceHealthList })
export const getPostgrestConfig = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/postgrest', { response: PostgrestConfig })
export const updatePostgrestConfig = /* @__PURE__ */ endpoint('PATCH', 'v1', '/projects/:ref/postgrest', {
  body: UpdatePostgrestConfigBody,
  response: PostgrestConfig,
})
