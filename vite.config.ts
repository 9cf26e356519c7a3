import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import type { InlineConfig } from 'vitest/node'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'

const serverPort = Number(process.env.API_PORT ?? 8787)

/**
 * Server test files that never use the platform's store (TEST_DB): each runs in the one server project that has what
 * it needs, not twice the same. The PGlite engine's own files and the pieces tested without a server run with PGlite;
 * the template race starts a PostgreSQL cluster of its own.
 */
const WITHOUT_STORE = ['pglite-data-dir', 'projectdb-pglite-folders', 'domain-errors', 'git-units', 'storage-bytes'].map((name) => `tests/server/${name}.test.ts`)
const OWN_CLUSTER = ['tests/server/projectdb-template-race.test.ts']
/**
 * The storage tests that store objects' bytes: run again with the bytes in an S3-compatible server (server-s3), which
 * alone runs the tests of the S3 settings themselves.
 */
const S3_ONLY = ['tests/server/storage-s3.test.ts']
/**
 * Web test files about what a fresh page has loaded (a chunk not loaded yet): each needs a module graph of its own,
 * which the other web files share within a worker.
 */
const FRESH_MODULES = ['tests/machines/lifecycleChunk.test.ts', 'tests/machines/pausePreload.test.ts', 'tests/machines/upgradePreload.test.ts']
const STORAGE_BYTES = ['storage-bytes', 'storage-objects-api', 'storage-objects-bad-input', 'storage-objects-lifecycle', 'storage-objects-resumable', 'storage-image-transform'].map(
  (name) => `tests/server/${name}.test.ts`,
)

/** The web tests' settings: views and machines in a DOM, in worker threads (cheaper to start than processes). */
const WEB = {
  environment: 'happy-dom',
  pool: 'threads',
  include: ['tests/**/*.test.{ts,tsx}', 'model-tests/**/*.test.{ts,tsx}'],
  exclude: ['tests/server/**', 'tests/e2e/**'],
  setupFiles: ['tests/setup.web.ts'],
  // The setup loads every lazy screen the modules register before a file's first test; on a busy machine that
  // outlasts the default 10 s.
  hookTimeout: 60_000,
  // A bound for a busy machine, not a speed claim: a model path renders its view dozens of times, and under a load of
  // 15 a 4 s path took 6 s.
  testTimeout: 30_000,
} satisfies InlineConfig

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    // React 19 has useSyncExternalStore: the shim's fallback for React < 18 (which @xstate/react and wouter import)
    // is dead weight in the entry. The non-shim entry points are the same code reading React's own hook.
    alias: [
      { find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/, replacement: 'use-sync-external-store/with-selector' },
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'use-sync-external-store' },
    ],
  },
  server: {
    proxy: {
      '/platform': `http://127.0.0.1:${serverPort}`,
      '/v1': `http://127.0.0.1:${serverPort}`,
      '/dev': `http://127.0.0.1:${serverPort}`,
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    modulePreload: {
      // The polyfill only serves browsers without native modulepreload (Firefox before 115, Safari before 17); they
      // still load every chunk, only without fetching a lazy screen's imports ahead. In the entry it cost 0.4 kB.
      polyfill: false,
      // Each lazy import carries the list of chunks to fetch beside it, and Vite puts the imported chunk itself first
      // in it. The import fetches that chunk at once anyway (the preload helper waits only for style sheets, and the
      // lazy chunks have none), so listing it buys nothing, while each name and index costs the entry bytes: 0.9 kB
      // gzip of the first load.
      resolveDependencies: (file, deps) => deps.filter((dep) => dep !== file),
    },
    rollupOptions: {
      output: {
        // Lazy chunks named by their hash alone: the entry lists every lazy chunk's file (the chunks each dynamic
        // import preloads), and the names, unlike the hashes, were 1 kB gzip of the first load. The entry keeps its name.
        // Seven characters (the bundler's minimum for this many chunks, which it checks, and refuses the build below):
        // one character fewer per name, 0.3 kB gzip.
        chunkFileNames: 'assets/[hash:7].js',
        codeSplitting: {
          groups: [
            // Its own chunk, first among the entry's imports: it must run before the code that builds zod schemas.
            { name: 'jitless', test: /\/src\/app\/jitless\.ts$/, priority: 2 },
            // Everything the entry imports statically goes in one chunk with it. Left alone, the bundler splits the
            // modules the entry shares with lazy screens into chunks of their own (zod, xstate, the lifecycle
            // machines), which the first load fetches anyway, and across those chunks it no longer sees that an
            // unused contract schema is free of side effects, so it keeps them.
            { name: 'index', tags: ['$initial'], priority: 1 },
          ],
        },
      },
    },
  },
  test: {
    // Vitest's default for a run is one worker fewer than the cores: one worker on a 2-core machine (CI's), and every
    // file one after the other. The server files spend much of their time waiting on their databases, processes and
    // timers: with a worker per core, a whole run kept the cores busy 54% of the time (765 s of CPU in 710 s on 2
    // cores, beside other runs; 631 s on a quiet machine before); with two per core, 75% (749 s of CPU in 496 s, load
    // 4–5). `--maxWorkers` still overrides it.
    maxWorkers: availableParallelism() * 2,
    projects: [
      {
        extends: true,
        test: {
          ...WEB,
          name: 'web',
          // A worker runs its files one after the other in one module graph (each file still gets a fresh DOM):
          // importing React, the views and their machines again for every file was most of the project's CPU. The
          // whole project on a quiet machine, one run after the other: 131 s of CPU and 67 s in all, against 320 s and
          // 163 s with a module graph per file.
          isolate: false,
          exclude: [...WEB.exclude, ...FRESH_MODULES],
        },
      },
      { extends: true, test: { ...WEB, name: 'web-fresh-modules', include: FRESH_MODULES } },
      {
        extends: true,
        test: {
          name: 'server-pglite',
          environment: 'node',
          // A worker runs its files one after the other in one module graph: importing the server took longer than
          // most files' tests (about half the CPU of a run). Nothing of the server's is mocked, and each file starts
          // servers of its own (own store, data folder, clock), so the modules' own caches are all a file shares.
          isolate: false,
          include: ['tests/server/**/*.test.ts'],
          exclude: [...OWN_CLUSTER, ...S3_ONLY],
          env: { TEST_DB: 'pglite' },
          globalSetup: ['tests/server/pglite.globalSetup.ts', 'tests/server/denoCache.globalSetup.ts'],
          // The store's PGlite runs in the test process: V8's quick wasm compile only, as the project databases'
          // PROJECT_DB_WASM_TIER=baseline in the tests' settings (about half the CPU of a start; the queries are tiny).
          execArgv: ['--liftoff-only'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server-postgres',
          environment: 'node',
          isolate: false, // as server-pglite's
          include: ['tests/server/**/*.test.ts'],
          exclude: [...WITHOUT_STORE, ...S3_ONLY],
          env: { TEST_DB: 'postgres' },
          globalSetup: ['tests/server/postgres.globalSetup.ts', 'tests/server/denoCache.globalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // The same storage tests with objects' bytes in s3rver, an S3-compatible server in the vitest process
          // (s3.globalSetup.ts): the metadata and its store as server-pglite's, only the bytes' backend differs.
          name: 'server-s3',
          environment: 'node',
          isolate: false, // as server-pglite's
          include: [...STORAGE_BYTES, ...S3_ONLY],
          env: { TEST_DB: 'pglite' },
          globalSetup: ['tests/server/pglite.globalSetup.ts', 'tests/server/s3.globalSetup.ts', 'tests/server/denoCache.globalSetup.ts'],
          execArgv: ['--liftoff-only'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
