import { defineConfig } from '@playwright/test'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// One fresh folder per run, each server's data folder in it; set once in the runner so its workers (which inherit the
// env) agree.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'dashboard-e2e-'))
const port = Number(process.env.E2E_PORT ?? 8797)

/**
 * The lifecycle durations of the server the cadence walks run on. Those walks check the dashboard's polling beats
 * while a status lasts (the building page's 4 s while COMING_UP, the pausing page's 4 s then 2 s, the upgrade's 5 s
 * over its eight steps), so the durations are the ones each walk was written for.
 */
export const COMING_UP_MS = 12_000
const EXACT_LIFECYCLE = {
  LIFECYCLE_COMING_UP_MS: String(COMING_UP_MS),
  // Pause: 2 s GOING_DOWN + 3 s PAUSING; restore: 5 s (tests/e2e/pause-restore.spec.ts).
  LIFECYCLE_GOING_DOWN_MS: '2000',
  LIFECYCLE_PAUSING_MS: '3000',
  LIFECYCLE_RESTORING_MS: '5000',
  // A JWT secret rotation takes 3 s (tests/e2e/api-keys.spec.ts).
  LIFECYCLE_JWT_UPDATE_MS: '3000',
  // Each of the eight upgrade steps takes 2.5 s (tests/e2e/upgrade-connect.spec.ts): the walk checks the upgrading
  // screen while it lasts, accessibility scans included, on a loaded machine too.
  LIFECYCLE_UPGRADE_STEP_MS: '2500',
}

/**
 * The other walks' servers: a project comes up by the building page's second poll (the walks that create one see the
 * building page, then wait for the project, and measure nothing of it; the page's first read must still find it
 * coming up on a busy machine). A JWT secret rotation keeps its 3 s: tests/e2e/api-keys.spec.ts checks the keys page
 * while the rotation runs.
 */
export const FAST_COMING_UP_MS = 5_000
const FAST_LIFECYCLE = {
  ...EXACT_LIFECYCLE,
  LIFECYCLE_COMING_UP_MS: String(FAST_COMING_UP_MS),
  LIFECYCLE_GOING_DOWN_MS: '1000',
  LIFECYCLE_PAUSING_MS: '1000',
  LIFECYCLE_RESTORING_MS: '2000',
  LIFECYCLE_UPGRADE_STEP_MS: '1000',
}

/** The same walks' server serving the self-hosted build (`npm run test:e2e` builds it into dist-self-hosted). */
export const SELF_HOSTED_URL = `http://127.0.0.1:${port + 1}`

/**
 * The walks in parallel, each group in a worker of its own against a server of its own (its own port and data
 * folder), so what a walk changes (an organization's plan, the demo projects' data and usage, development controls) is
 * never seen by a walk running at the same time; within a group the files run in order, one after the other, as all
 * of them did on one server before. The groups are balanced by what their walks wait for (lifecycle timers, polling
 * beats, branch builds). The last group takes every spec file the others do not name: api-keys, database, github,
 * org-ai, usage, auth, storage, functions, realtime, sql-editor, and self-hosted (which walks the self-hosted build's
 * own server).
 */
const GROUPS = [
  { name: 'cadence', port, lifecycle: EXACT_LIFECYCLE, files: ['building', 'pause-restore', 'upgrade-connect'] },
  {
    name: 'walks-1',
    port: port + 2,
    lifecycle: FAST_LIFECYCLE,
    files: ['accounts', 'api-docs', 'branching', 'csp', 'project-screens', 'connect', 'database-objects', 'table-editor'],
  },
  { name: 'walks-2', port: port + 3, lifecycle: FAST_LIFECYCLE, files: [] as string[] },
]
const named = GROUPS.flatMap((group) => group.files)
const specOf = (file: string) => new RegExp(`/${file}\\.spec\\.ts$`)

const dataDir = (name: string) => {
  const dir = join(process.env.E2E_DATA_DIR!, name)
  mkdirSync(dir, { recursive: true })
  return dir
}

const server = (name: string, serverPort: number, env: Record<string, string>) => ({
  command: 'npx tsx src/server/main.ts',
  url: `http://127.0.0.1:${serverPort}/platform/health`,
  reuseExistingServer: false,
  // A fresh data folder makes the demo data and the project database template (an initdb) first; the servers start
  // together, on a machine that may be busy.
  timeout: 300_000,
  stdout: 'pipe' as const,
  // DB_PORT=0: the servers start together, so each takes a free Postgres port instead of the one default.
  env: { PORT: String(serverPort), DB_PORT: '0', DATA_DIR: dataDir(name), DEV_CONTROLS: '1', ...env },
})

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  // One worker per group (`--workers=1` runs the groups one after the other).
  workers: GROUPS.length,
  retries: 0,
  timeout: 60_000,
  reporter: 'list',
  use: {
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: GROUPS.map((group, index) => ({
    name: group.name,
    workers: 1,
    // The cadence walks measure polling beats to ±250 ms: they run alone, once the other groups are done, since on
    // two cores beside two other walking browsers a beat slipped by 50 ms–1 s. (Playwright skips them if a walk fails.)
    ...(group.name === 'cadence' ? { dependencies: GROUPS.filter((g) => g.name !== 'cadence').map((g) => g.name) } : {}),
    use: { baseURL: `http://127.0.0.1:${group.port}` },
    ...(index === GROUPS.length - 1 ? { testIgnore: named.map(specOf) } : { testMatch: group.files.map(specOf) }),
  })),
  webServer: [
    ...GROUPS.map((group) => server(group.name, group.port, group.lifecycle)),
    // tests/e2e/self-hosted.spec.ts: the rules the spec gives the self-hosted build, checked on that build itself.
    server('self-hosted', port + 1, { DIST_DIR: 'dist-self-hosted' }),
  ],
})
