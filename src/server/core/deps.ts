import type { Clock, ServerConfig } from '../config'
import type { Db } from '../db'
import type { Lifecycle } from '../engine/lifecycle'
import type { ProjectDatabases } from '../projectdb/types'
import type { ObjectBytes } from './objectBytes'
import type { OwnUrl } from './http'

/** What every feature receives when the app builds its routes and registers its transitions. */
export interface Deps {
  db: Db
  config: ServerConfig
  clock: Clock
  /** The lifecycle registry of this app instance: features register their transitions and status hooks on it. */
  lifecycle: Lifecycle
  /** Added delay for /platform and /v1 responses (development control). */
  latency: { ms: number }
  /** This server's origin for the URLs it builds (PUBLIC_URL or the listening address; never the Host header). */
  ownUrl: OwnUrl
  /** Each project's own Postgres database (src/server/projectdb). */
  projectDbs: ProjectDatabases
  /** Where stored objects keep their bytes (disk or an S3-compatible store). */
  objects: ObjectBytes
}
