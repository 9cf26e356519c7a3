/**
 * A throw-away PostgreSQL 15 cluster from Debian's server binaries, on a free loopback port: the server tests'
 * real PostgreSQL (postgres.globalSetup.ts) and the benches'. Durability off: its data is thrown away.
 * As root, the cluster runs as the postgres user, since PostgreSQL refuses to run as root.
 */
import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { createServer } from 'node:net'
import pg from 'pg'

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin'

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

export interface PgCluster {
  url: string
  stop(): void
}

/** One client of the database at `url` for the length of `fn`, ended whatever `fn` does. */
export async function withPgClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}

export function hasPostgres(): boolean {
  return existsSync(path.join(PG_BIN, 'initdb'))
}

export async function startPgCluster(): Promise<PgCluster> {
  const isRoot = process.getuid?.() === 0
  const base = mkdtempSync('/tmp/dashboard-pg-')
  const dataDir = path.join(base, 'data')
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
    // The superuser the tests connect as needs no password; every other role logs in with its password, as on a real
    // server, so a test can tell a wrong password from a refused database.
    writeFileSync(
      path.join(dataDir, 'pg_hba.conf'),
      ['local all all trust', 'host all postgres 127.0.0.1/32 trust', 'host all all 127.0.0.1/32 scram-sha-256', ''].join('\n'),
    )
    const opts = [`-p ${port}`, `-k ${base}`, '-c listen_addresses=127.0.0.1', '-c fsync=off -c synchronous_commit=off -c full_page_writes=off', '-c max_connections=300'].join(' ')
    run('pg_ctl', ['-D', dataDir, '-o', opts, '-l', path.join(base, 'server.log'), '-w', '-t', '30', 'start'])
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string }
    rmSync(base, { recursive: true, force: true })
    throw new Error(`could not start a PostgreSQL 15 cluster: ${e.stderr?.toString() || e.message}`)
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(base, { recursive: true, force: true })
      }
    },
  }
}
