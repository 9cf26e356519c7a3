import * as endpoints from '../../contracts/endpoints/pause'
import { call, type CallOptions } from '../http'

// Pause and restore. Pausing goes through the Management API ({api}).
export const pauseProject = (ref: string | undefined, options?: CallOptions) => call(endpoints.pauseProject, { ref }, options)
/** Without a project there is nothing to restore: spec 8's own words, and no request. */
export const restoreProject = (ref: string | undefined, options?: CallOptions) =>
  ref ? call(endpoints.restoreProject, { ref }, options) : Promise.reject(new Error('Unable to restore: project is required'))
export const getRestoreStatus = (ref: string | undefined, options?: CallOptions) => call(endpoints.getRestoreStatus, { ref }, options)
