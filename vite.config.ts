import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'

const serverPort = Number(process.env.API_PORT ?? 8787)

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
    rollupOptions: {
      output: {
        // Its own chunk, first among the entry's imports: it must run before the chunk that builds zod schemas.
        manualChunks: (id) => (id.endsWith('/src/app/jitless.ts') ? 'jitless' : undefined),
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'happy-dom',
          include: ['tests/**/*.test.{ts,tsx}', 'model-tests/**/*.test.{ts,tsx}'],
          exclude: ['tests/server/**', 'tests/e2e/**'],
          setupFiles: ['tests/setup.web.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'server-pglite',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          env: { TEST_DB: 'pglite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server-postgres',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          env: { TEST_DB: 'postgres' },
          globalSetup: ['tests/server/postgres.globalSetup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
})
