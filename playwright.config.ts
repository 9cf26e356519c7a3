import { defineConfig } from '@playwright/test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

// One fresh data folder per run; set once in the runner so its workers (which inherit the env) agree.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'dashboard-e2e-'))
process.env.E2E_SELF_HOSTED_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'dashboard-e2e-self-hosted-'))
const port = Number(process.env.E2E_PORT ?? 8797)
export const COMING_UP_MS = 12_000
/** The same server serving the self-hosted build (`npm run test:e2e` builds it into dist-self-hosted). */
export const SELF_HOSTED_URL = `http://127.0.0.1:${port + 1}`

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: process.env.CI ? 'list' : 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  webServer: [
    {
      command: 'npx tsx src/server/main.ts',
      url: `http://127.0.0.1:${port}/platform/health`,
      reuseExistingServer: false,
      // A fresh data folder makes the demo data and the project database template (an initdb) first.
      timeout: 180_000,
      stdout: 'pipe',
      env: {
        PORT: String(port),
        DATA_DIR: process.env.E2E_DATA_DIR,
        DEV_CONTROLS: '1',
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
      },
    },
    {
      // tests/e2e/self-hosted.spec.ts: the rules the spec gives the self-hosted build, checked on that build itself.
      command: 'npx tsx src/server/main.ts',
      url: `${SELF_HOSTED_URL}/platform/health`,
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'pipe',
      env: {
        PORT: String(port + 1),
        DATA_DIR: process.env.E2E_SELF_HOSTED_DATA_DIR,
        DIST_DIR: 'dist-self-hosted',
        DEV_CONTROLS: '1',
      },
    },
  ],
})
