/**
 * The official CLI (pinned, pointed at the test server by a profile file) against a project's database through the
 * Postgres port: `link` reads the pooler's connection string, `migration new` + `db push` apply a migration once and
 * record it where `migration list` and the Management API's migration history read it, `inspect db table-stats`
 * answers from the database. The Management API's migrations endpoint applies and records one the same way. The
 * commands on the Management API: secrets set/list/unset, backups list, postgres-config get, network-restrictions
 * get, ssl-enforcement get, gen types typescript and projects api-keys each exit 0 with what the platform has.
 */
import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WireServer } from '../../src/server/features/wire/server'
import { startCliRig, type CliRig } from './cli-support'
import { isPostgres } from './helpers'

const PASSWORD = 'cli-db-password-1'

let rig: CliRig
let wire: WireServer
let origin: string
let ref: string
let token: string
let work: string

const v1 = (p: string) => `${origin}/v1/projects/${ref}${p}`
const bearer = () => ({ authorization: `Bearer ${token}` })
const cli = (args: string[], input?: string) => rig.cli(args, input)

beforeAll(async () => {
  rig = await startCliRig(PASSWORD)
  ;({ wire, origin, ref, token, work } = rig)
}, 120_000)

afterAll(() => rig?.close())

describe('the CLI on the Postgres port', () => {
  it('links, pushes a new migration once, lists it, and inspects the tables', async () => {
    await cli(['init'])
    const linked = await cli(['link', '--project-ref', ref])
    expect(`${linked.stdout}${linked.stderr}`).toMatch(/Finished supabase link/)

    await cli(['migration', 'new', 'create_gadgets'], 'create table public.gadgets (id bigint primary key, label text);\n')
    const [file] = await readdir(path.join(work, 'supabase/migrations'))
    const version = file.split('_')[0]

    // The connection string the pooler endpoint hands out, with the password in its place. (Linked commands would
    // reach the pooler's host on port 5432 only, which the CLI fixes; --db-url names the port.)
    const [pooler] = (await (await fetch(v1('/config/database/pooler'), { headers: bearer() })).json()) as { connection_string: string }[]
    const dbUrl = pooler.connection_string.replace('[YOUR-PASSWORD]', encodeURIComponent(PASSWORD))
    expect(dbUrl).toBe(`postgresql://postgres.${ref}:${PASSWORD}@127.0.0.1:${wire.port}/postgres?sslmode=disable`)

    const pushed = await cli(['db', 'push', '--yes', '--db-url', dbUrl])
    expect(`${pushed.stdout}${pushed.stderr}`).toMatch(/Applying migration/)
    const again = await cli(['db', 'push', '--yes', '--db-url', dbUrl])
    expect(`${again.stdout}${again.stderr}`).toMatch(/Remote database is up to date/)

    const listed = await cli(['migration', 'list', '--db-url', dbUrl])
    expect(listed.stdout).toMatch(new RegExp(`\`?${version}\`?\\s*\\|\\s*\`?${version}\`?`))

    const history = (await (await fetch(v1('/database/migrations'), { headers: bearer() })).json()) as { version: string; name?: string }[]
    expect(history).toContainEqual({ version, name: 'create_gadgets' })

    const stats = await cli(['inspect', 'db', 'table-stats', '--db-url', dbUrl])
    expect(stats.stdout).toMatch(/gadgets/)
  }, 300_000)

  it('inspect db calls and outliers read the statements pg_stat_statements counted (PGlite; PostgreSQL needs it preloaded)', async () => {
    const [pooler] = (await (await fetch(v1('/config/database/pooler'), { headers: bearer() })).json()) as { connection_string: string }[]
    const dbUrl = pooler.connection_string.replace('[YOUR-PASSWORD]', encodeURIComponent(PASSWORD))
    const client = new pg.Client({ connectionString: dbUrl })
    await client.connect()
    // Heavy enough to be among the ten slowest statements outliers lists, whatever ran before it.
    const statement = 'select count(*) as inspected_recipes from public.recipes r, generate_series(1, 50000) g where r.servings > $1 and g > $1'
    for (let i = 0; i < 7; i++) await client.query(statement, [i])
    const { rows: settings } = await client.query<{ tz: string; lc: string }>(`select current_setting('TimeZone') as tz, current_setting('lc_messages') as lc`)
    await client.end()
    const args = (command: string) => ['inspect', 'db', command, '--db-url', dbUrl]
    if (isPostgres) {
      // The test cluster starts without shared_preload_libraries = 'pg_stat_statements': the CLI says what is missing.
      const refused = await cli(args('calls')).then(
        () => 'exit 0',
        (err: { stdout: string; stderr: string }) => `${err.stdout}${err.stderr}`,
      )
      expect(refused).toMatch(/pg_stat_statements/)
      return
    }
    // Preloading it kept the cluster's own configuration (PGlite rewrites postgresql.conf when it preloads a library).
    expect(settings).toEqual([{ tz: 'UTC', lc: 'C' }])
    const calls = await cli(args('calls'))
    const line = calls.stdout.split('\n').find((l) => l.includes('inspected_recipes'))
    expect(line, calls.stdout).toBeDefined()
    expect(line).toMatch(/\b7\b/)
    const outliers = await cli(args('outliers'))
    expect(outliers.stdout).toMatch(/inspected_recipes/)
  }, 120_000)
})

describe('the CLI reads the database settings', () => {
  it('ssl-enforcement, network-restrictions and backups answer what is true of the port', async () => {
    const ssl = await cli(['ssl-enforcement', 'get', '--project-ref', ref, '--experimental'])
    expect(`${ssl.stdout}${ssl.stderr}`).toContain("SSL is *NOT* being enforced")
    const net = await cli(['network-restrictions', 'get', '--project-ref', ref, '--experimental'])
    expect(net.stdout).toMatch(/0\.0\.0\.0\/0/)
    const backups = await cli(['backups', 'list', '--project-ref', ref])
    expect(backups.stdout).toMatch(/PITR/i)
  }, 120_000)
})

describe('the CLI on the Management API', () => {
  it('secrets set, list and unset: values never shown, a digest instead', async () => {
    const set = await cli(['secrets', 'set', 'CLI_GREETING=hello-from-cli', 'CLI_OTHER=two', '--project-ref', ref])
    expect(`${set.stdout}${set.stderr}`).toMatch(/Finished supabase secrets set/)
    const listed = await cli(['secrets', 'list', '--project-ref', ref])
    expect(listed.stdout).toMatch(/CLI_GREETING/)
    expect(listed.stdout).toMatch(/CLI_OTHER/)
    expect(listed.stdout).not.toContain('hello-from-cli')
    // The digest the CLI shows is the SHA-256 of the value, as the platform's.
    const { createHash } = await import('node:crypto')
    expect(listed.stdout).toContain(createHash('sha256').update('hello-from-cli').digest('hex'))
    const unset = await cli(['secrets', 'unset', 'CLI_GREETING', '--project-ref', ref, '--yes'])
    expect(`${unset.stdout}${unset.stderr}`).toMatch(/Finished supabase secrets unset/)
    const after = await cli(['secrets', 'list', '--project-ref', ref])
    expect(after.stdout).not.toMatch(/CLI_GREETING/)
    expect(after.stdout).toMatch(/CLI_OTHER/)
  }, 120_000)

  it('functions download --use-api writes the deployed files, folders kept, from the multipart body', async () => {
    const deployed = new FormData()
    deployed.append('metadata', JSON.stringify({ entrypoint_path: 'index.ts', name: 'fetched' }))
    deployed.append('file', new Blob([`import { word } from './shared/word.ts'\nDeno.serve(() => new Response(word))`]), 'index.ts')
    deployed.append('file', new Blob([`export const word = 'fetched'`]), 'shared/word.ts')
    const made = await fetch(`${v1('/functions/deploy')}?slug=fetched`, { method: 'POST', headers: bearer(), body: deployed })
    expect(made.status).toBe(201)
    await cli(['functions', 'download', 'fetched', '--use-api', '--project-ref', ref])
    const folder = path.join(work, 'supabase/functions/fetched')
    expect(await readFile(path.join(folder, 'index.ts'), 'utf8')).toBe(`import { word } from './shared/word.ts'\nDeno.serve(() => new Response(word))`)
    expect(await readFile(path.join(folder, 'shared/word.ts'), 'utf8')).toBe(`export const word = 'fetched'`)
  }, 120_000)

  it('postgres-config get prints the settings the engine runs with', async () => {
    const config = (await (await fetch(v1('/config/database/postgres'), { headers: bearer() })).json()) as { work_mem: string; max_connections: number }
    const got = await cli(['postgres-config', 'get', '--project-ref', ref, '--experimental'])
    expect(got.stdout).toMatch(new RegExp(`work_mem\\s*\\|\\s*${config.work_mem}`))
    expect(got.stdout).toMatch(new RegExp(`max_connections\\s*\\|\\s*${config.max_connections}`))
  }, 60_000)

  it('gen types typescript reads the project database; projects api-keys prints its keys', async () => {
    const types = await cli(['gen', 'types', 'typescript', '--project-id', ref])
    expect(types.stdout).toMatch(/export type Database = \{/)
    expect(types.stdout).toMatch(/recipes: \{/)
    const keys = (await (await fetch(v1('/api-keys'), { headers: bearer() })).json()) as { name: string; api_key: string }[]
    const anon = keys.find((k) => k.name === 'anon')!
    const printed = await cli(['projects', 'api-keys', '--project-ref', ref])
    expect(printed.stdout).toMatch(/anon/)
    expect(printed.stdout).toContain(anon.api_key)
  }, 60_000)
})

describe('the Management API migrations', () => {
  it('applies a migration once, records it, and refuses bad input', async () => {
    const apply = (body: unknown) =>
      fetch(v1('/database/migrations'), { method: 'POST', headers: { ...bearer(), 'content-type': 'application/json' }, body: JSON.stringify(body) })
    const res = await apply({ query: 'create table public.widgets (id bigint primary key);', name: 'create_widgets' })
    expect(res.status).toBe(200)
    const history = (await (await fetch(v1('/database/migrations'), { headers: bearer() })).json()) as { version: string; name?: string }[]
    const entry = history.find((m) => m.name === 'create_widgets')!
    expect(entry.version).toMatch(/^\d{14}$/)

    const c = new pg.Client({ connectionString: `postgresql://postgres.${ref}:${PASSWORD}@127.0.0.1:${wire.port}/postgres` })
    await c.connect()
    try {
      const { rows } = await c.query<{ statements: string[] }>(`select statements from supabase_migrations.schema_migrations where version = $1`, [entry.version])
      expect(rows[0].statements).toEqual(['create table public.widgets (id bigint primary key);'])
      expect((await c.query(`select to_regclass('public.widgets') is not null as made`)).rows).toEqual([{ made: true }])
    } finally {
      await c.end()
    }

    // A failing migration is not recorded and leaves nothing behind.
    const failed = await apply({ query: 'create table public.half (id int); select * from nowhere;', name: 'broken' })
    expect(failed.status).toBe(400)
    expect(await failed.json()).toMatchObject({ message: expect.stringMatching(/nowhere/) })
    const after = (await (await fetch(v1('/database/migrations'), { headers: bearer() })).json()) as { name?: string }[]
    expect(after.map((m) => m.name)).not.toContain('broken')

    expect((await apply({ query: '' })).status).toBe(400)
    expect((await apply({ name: 'no query' })).status).toBe(400)
  }, 60_000)
})
