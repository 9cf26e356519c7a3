/**
 * Where the platform's Postgres port listens, for the features that show it (the wire feature's listener sets it):
 * the port each listener took, by its project databases.
 */
import type { Deps } from './deps'
import { baseUrl } from './http'

export const wirePorts = new WeakMap<object, number>()

/**
 * How clients reach a project's database through the Postgres port, when it listens: the platform's host name, the
 * port the listener took, the pooler's user name (`postgres.<ref>`).
 */
export function wireConnectionOf(deps: Pick<Deps, 'ownUrl' | 'projectDbs'>, ref: string) {
  const port = wirePorts.get(deps.projectDbs)
  if (port === undefined) return undefined
  const host = new URL(baseUrl(deps.ownUrl)).hostname
  const user = `postgres.${ref}`
  return { host, port, user, database: 'postgres', connection_string: `postgresql://${user}:[YOUR-PASSWORD]@${host}:${port}/postgres?sslmode=disable` }
}
