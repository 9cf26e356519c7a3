/**
 * The live actors of Realtime's Settings and Channels pages: the Management API's config/realtime (a save is the
 * PATCH, then the limits read back, since the PATCH answers 204) and the platform's list of open channels.
 */
import { fromPromise } from 'xstate'
import { realtimeChannelsMachine } from '../../../machines/realtimeChannels.machine'
import { realtimeSettingsMachine } from '../../../machines/realtimeSettings.machine'
import type { RealtimeConfigUpdate } from '../../contracts/realtime'
import * as calls from '../calls/realtime'

type Signal = { signal: AbortSignal }

export const liveRealtimeSettingsMachine = realtimeSettingsMachine.provide({
  actors: {
    loadSettings: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => calls.getRealtimeConfig(input.ref, { signal })),
    saveSettings: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; body: RealtimeConfigUpdate } }) => {
      await calls.updateRealtimeConfig(input.ref, input.body, { signal })
      return calls.getRealtimeConfig(input.ref, { signal })
    }),
  },
})

export const liveRealtimeChannelsMachine = realtimeChannelsMachine.provide({
  actors: {
    fetchRealtimeChannels: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => calls.listRealtimeChannels(input.ref, { signal })),
  },
})
