/**
 * Global setup of the `server-pglite` and `server-s3` vitest projects: the run's seeded store (storeSnapshot.ts), in a
 * temp folder deleted afterwards. Both projects' setups run in the one vitest process, one after the other, before
 * any file: the second takes the first's store instead of seeding another (a few seconds on the run's critical path).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { snapshotBuilders } from './snapshotBuilders'
import type { StoreSnapshot } from './storeSnapshot'

interface Shared {
  snapshot: Promise<StoreSnapshot>
  dir: string
  users: number
}
const run = globalThis as { kpPgliteSnapshot?: Shared }

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!run.kpPgliteSnapshot) {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kp-store-snapshot-'))
    run.kpPgliteSnapshot = { snapshot: snapshotBuilders().then(({ pgliteSnapshot }) => pgliteSnapshot(dir)), dir, users: 0 }
  }
  const shared = run.kpPgliteSnapshot
  shared.users++
  project.provide('storeSnapshot', await shared.snapshot)
  return async () => {
    if (--shared.users > 0) return
    run.kpPgliteSnapshot = undefined
    await rm(shared.dir, { recursive: true, force: true })
  }
}
