import type { Clock, ServerConfig } from './config'
import type { Db } from './db'
import type { Engine } from './lifecycle'

/** What every route group receives. */
export interface Deps {
  db: Db
  config: ServerConfig
  clock: Clock
  engine: Engine
  /** Added delay for /platform and /v1 responses (development control). */
  latency: { ms: number }
}
