/**
 * What the tests of the official CLI share: a test server on a loopback port with a Postgres port of its own, the
 * demo owner's access token, Recipe Box's database password set, its database made (seconds on PGlite, before the
 * CLI's 10 s connect time-out runs), and the CLI (the pinned binary) run in a temporary home with a profile file
 * pointing at the server.
 */
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { repoRoot } from '../../src/server/config'
import { startWireServer, type WireServer } from '../../src/server/features/wire/server'
import { listenOnPort, OWNER, projectByName, startTestServer, type TestServer } from './helpers'

const run = promisify(execFile)

export interface CliRig {
  s: TestServer
  wire: WireServer
  origin: string
  ref: string
  token: string
  /** The folder the CLI runs in (its project folder). */
  work: string
  /** Recipe Box's database through the Postgres port, as a client is given it. */
  dbUrl: string
  /** Runs the CLI with `input` on its standard input (closed at once without: `migration new` reads a pipe to its end). */
  cli(args: string[], input?: string): Promise<{ stdout: string; stderr: string }>
  close(): Promise<void>
}

export async function startCliRig(password: string): Promise<CliRig> {
  const s = await startTestServer()
  const { origin, close } = await listenOnPort(s)
  const wire = await startWireServer({ db: s.db, projectDbs: s.projectDbs, config: { ...s.config, wire: { ...s.config.wire, port: 0 } } })
  const ref = (await projectByName(s, 'Recipe Box')).ref
  const cookie = await s.signIn(OWNER)
  const made = await s.request('/platform/profile/access-tokens', {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'cli' }),
  })
  const { token } = (await made.json()) as { token: string }
  const reset = await fetch(`${origin}/v1/projects/${ref}/database/password`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  })
  if (reset.status !== 200) throw new Error(`setting the database password answered ${reset.status}: ${await reset.text()}`)
  const dbUrl = `postgresql://postgres.${ref}:${encodeURIComponent(password)}@127.0.0.1:${wire.port}/postgres?sslmode=disable`
  const warm = new pg.Client({ connectionString: dbUrl })
  await warm.connect()
  await warm.query('select 1')
  await warm.end()
  const home = await mkdtemp(path.join(os.tmpdir(), 'kp-cli-'))
  const work = path.join(home, 'app')
  await mkdir(work, { recursive: true })
  const profile = path.join(home, 'profile.yaml')
  await writeFile(profile, `name: local\napi_url: ${origin}\ndashboard_url: ${origin}\nproject_host: localhost\npooler_host: localhost\n`)
  return {
    s,
    wire,
    origin,
    ref,
    token,
    work,
    dbUrl,
    cli(args, input = '') {
      const running = run(path.join(repoRoot, 'node_modules/@supabase/cli-linux-x64/bin/supabase'), [...args, '--profile', profile], {
        cwd: work,
        env: {
          PATH: process.env.PATH,
          HOME: home,
          SUPABASE_ACCESS_TOKEN: token,
          SUPABASE_DB_PASSWORD: password,
          SUPABASE_TELEMETRY_DISABLED: '1',
          DO_NOT_TRACK: '1',
        },
        timeout: 90_000,
      })
      running.child.stdin?.end(input)
      return running
    },
    async close() {
      await wire.close()
      await close()
      await s.close()
      await rm(home, { recursive: true, force: true })
    },
  }
}
