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
