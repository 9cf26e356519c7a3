/** `npm run bench`: runs every bench/*.bench.ts in turn; each prints its own figures. */
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

const dir = join(import.meta.dirname, '.')
const only = process.argv[2]
const files = readdirSync(dir).filter((f) => f.endsWith('.bench.ts') && (!only || f.includes(only))).sort()
let failed = 0
for (const file of files) {
  console.log(`\n== ${file}`)
  const result = spawnSync('npx', ['tsx', join(dir, file)], { stdio: 'inherit' })
  if (result.status !== 0) failed++
}
process.exit(failed === 0 ? 0 : 1)
