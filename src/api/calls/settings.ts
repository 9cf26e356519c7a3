import type { AddonVariantId } from '../../contracts/settings'
import * as endpoints from '../../contracts/endpoints/settings'
import * as wireEndpoints from '../../contracts/endpoints/wire'
import type { UpdatePostgrestConfigBody } from '../../contracts/wire'
import { call, type CallOptions } from '../http'

// A project's custom domain, add-ons and database connection.
export const getCustomHostname = (ref: string | undefined, options?: CallOptions) => call(endpoints.getCustomHostname, { ref }, options)
export const getProjectAddons = (ref: string | undefined, options?: CallOptions) => call(endpoints.getProjectAddons, { ref }, options)
export const enableAddon = (ref: string | undefined, variant: AddonVariantId, options?: CallOptions) =>
  call(endpoints.updateProjectAddon, { ref }, { ...options, body: { addon_type: 'pitr', addon_variant: variant } })
export const removeAddon = (ref: string | undefined, type: 'pitr', options?: CallOptions) => call(endpoints.removeProjectAddon, { ref, addon_type: type }, options)
export const getDatabaseConnection = (ref: string | undefined, options?: CallOptions) => call(endpoints.getDatabaseConnection, { ref }, options)
// What the project's REST API serves (the Management API's postgrest settings).
export const getPostgrestConfig = (ref: string, options?: CallOptions) => call(wireEndpoints.getPostgrestConfig, { ref }, options)
export const updatePostgrestConfig = (ref: string, body: UpdatePostgrestConfigBody, options?: CallOptions) =>
  call(wireEndpoints.updatePostgrestConfig, { ref }, { ...options, body })
