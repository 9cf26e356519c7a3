/**
 * A project's realtime limits, as the Management API names them (/v1/projects/{ref}/config/realtime): stored in
 * project_realtime_config (store.ts), a missing row or column taking the platform's default. The hub reads them when
 * a socket connects and keeps them a few seconds, so a change reaches every process of the platform soon after it is
 * saved (and the process that saved it at once).
 */
import type { RealtimeConfig } from '../../../contracts/realtime'
import type { Clock } from '../../config'

export const REALTIME_DEFAULTS: RealtimeConfig = {
  private_only: false,
  connection_pool: 2,
  max_concurrent_users: 200,
  max_events_per_second: 100,
  max_bytes_per_second: 100_000,
  max_channels_per_client: 100,
  max_joins_per_second: 100,
  max_presence_events_per_second: 100,
  max_presence_keys_per_object: 10,
  max_payload_size_in_kb: 256,
  suspend: false,
  presence_enabled: true,
}

/** Server-wide, not per project (ServerConfig.realtime overrides them). */
export const SOCKET_DEFAULTS = {
  /** A socket that sends nothing (not even realtime-js' 25 s heartbeat) for this long is closed. */
  idleTimeoutMs: 60_000,
  /** Bytes that may wait unsent to one socket; past them the socket is closed as a slow consumer. */
  sendBufferBytes: 4 * 1024 * 1024,
}

/** The largest frame a socket accepts at all (the largest payload limit a project may set, and room for the frame). */
export const MAX_FRAME_BYTES = 10_000 * 1024 + 64 * 1024

/**
 * A count per second of the server's clock (a new second starts from zero), against a limit that may change
 * meanwhile: of events (one each) or of bytes (a message's size). What the limit refuses is not counted.
 */
export class RateWindow {
  private second = Number.NaN
  private count = 0

  constructor(private readonly clock: Clock) {}

  /** What this second has counted so far. */
  used(): number {
    this.roll()
    return this.count
  }

  /** Whether `amount` more fits under `limit` this second (nothing is counted). */
  fits(limit: number | null | undefined, amount = 1): boolean {
    return this.used() + amount <= (limit ?? Number.POSITIVE_INFINITY)
  }

  /** Counts `amount` if it fits; false (nothing counted) when the second's limit is spent. */
  take(limit: number | null | undefined, amount = 1): boolean {
    if (!this.fits(limit, amount)) return false
    this.count += amount
    return true
  }

  /** True when this window counts an earlier second than now: nothing in it still matters. */
  stale(): boolean {
    return this.second !== this.currentSecond()
  }

  private currentSecond() {
    return Math.floor(this.clock.now().getTime() / 1000)
  }

  private roll() {
    const second = this.currentSecond()
    if (this.second !== second) {
      this.second = second
      this.count = 0
    }
  }
}

/**
 * One project's per-second windows on this process: what its sockets and its HTTP broadcast API send count against
 * the same events and bytes.
 */
export interface ProjectWindows {
  events: RateWindow
  bytes: RateWindow
  joins: RateWindow
  presence: RateWindow
}

export const newWindows = (clock: Clock): ProjectWindows => ({
  events: new RateWindow(clock),
  bytes: new RateWindow(clock),
  joins: new RateWindow(clock),
  presence: new RateWindow(clock),
})
