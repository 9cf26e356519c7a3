/**
 * Global setup of the `server-s3` vitest project: an S3-compatible server in this process (s3rver, on a free
 * loopback port, its objects in a temp folder), with one bucket and a key pair whose secret has the characters a URL
 * must percent-encode. Every test server of the project keeps its objects there, each under a prefix of its own
 * (helpers.ts), so the storage tests run against this backend as they do against the disk.
 */
import { createRequire } from 'node:module'
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import S3rver from 's3rver'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** STORAGE_S3_URL of the run's S3-compatible server, without a prefix. */
    storageS3Url: string
  }
}

export const TEST_S3_ACCESS_KEY = 'platform-tests'
/** A secret as real ones are: with '/' and '+', which the URL carries percent-encoded. */
export const TEST_S3_SECRET = 'test/Secret+Key=for-s3rver-0123456789'
const BUCKET = 'platform-objects'

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kp-s3rver-'))
  // s3rver checks signatures against its accounts: the dummy account gets this run's key pair.
  const { DUMMY_ACCOUNT } = createRequire(import.meta.url)('s3rver/lib/models/account') as {
    DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void }
  }
  DUMMY_ACCOUNT.createKeyPair(TEST_S3_ACCESS_KEY, TEST_S3_SECRET)
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: BUCKET, configs: [] }] })
  const { port } = await server.run()
  project.provide('storageS3Url', `http://${TEST_S3_ACCESS_KEY}:${encodeURIComponent(TEST_S3_SECRET)}@127.0.0.1:${port}/${BUCKET}?region=us-east-1`)
  return async () => {
    await server.close()
    await rm(dir, { recursive: true, force: true })
  }
}
