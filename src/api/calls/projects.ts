import * as endpoints from '../../contracts/endpoints/projects'
import { call, type CallOptions } from '../http'

// Projects.
export const listProjects = (options?: CallOptions) => call(endpoints.listProjects, {}, options)
export const getProject = (ref: string | undefined, options?: CallOptions) => call(endpoints.getProject, { ref }, options)
export const getProjectStatus = (ref: string | undefined, options?: CallOptions) => call(endpoints.getProjectStatus, { ref }, options)
export const getProjectLive = (ref: string | undefined, options?: CallOptions) => call(endpoints.getProjectLive, { ref }, options)
export const getResourceWarnings = (options?: CallOptions) => call(endpoints.getResourceWarnings, {}, options)
