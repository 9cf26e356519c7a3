/**
 * The cost of one password hash (and so of one sign-in) at the cost before the accounts hardening (scrypt N=2^14) and at the
 * OWASP minimum now used (N=2^17, r=8, p=1): median and spread of a few sequential hashes, with the process's RSS.
 * `npx tsx bench/password-hash.bench.ts [runs]`
 */
import { OWASP_SCRYPT_COST, type ScryptCost } from '../src/server/config'
import { hashPassword, verifyPassword } from '../src/server/core/secrets'

const runs = Number(process.argv[2] ?? 7)
const costs: [string, ScryptCost][] = [
  ['before the accounts hardening (N=2^14, r=8, p=1)', { N: 2 ** 14, r: 8, p: 1 }],
  ['OWASP minimum (N=2^17, r=8, p=1)', OWASP_SCRYPT_COST],
]
const ms = (t: number) => `${t.toFixed(1)} ms`
for (const [label, cost] of costs) {
  const hash = await hashPassword('warm-up', cost)
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await verifyPassword('demo1234', hash)
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  const median = times[Math.floor(times.length / 2)]
  console.log(
    `${label}: median ${ms(median)}, min ${ms(times[0])}, max ${ms(times.at(-1)!)} over ${runs} verifications; ` +
      `RSS ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB`,
  )
}
