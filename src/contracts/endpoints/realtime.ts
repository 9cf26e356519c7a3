import { endpoint } from '../endpoint'
import { RealtimeChannels, RealtimeConfig, RealtimeConfigUpdate } from '../realtime'

// Realtime (src/contracts/realtime.ts): its limits in the Management API's shapes, and the inspector's channel list.
export const getRealtimeConfig = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/config/realtime', { response: RealtimeConfig })
export const updateRealtimeConfig = /* @__PURE__ */ endpoint('PATCH', 'v1', '/projects/:ref/config/realtime', { body: RealtimeConfigUpdate })
export const listRealtimeChannels = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/realtime/channels', { response: RealtimeChannels })
