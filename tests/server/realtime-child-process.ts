/**
 * A platform process of its own (a child of the test), on the store the test names: what realtime-processes.test.ts
 * kills without closing (SIGKILL) to see the other processes forget what it relayed. Prints `listening <origin>`.
 * Input (env REALTIME_CHILD, JSON): the store's placement ({ dataDir, databaseUrl }) and realtime overrides.
 */
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createApp } from '../../src/server/app'
import { openDb } from '../../src/server/db'
import { testConfig, type ConfigOverrides } from './testConfig'

const input = JSON.parse(process.env.REALTIME_CHILD ?? '{}') as { placement: { dataDir: string; databaseUrl?: string }; realtime?: ConfigOverrides['realtime'] }
const config = testConfig({ ...input.placement, realtime: input.realtime })
const db = await openDb(config)
const platform = await createApp({ db, config, seed: false })
const server = serve({ fetch: platform.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => {
  const origin = `http://127.0.0.1:${info.port}`
  platform.listeningOn(origin)
  process.stdout.write(`listening ${origin}\n`)
})
server.on('upgrade', platform.upgrade)
