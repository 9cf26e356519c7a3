import type { RealtimeConfigUpdate } from '../../contracts/realtime'
import * as endpoints from '../../contracts/endpoints/realtime'
import { call, type CallOptions } from '../http'

// Realtime: the project's limits (Management API config/realtime) and the channels open now.
export const getRealtimeConfig = (ref: string, options?: CallOptions) => call(endpoints.getRealtimeConfig, { ref }, options)
export const updateRealtimeConfig = (ref: string, body: RealtimeConfigUpdate, options?: CallOptions) =>
  call(endpoints.updateRealtimeConfig, { ref }, { ...options, body })
export const listRealtimeChannels = (ref: string, options?: CallOptions) => call(endpoints.listRealtimeChannels, { ref }, options)
