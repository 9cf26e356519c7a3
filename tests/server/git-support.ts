/**
 * What the git server tests share: a test platform listening on a real port (git needs one), access tokens per
 * demo account, and a `git` client whose configuration is the test's alone (a temporary HOME, no system or global
 * config, no prompt), so the machine's git settings never leak in.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { serve } from '@hono/node-server'
import { CreatedAccessToken } from '../../src/contracts/auth'
import { gitRootFor } from '../../src/server/features/github/host'
import { json, startTestServer, type ConfigOverrides, type TestServer } from './helpers'

export interface GitTestPlatform {
  s: TestServer
  port: number
  base: string
  home: string
  /** A new personal access token of the account signed in with `cookie`. */
  token(cookie: string): Promise<{ id: number; token: string }>
  /** `http://x:<token>@127.0.0.1:<port>/git/<owner>/<repo>.git` */
  remote(token: string | undefined, owner: string, repo: string): string
  /** Runs the git client; never rejects: the exit code and output are the test's to judge. */
  git(args: string[], cwd?: string): Promise<{ code: number; stdout: string; stderr: string }>
  tempDir(): Promise<string>
  close(): Promise<void>
}

export async function startGitPlatform(config: ConfigOverrides = {}): Promise<GitTestPlatform> {
  const s = await startTestServer({ config })
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const srv = serve({ fetch: s.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(srv))
  })
  const port = (server.address() as AddressInfo).port
  s.listeningOn(`http://127.0.0.1:${port}`)
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'kp-git-test-'))
  const home = path.join(scratch, 'home')
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    LANG: 'C',
  }
  let n = 0
  return {
    s,
    port,
    base: `http://127.0.0.1:${port}`,
    home,
    async token(cookie) {
      const res = await s.request('/platform/profile/access-tokens', json({ name: `git test ${++n}` }, { cookie }))
      const body = CreatedAccessToken.parse(await res.json())
      return { id: body.id, token: body.token }
    },
    remote(token, owner, repo) {
      const auth = token === undefined ? '' : `x:${token}@`
      return `http://${auth}127.0.0.1:${port}/git/${owner}/${repo}.git`
    },
    git(args, cwd) {
      return new Promise((resolve) => {
        execFile('git', args, { cwd: cwd ?? scratch, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
          const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0
          resolve({ code, stdout: String(stdout), stderr: String(stderr) })
        })
      })
    },
    tempDir: () => mkdtemp(path.join(scratch, 'w-')),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      const gitRoot = gitRootFor(s.config)
      await s.close()
      // A PostgreSQL store's repositories sit in a shared folder, one subfolder per store: remove this store's.
      await rm(gitRoot, { recursive: true, force: true })
      await rm(scratch, { recursive: true, force: true })
    },
  }
}
