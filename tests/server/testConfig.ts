/**
 * The server tests' configuration, clock and PGlite cluster template: what both a test worker and the global setup
 * (which builds the seeded store snapshot, storeSnapshot.ts) use, so nothing here imports vitest's runner.
 */
import { existsSync, readFileSync } from 'node:fs'
import { rename, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { loadConfig, repoRoot, type Clock, type ServerConfig } from '../../src/server/config'

const pgliteVersion = (
  JSON.parse(readFileSync(path.join(repoRoot, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as {
    version: string
  }
).version

/**
 * A new PGlite runs initdb (2–4 s); loading a dump of a fresh cluster takes under 1 s. The dump of an
 * empty cluster (no schema: the tests still run the migrations) is cached in the temp folder per version.
 */
export async function pgliteTemplate(): Promise<Blob> {
  const file = path.join(os.tmpdir(), `kp-pglite-template-${pgliteVersion}.tar.gz`)
  if (existsSync(file)) return new Blob([readFileSync(file)])
  const fresh = await PGlite.create()
  const dump = await fresh.dumpDataDir('gzip')
  await fresh.close()
  const partial = `${file}.${process.pid}.partial`
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()))
  await rename(partial, file) // atomic: parallel workers never read half a file
  return dump
}

/** Time that moves only when a test says so. */
export class FakeClock implements Clock {
  constructor(public ms = Date.now()) {}
  now(): Date {
    return new Date(this.ms)
  }
  advance(ms: number): void {
    this.ms += ms
  }
  /** Its time in seconds since the epoch, plus `offsetSeconds`: a JWT's iat or exp by this clock. */
  epoch(offsetSeconds = 0): number {
    return Math.floor(this.ms / 1000) + offsetSeconds
  }
}

/** Overrides of the test config; `lifecycle` merges into the defaults, so a test names only the durations it uses. */
export type ConfigOverrides = Partial<Omit<ServerConfig, 'lifecycle' | 'projectDb'>> & {
  lifecycle?: Partial<ServerConfig['lifecycle']>
  projectDb?: Partial<ServerConfig['projectDb']>
}

export function testConfig(overrides: ConfigOverrides = {}): ServerConfig {
  const base = loadConfig({})
  return {
    ...base,
    devControls: true,
    distDir: path.join(os.tmpdir(), 'kp-no-dist'),
    // The OWASP cost (N=2^17, ~0.5 s and 128 MiB a hash) would make every sign-in of every test slow, and so did
    // N=2^14 (60–200 ms of a core each, and every test server signs in): the cheapest cost scrypt is still scrypt
    // at. Tests that are about the cost set it themselves.
    passwordHashCost: { N: 2 ** 10, r: 8, p: 1 },
    // Project databases of an app made straight with createApp land in the temp folder, never in the repository;
    // the template folder (one initdb) is shared by every test process.
    dataDir: path.join(os.tmpdir(), `kp-test-data-${process.pid}`),
    ...overrides,
    lifecycle: { ...base.lifecycle, ...overrides.lifecycle },
    functions: { ...base.functions, ...overrides.functions },
    // Tests open hundreds of short-lived project databases whose queries are tiny: V8's quick compile only.
    projectDb: { ...base.projectDb, templateCacheDir: os.tmpdir(), wasmTier: 'baseline', ...overrides.projectDb },
  }
}
