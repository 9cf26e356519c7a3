/**
 * Simulated dashboards for bench/load.bench.ts: each is its own keep-alive connection (a browser tab) polling one
 * path on a fixed beat (machines/polling.ts: a request starts every `everyMs`, whatever the last one took) from its own
 * phase, drawn uniformly over one beat — dashboards are opened at independent moments, so their polls do not line up.
 * (autocannon's `overallRate` cannot model this: it cuts the connections down to the rate and releases every one of
 * them on the same one-second timer, so 1,000 dashboards became 250 connections firing in one burst each second.)
 * A request counts as an error on a non-2xx answer, a socket error, or no answer within `timeoutMs` (the
 * dashboard's own time-out). Latency runs from handing the request to the socket to the last byte of the answer; the
 * generator's own lateness (its timer firing after the slot, on a shared machine) is reported beside it.
 */
import http from 'node:http'

export interface Dashboard {
  path: string
  headers: Record<string, string>
}

export interface PacedFigures {
  rps: number
  p50: number
  p99: number
  max: number
  errors: number
  requests: number
  /** The generator's own lateness: how long after its slot a poll was sent, p99 and max (ms). */
  lateP99: number
  lateMax: number
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]

export async function pacedLoad(
  url: string,
  dashboards: Dashboard[],
  opts: { everyMs: number; seconds: number; timeoutMs: number },
): Promise<PacedFigures> {
  const { hostname, port } = new URL(url)
  const latencies: number[] = []
  const lateness: number[] = []
  let errors = 0
  const start = performance.now() + 100
  const end = start + opts.seconds * 1000
  const agents: http.Agent[] = []

  const poll = (d: Dashboard, agent: http.Agent): Promise<void> =>
    new Promise((resolve) => {
      const sent = performance.now()
      let settled = false
      const done = (ok: boolean) => {
        if (settled) return
        settled = true
        if (ok) latencies.push(performance.now() - sent)
        else errors++
        resolve()
      }
      const req = http.request({ hostname, port, path: d.path, headers: d.headers, agent }, (res) => {
        res.resume()
        res.on('end', () => done(res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300))
        res.on('error', () => done(false))
      })
      req.setTimeout(opts.timeoutMs, () => {
        req.destroy()
        done(false)
      })
      req.on('error', () => done(false))
      req.end()
    })

  const runs = dashboards.map(async (d) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
    agents.push(agent)
    let slot = start + Math.random() * opts.everyMs
    while (slot < end) {
      const wait = slot - performance.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      lateness.push(Math.max(0, performance.now() - slot))
      await poll(d, agent)
      // The fixed beat: the next slot, or the first one not yet passed when an answer took longer than a beat.
      slot += opts.everyMs
      while (slot < performance.now()) slot += opts.everyMs
    }
  })
  await Promise.all(runs)
  for (const agent of agents) agent.destroy()
  const sorted = latencies.sort((a, b) => a - b)
  const late = lateness.sort((a, b) => a - b)
  const round = (n: number) => Math.round(n * 10) / 10
  return {
    rps: (sorted.length + errors) / opts.seconds,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted[sorted.length - 1] ?? NaN),
    errors,
    requests: sorted.length + errors,
    lateP99: round(percentile(late, 99)),
    lateMax: round(late[late.length - 1] ?? NaN),
  }
}
