import type { UpgradeDatabaseBody } from '../../contracts/upgrade'
import * as endpoints from '../../contracts/endpoints/upgrade'
import { call, type CallOptions } from '../http'

// Postgres upgrade (Management API).
export const getUpgradeStatus = (ref: string | undefined, options?: CallOptions) => call(endpoints.getUpgradeStatus, { ref }, options)
export const getUpgradeEligibility = (ref: string | undefined, options?: CallOptions) => call(endpoints.getUpgradeEligibility, { ref }, options)
export const startUpgrade = (ref: string | undefined, body: UpgradeDatabaseBody, options?: CallOptions) =>
  call(endpoints.startUpgrade, { ref }, { ...options, body })
