import { defineConfig } from '@playwright/test'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// One fresh folder per run, each server's data folder in it; set once in the runner so its workers (which inherit the
// env) agree.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'dashboard-e2e-'))
const port = Number(process.env.E2E_PORT ?? 8797)

/**
 * The lifecycle durations of the server the beat walks run on (building, pause-restore, upgrade-connect): an hour
 * each, so no timed step comes by itself during a run. Each of those walks runs the page on a clock it drives
 * (Playwright's clock) and the server's steps with the advance control (tests/e2e/support.ts), so the polling beats
 * it checks are exact whatever the machine's load, and it waits for no real duration.
 */
const HOUR = String(60 * 60_000)
const DRIVEN_LIFECYCLE = {
  LIFECYCLE_COMING_UP_MS: HOUR,
  LIFECYCLE_GOING_DOWN_MS: HOUR,
  LIFECYCLE_PAUSING_MS: HOUR,
  LIFECYCLE_RESTORING_MS: HOUR,
  LIFECYCLE_JWT_UPDATE_MS: HOUR,
  LIFECYCLE_UPGRADE_STEP_MS: HOUR,
}

/**
 * The other walks' servers: a project comes up by the building page's second poll (the walks that create one see the
 * building page, then wait for the project, and measure nothing of it; the page's first read must still find it
 * coming up on a busy machine). A JWT secret rotation takes 3 s: tests/e2e/api-keys.spec.ts checks the keys page
 * while the rotation runs.
 */
export const FAST_COMING_UP_MS = 5_000
const FAST_LIFECYCLE = {
  LIFECYCLE_COMING_UP_MS: String(FAST_COMING_UP_MS),
  LIFECYCLE_GOING_DOWN_MS: '1000',
  LIFECYCLE_PAUSING_MS: '1000',
  LIFECYCLE_RESTORING_MS: '2000',
  LIFECYCLE_JWT_UPDATE_MS: '3000',
  LIFECYCLE_UPGRADE_STEP_MS: '1000',
}

/** The same walks' server serving the self-hosted build (`npm run test:e2e` builds it into dist-self-hosted). */
export const SELF_HOSTED_URL = `http://127.0.0.1:${port + 1}`

/**
 * The walks in two groups, each in a worker of its own against a server of its own (its own port and data folder), so
 * what a walk changes (an organization's plan, the demo projects' data and usage, development controls) is never seen
 * by a walk running at the same time; within a group the files run in order, one after the other. The beat walks'
 * group (their beats are on the page's clock, not the machine's) also takes the walks that wait on no lifecycle step.
 * The groups are balanced by their walks' times in a full run (about 240 s each, quiet). The second group takes
 * every spec file the first does not name: accounts, api-docs, api-keys, branching, csp, database, database-objects,
 * org-ai, project-screens and storage-objects. (self-hosted walks the self-hosted build's own server.)
 */
const GROUPS = [
  {
    name: 'clocked',
    port,
    lifecycle: DRIVEN_LIFECYCLE,
    files: [
      'building', 'pause-restore', 'upgrade-connect', 'functions', 'github', 'sql-editor', 'self-hosted', 'axe',
      'realtime', 'table-editor', 'a11y-screens', 'auth', 'usage', 'connect',
    ],
  },
  { name: 'walks', port: port + 2, lifecycle: FAST_LIFECYCLE, files: [] as string[] },
]
const named = GROUPS.flatMap((group) => group.files)
const specOf = (file: string) => new RegExp(`/${file}\\.spec\\.ts$`)

const dataDir = (name: string) => {
  const dir = join(process.env.E2E_DATA_DIR!, name)
  mkdirSync(dir, { recursive: true })
  return dir
}

// DB_PORT=0: the servers start together, so each takes a free Postgres port instead of the one default.
// The project database template (an initdb) is made once in the temp folder, where the tests make theirs, and shared.
// PASSWORD_SCRYPT_N=1024: every sign-in and sign-up of the walks hashes a password, and at the default cost (2^17, the
// OWASP minimum: 128 MiB and 0.4 s of a core each on an idle machine) the walks' 50-odd sign-ins waited on it; the cost
// itself is the server tests' (tests/server/accounts-hardening.test.ts).
const server = (name: string, serverPort: number, env: Record<string, string>) => ({
  name,
  port: serverPort,
  env: {
    PORT: String(serverPort),
    DB_PORT: '0',
    DATA_DIR: dataDir(name),
    DEV_CONTROLS: '1',
    PROJECT_DB_TEMPLATE_CACHE_DIR: tmpdir(),
    PASSWORD_SCRYPT_N: '1024',
    ...env,
  },
})
const SERVERS = [
  ...GROUPS.map((group) => server(group.name, group.port, group.lifecycle)),
  // tests/e2e/self-hosted.spec.ts: the rules the spec gives the self-hosted build, checked on that build itself.
  server('self-hosted', port + 1, { DIST_DIR: 'dist-self-hosted' }),
]

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  // The two groups at once (`--workers=1` runs them one after the other). Three groups at once (three browsers and
  // their servers on 2 cores, load 12–16) overran walks' waits in each of three full runs, a different 2–3 each time.
  workers: 2,
  retries: 0,
  timeout: 60_000,
  reporter: 'list',
  use: {
    // A failed walk leaves its error context (the page's ARIA snapshot) and a screenshot of the end. No trace is
    // recorded by default: recording one for every walk, passed or not, cost the browser and the runner a third of
    // their CPU with its screencast (a run's Chromium processes: 336 s with it, 219 s without) and a tenth more with
    // its DOM snapshots, and CI keeps only the printed output. To debug a walk: `npx playwright test <file> --trace on`.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: GROUPS.map((group, index) => ({
    name: group.name,
    workers: 1,
    use: { baseURL: `http://127.0.0.1:${group.port}` },
    ...(index === GROUPS.length - 1 ? { testIgnore: named.map(specOf) } : { testMatch: group.files.map(specOf) }),
  })),
  // Every server started at once by tests/e2e/servers.ts, which answers on the next port once all of them do.
  webServer: {
    command: 'npx tsx tests/e2e/servers.ts',
    url: `http://127.0.0.1:${port + SERVERS.length}/`,
    reuseExistingServer: false,
    // A fresh data folder makes the demo data first, in every server at once, on a machine that may be busy.
    timeout: 300_000,
    stdout: 'pipe',
    // SIGTERM to the servers' process group, where Playwright's default is SIGKILL: tests/e2e/servers.ts then waits
    // for the servers to stop and deletes their data folders.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    env: { E2E_SERVERS: JSON.stringify(SERVERS), E2E_SERVERS_READY_PORT: String(port + SERVERS.length) },
  },
})
