/** The pooler settings of the fixture project, as `GET /v1/projects/{ref}/config/database/pooler` answers them. */
import type { PoolerConfig } from '../src/contracts/wire'
import { REF } from './fixtures'

export const POOLER_URI = `postgresql://postgres.${REF}:[YOUR-PASSWORD]@127.0.0.1:54322/postgres?sslmode=disable`

export const POOLER: PoolerConfig = {
  identifier: REF,
  database_type: 'PRIMARY',
  is_using_scram_auth: true,
  db_user: `postgres.${REF}`,
  db_host: '127.0.0.1',
  db_port: 54322,
  db_name: 'postgres',
  connection_string: POOLER_URI,
  connectionString: POOLER_URI,
  default_pool_size: null,
  max_client_conn: 200,
  pool_mode: 'transaction',
}
