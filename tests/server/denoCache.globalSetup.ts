/**
 * Global setup of both server projects: one Deno module cache for the whole run. Every test server's function
 * workers use it (startTestServer passes it as functions.denoDir), so a function's `npm:` imports are downloaded once
 * per run rather than once per test server. Both projects run in the one vitest process, so they name the same folder
 * (by that process's id) and share it; whichever project tears down first removes it, when every file has run.
 */
import { mkdir, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Deno's module cache (DENO_DIR) shared by every test server of this run. */
    denoDir: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = path.join(os.tmpdir(), `kp-deno-cache-${process.pid}`)
  await mkdir(dir, { recursive: true })
  project.provide('denoDir', dir)
  return () => rm(dir, { recursive: true, force: true })
}
