/**
 * Each function's log: its invocations (status, duration) and its console output, the last LOG_LIMIT entries per
 * function, in memory (a restart of the platform starts them empty, as a worker's own logs would). Subscribers get
 * each entry as it is added (the dashboard's live tail).
 */
export const LOG_LIMIT = 1_000
/** A console line longer than this is cut: one write of megabytes must not fill the log. */
export const MAX_LINE = 4_096

export interface FunctionLogEntry {
  id: string
  /** Epoch milliseconds. */
  timestamp: number
  function_id: string
  kind: 'invocation' | 'console' | 'boot' | 'shutdown'
  level: 'log' | 'info' | 'error'
  event_message: string
  method?: string
  /** An invocation's path from the function's slug on (`/hello-world/sub`), without the query. */
  path?: string
  /** The function's version that answered an invocation. */
  version?: number
  status?: number
  duration_ms?: number
}

export class FunctionLogs {
  private readonly byFunction = new Map<string, FunctionLogEntry[]>()
  private readonly listeners = new Set<(entry: FunctionLogEntry) => void>()
  private counter = 0

  /** `now`: the platform's clock in epoch milliseconds, so entries fall in the periods the analytics read by it. */
  constructor(private readonly now: () => number = Date.now) {}

  add(functionId: string, entry: Omit<FunctionLogEntry, 'id' | 'timestamp' | 'function_id'>): FunctionLogEntry {
    const full: FunctionLogEntry = {
      ...entry,
      event_message: entry.event_message.length > MAX_LINE ? `${entry.event_message.slice(0, MAX_LINE)}…` : entry.event_message,
      id: `${Date.now().toString(36)}-${(this.counter++).toString(36)}`,
      timestamp: this.now(),
      function_id: functionId,
    }
    let list = this.byFunction.get(functionId)
    if (!list) this.byFunction.set(functionId, (list = []))
    list.push(full)
    if (list.length > LOG_LIMIT) list.splice(0, list.length - LOG_LIMIT)
    for (const listener of this.listeners) listener(full)
    return full
  }

  /** Oldest first. */
  list(functionId: string): FunctionLogEntry[] {
    return [...(this.byFunction.get(functionId) ?? [])]
  }

  forget(functionId: string): void {
    this.byFunction.delete(functionId)
  }

  subscribe(listener: (entry: FunctionLogEntry) => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }
}
