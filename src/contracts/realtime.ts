/**
 * Realtime, in the Management API's shapes where it has them:
 *   GET   /v1/projects/{ref}/config/realtime       → RealtimeConfig (the limits)
 *   PATCH /v1/projects/{ref}/config/realtime       RealtimeConfigUpdate → 204
 *   GET   /platform/projects/{ref}/realtime/channels → RealtimeChannels (the inspector's list: channels open now
 *         on this platform process and the clients joined to each)
 * Reading needs membership; changing needs realtime:all.
 */
import * as z from 'zod/mini'

const limit = (min: number, max: number) => z.nullable(z.int().check(z.minimum(min), z.maximum(max)))

export const RealtimeConfig = z.object({
  private_only: z.nullable(z.boolean()),
  connection_pool: limit(1, 100),
  max_concurrent_users: limit(1, 50_000),
  max_events_per_second: limit(1, 50_000),
  max_bytes_per_second: limit(1, 10_000_000),
  max_channels_per_client: limit(1, 10_000),
  max_joins_per_second: limit(1, 5_000),
  max_presence_events_per_second: limit(1, 5_000),
  /** Keys one tracked presence object may have (the platform's "presence keys per object"). */
  max_presence_keys_per_object: limit(1, 100),
  max_payload_size_in_kb: limit(1, 10_000),
  suspend: z.nullable(z.boolean()),
  presence_enabled: z.boolean(),
})
export type RealtimeConfig = z.infer<typeof RealtimeConfig>

export const RealtimeConfigUpdate = z.strictObject({
  private_only: z.optional(z.boolean()),
  connection_pool: z.optional(z.int().check(z.minimum(1), z.maximum(100))),
  max_concurrent_users: z.optional(z.int().check(z.minimum(1), z.maximum(50_000))),
  max_events_per_second: z.optional(z.int().check(z.minimum(1), z.maximum(50_000))),
  max_bytes_per_second: z.optional(z.int().check(z.minimum(1), z.maximum(10_000_000))),
  max_channels_per_client: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
  max_joins_per_second: z.optional(z.int().check(z.minimum(1), z.maximum(5_000))),
  max_presence_events_per_second: z.optional(z.int().check(z.minimum(1), z.maximum(5_000))),
  max_presence_keys_per_object: z.optional(z.int().check(z.minimum(1), z.maximum(100))),
  max_payload_size_in_kb: z.optional(z.int().check(z.minimum(1), z.maximum(10_000))),
  suspend: z.optional(z.boolean()),
  presence_enabled: z.optional(z.boolean()),
})
export type RealtimeConfigUpdate = z.infer<typeof RealtimeConfigUpdate>

export const RealtimeChannel = z.object({
  topic: z.string(),
  private: z.boolean(),
  clients: z.array(z.object({ id: z.string(), role: z.string(), presence_key: z.nullable(z.string()), joined_at: z.string() })),
})
export const RealtimeChannels = z.object({ connections: z.int(), channels: z.array(RealtimeChannel) })
export type RealtimeChannels = z.infer<typeof RealtimeChannels>
