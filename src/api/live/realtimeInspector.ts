/**
 * The live actor of the Realtime inspector: the project's keys from the platform (the API key info), then a
 * realtime-js channel on the project's realtime service, as a browser app would open it. Every broadcast, presence
 * event and database change of the public schema's published tables is handed to the machine as it arrives.
 */
import { RealtimeClient, type RealtimeChannel } from '@supabase/supabase-js'
import { fromCallback } from 'xstate'
import { realtimeInspectorMachine, type ChannelCommand, type ChannelEvent, type JoinRequest } from '../../../machines/realtimeInspector.machine'
import { getProjectApiInfo } from '../calls/keys'

const parsed = (text: unknown) => {
  if (typeof text !== 'string') return text
  try {
    return JSON.parse(text) as unknown
  } catch {
    return { message: text }
  }
}

export const liveRealtimeInspectorMachine = realtimeInspectorMachine.provide({
  actors: {
    joinChannel: fromCallback<ChannelCommand, JoinRequest, ChannelEvent>(({ input, sendBack, receive }) => {
      const abort = new AbortController()
      let client: RealtimeClient | undefined
      let channel: RealtimeChannel | undefined
      const now = () => new Date().toISOString()
      void (async () => {
        try {
          const { autoApiService } = await getProjectApiInfo(input.ref, { signal: abort.signal })
          const key = input.role === 'service_role' ? autoApiService.serviceApiKey : autoApiService.defaultApiKey
          if (!key) throw new Error(`The project has no ${input.role} key you may use`)
          const url = `${window.location.origin}/p/${input.ref}/realtime/v1`
          if (abort.signal.aborted) return
          client = new RealtimeClient(url, { params: { apikey: key } })
          channel = client
            .channel(input.channel, { config: { private: input.private, broadcast: { self: true, ack: true } } })
            .on('broadcast', { event: '*' }, (message) => sendBack({ type: 'message.received', message: { kind: 'broadcast', event: String(message.event), at: now(), payload: message.payload } }))
            .on('presence', { event: 'sync' }, () => sendBack({ type: 'message.received', message: { kind: 'presence', event: 'sync', at: now(), payload: channel?.presenceState() ?? {} } }))
            .on('postgres_changes', { event: '*', schema: 'public' }, (change) =>
              sendBack({ type: 'message.received', message: { kind: 'postgres_changes', event: change.eventType, at: now(), payload: change } }),
            )
            .subscribe((status, err) => {
              if (status === 'SUBSCRIBED') sendBack({ type: 'channel.joined' })
              else if (status === 'CHANNEL_ERROR' || status === 'TIMED_OUT') sendBack({ type: 'channel.failed', error: err?.message ?? status })
            })
        } catch (err) {
          if (!abort.signal.aborted) sendBack({ type: 'channel.failed', error: (err as Error).message })
        }
      })()
      receive((command) => {
        if (command.type === 'broadcast.send') void channel?.send({ type: 'broadcast', event: command.event, payload: parsed(command.payload) })
      })
      return () => {
        abort.abort()
        if (client && channel) void client.removeChannel(channel)
        client?.disconnect()
      }
    }),
  },
})
