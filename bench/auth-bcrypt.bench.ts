/**
 * What one project's sign-ins cost the others, without a server in between: N concurrent bcrypt verifications at the
 * platform's cost 10 (what N sign-ins at once ask for), in pure JS (bcryptjs, which the auth service used before)
 * and native on libuv's thread pool (@node-rs/bcrypt, which it uses now). For each: the wall time of the batch and
 * how late a 1 ms timer fired meanwhile (the event loop's delay: every other request on the process waits that long).
 * `npx tsx bench/auth-bcrypt.bench.ts [concurrent=10] [rounds=3]`
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { hash as nativeHash, verify as nativeVerify } from '@node-rs/bcrypt'
import bcryptjs from 'bcryptjs'
import { loadLine } from './support'

const CONCURRENT = Number(process.argv[2] ?? 10)
const ROUNDS = Number(process.argv[3] ?? 3)
const COST = 10

const implementations: [string, (password: string, hash: string) => Promise<boolean>, string][] = [
  ['bcryptjs (pure JS, event loop)', (p, h) => bcryptjs.compare(p, h), bcryptjs.hashSync('bench-password', COST)],
  ['@node-rs/bcrypt (native, thread pool)', (p, h) => nativeVerify(p, h), await nativeHash('bench-password', { cost: COST })],
]

for (const [label, verify, stored] of implementations) {
  const walls: number[] = []
  let worstDelay = 0
  let p99Delay = 0
  for (let round = 0; round < ROUNDS; round++) {
    const delay = monitorEventLoopDelay({ resolution: 1 })
    delay.enable()
    const started = performance.now()
    const results = await Promise.all(Array.from({ length: CONCURRENT }, () => verify('bench-password', stored)))
    walls.push(performance.now() - started)
    delay.disable()
    if (!results.every(Boolean)) throw new Error(`${label}: a verification failed`)
    worstDelay = Math.max(worstDelay, delay.max / 1e6)
    p99Delay = Math.max(p99Delay, delay.percentile(99) / 1e6)
  }
  walls.sort((a, b) => a - b)
  console.log(
    `${label}: ${CONCURRENT} verifications at once, median ${walls[Math.floor(walls.length / 2)].toFixed(0)} ms over ${ROUNDS} rounds; ` +
      `event loop delay meanwhile p99 ${p99Delay.toFixed(0)} ms, max ${worstDelay.toFixed(0)} ms`,
  )
}
console.log(loadLine())
