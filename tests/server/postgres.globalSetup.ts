/**
 * Global setup of the `server-postgres` vitest project: a real PostgreSQL server for the server tests.
 * DATABASE_URL set → used as is (each test file creates its own database on it).
 * Otherwise a throw-away cluster from Debian's PostgreSQL 15 binaries on a free port, deleted afterwards.
 */
import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import type { TestProject } from 'vitest/node'

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin'

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
  })
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  if (process.env.DATABASE_URL) {
    project.provide('databaseUrl', process.env.DATABASE_URL)
    return
  }
  if (!existsSync(path.join(PG_BIN, 'initdb'))) {
    throw new Error(
      `server-postgres: no DATABASE_URL and no PostgreSQL binaries in ${PG_BIN}. ` +
        'Install them (apt-get install -y postgresql-15) or set DATABASE_URL to a server where the user may CREATE DATABASE.',
    )
  }
  const isRoot = process.getuid?.() === 0
  const base = mkdtempSync('/tmp/kp-pgtest-')
  const dataDir = path.join(base, 'data')
  // As root, PostgreSQL refuses to run: the cluster belongs to the postgres user.
  const run = (cmd: string, args: string[]) =>
    isRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, cmd), ...args], { stdio: 'pipe' })
      : execFileSync(path.join(PG_BIN, cmd), args, { stdio: 'pipe' })
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
    chownSync(base, uid, gid)
  }
  const port = await freePort()
  try {
    run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'])
    const opts = [
      `-p ${port}`,
      `-k ${base}`,
      `-c listen_addresses=127.0.0.1`,
      // A throw-away cluster: durability off for speed.
      `-c fsync=off -c synchronous_commit=off -c full_page_writes=off`,
      `-c max_connections=200`,
    ].join(' ')
    run('pg_ctl', ['-D', dataDir, '-o', opts, '-l', path.join(base, 'server.log'), '-w', '-t', '30', 'start'])
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string }
    rmSync(base, { recursive: true, force: true })
    throw new Error(`server-postgres: could not start a PostgreSQL 15 cluster: ${e.stderr?.toString() || e.message}`)
  }
  project.provide('databaseUrl', `postgres://postgres@127.0.0.1:${port}/postgres`)

  return async () => {
    try {
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop'])
    } finally {
      rmSync(base, { recursive: true, force: true })
    }
  }
}
