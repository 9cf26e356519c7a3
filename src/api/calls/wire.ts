import * as endpoints from '../../contracts/endpoints/wire'
import { call, type CallOptions } from '../http'

// A project's database over the wire: its password, and where the pooler's connection strings point.
export const resetDatabasePassword = (ref: string | undefined, password: string, options?: CallOptions) =>
  call(endpoints.updateDatabasePassword, { ref }, { ...options, body: { password } })
export const getPoolerConfig = (ref: string | undefined, options?: CallOptions) => call(endpoints.getPoolerConfig, { ref }, options)
