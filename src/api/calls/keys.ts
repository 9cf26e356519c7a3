import type { JwtSecretUpdateBody } from '../../contracts/keys'
import * as endpoints from '../../contracts/endpoints/keys'
import { call, type CallOptions } from '../http'

// API keys and JWT secret rotation.
export const getProjectSettings = (ref: string | undefined, options?: CallOptions) => call(endpoints.getProjectSettings, { ref }, options)
export const getProjectApiInfo = (ref: string | undefined, options?: CallOptions) => call(endpoints.getProjectApiInfo, { ref }, options)
export const updateJwtSecret = (ref: string | undefined, body: JwtSecretUpdateBody, options?: CallOptions) =>
  call(endpoints.updateJwtSecret, { ref }, { ...options, body })
export const getJwtSecretUpdateStatus = (ref: string | undefined, options?: CallOptions) =>
  call(endpoints.getJwtSecretUpdateStatus, { ref }, options)
