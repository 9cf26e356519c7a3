/** What the hub (hub.ts) and the change feed (changes.ts) know of each other. */
import type { Caller, GatewayContext } from '../../gateway'
import type { Filter } from './filters'
import type { Frame } from './protocol'

export interface ChangeSubscription {
  id: number
  /** What the join's reply echoes (realtime-js matches it against what it asked for). */
  echo: { id: number; event: string; schema: string; table?: string; filter?: string }
  event: string
  schema: string
  table: string | undefined
  filter: Filter | undefined
  cancel(): void
}

/** A socket's membership of a topic, as the change feed reads it. */
export interface ChannelMember {
  topic: string
  joinRef: string | null
  caller: Caller
  postgresChanges: ChangeSubscription[]
  socket: { send(frame: Frame): boolean }
}

/** A project's realtime on this process, as the change feed reads it. */
export interface FeedProject {
  readonly ref: string
  readonly gateway: GatewayContext
  readonly topics: Map<string, Set<ChannelMember>>
  counted(messages: number): void
}

export interface ChangeFeedLike {
  subscribe(wanted: Record<string, unknown>[]): Promise<ChangeSubscription[]>
  stop(): Promise<void>
}
