/**
 * Global setup of the `server-pglite` vitest project: the run's seeded store (storeSnapshot.ts), in a temp folder
 * deleted afterwards.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { pgliteSnapshot } from './storeSnapshot'

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kp-store-snapshot-'))
  project.provide('storeSnapshot', await pgliteSnapshot(dir))
  return () => rm(dir, { recursive: true, force: true })
}
