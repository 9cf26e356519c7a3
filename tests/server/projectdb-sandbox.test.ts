/**
 * The people's SQL never runs as a superuser, on either store: through the Management API as the Owner, through the
 * read-only endpoint as a Read-only member, and through a branch migration or seed, Postgres itself refuses what only
 * a superuser may do (42501), however the statement is hidden (`DO $$ … EXECUTE … $$`), and nothing of it happens.
 * The attack that reached the host on PGlite: a WebAssembly side module whose `__em_js__` export carries JavaScript
 * (PGlite's dynamic loader evaluates it when the module is loaded), written into the project folder with
 * `lo_from_bytea` + `lo_export` and loaded with `LOAD`.
 */
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { QueryError } from '../../src/contracts/database'
import { applyMigration, applySeed, StatementFailure } from '../../src/server/features/branching/history'
import { OWNER, READONLY, isPostgres, json, startTestServer, type TestServer } from './helpers'

let s: TestServer
let ref: string
let ownerToken: string
let readonly: string
/** A host folder for what the attacks would leave (PostgreSQL: files the server could write). */
const scratch = path.join(os.tmpdir(), `kp-sandbox-${process.pid}-${Math.random().toString(36).slice(2, 10)}`)

/**
 * A minimal Emscripten side module: a `dylink.0` section first, the main module's memory and `__memory_base`
 * imported, one data segment at `__memory_base` holding `<signature><::><body>`, and a global `__em_js__kp`
 * exported with its address. The loader turns the string into `(…) => <body>;` with eval, so a body of
 * `0; <statements>` runs the statements at load time.
 */
function sideModule(js: string): Uint8Array {
  const enc = new TextEncoder()
  const leb = (n: number) => {
    const out: number[] = []
    do {
      let b = n & 0x7f
      n >>>= 7
      if (n) b |= 0x80
      out.push(b)
    } while (n)
    return out
  }
  const str = (text: string) => {
    const b = [...enc.encode(text)]
    return [...leb(b.length), ...b]
  }
  const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body]
  const payload = [...enc.encode(`()<::>0; ${js}`), 0]
  const memInfo = [...leb(payload.length), 0, 0, 0]
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(0, [...str('dylink.0'), 1, ...leb(memInfo.length), ...memInfo]),
    // imports: env.memory (memory, no maximum), env.__memory_base (immutable i32)
    ...section(2, [2, ...str('env'), ...str('memory'), 2, 0, 0, ...str('env'), ...str('__memory_base'), 3, 0x7f, 0]),
    // one immutable i32 global = 0 (relocated by __memory_base when exported)
    ...section(6, [1, 0x7f, 0, 0x41, 0, 0x0b]),
    ...section(7, [1, ...str('__em_js__kp'), 3, 1]),
    // one active data segment in memory 0 at global.get 0 (__memory_base)
    ...section(11, [1, 0, 0x23, 0, 0x0b, ...leb(payload.length), ...payload]),
  ])
}

/** The project's folder on the host (PGlite). */
const projectFolder = () => path.join(s.config.dataDir, 'projects', ref)
/** Where the database sees a file of its own folder: PGlite mounts it at /pglite/data; PostgreSQL gets a scratch path. */
const serverPath = (name: string) => (isPostgres ? path.join(scratch, name) : `/pglite/data/${name}`)
const hostPath = (name: string) => (isPostgres ? path.join(scratch, name) : path.join(projectFolder(), name))

const post = (url: string, auth: { cookie?: string; token?: string }, query: string) =>
  s.request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(auth.cookie ? { cookie: auth.cookie } : {}),
      ...(auth.token ? { authorization: `Bearer ${auth.token}` } : {}),
    },
    body: JSON.stringify({ query }),
  })

/** The Owner's SQL through `POST /v1/projects/{ref}/database/query`. */
const asOwner = (query: string) => post(`/v1/projects/${ref}/database/query`, { token: ownerToken }, query)
/** A Read-only member's SQL through `POST /v1/projects/{ref}/database/query/read-only`. */
const asReadOnlyMember = (query: string) => post(`/v1/projects/${ref}/database/query/read-only`, { cookie: readonly }, query)

async function refusedCode(res: Response | Promise<Response>): Promise<string> {
  const answer = await res
  const body: unknown = await answer.json()
  expect(answer.status, JSON.stringify(body)).toBe(400)
  return QueryError.parse(body).code ?? ''
}

async function ownerRows(query: string): Promise<Record<string, unknown>[]> {
  const res = await asOwner(query)
  const body: unknown = await res.json()
  if (res.status !== 201) throw new Error(`${res.status}: ${JSON.stringify(body)}`)
  return body as Record<string, unknown>[]
}

/** `statement` hidden from any reading of the text: run by EXECUTE inside a DO block. */
const hidden = (statement: string) => `do $$ begin execute ${literal(statement)}; end $$`
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`

beforeAll(async () => {
  s = await startTestServer()
  await mkdir(scratch, { recursive: true })
  const res = await s.request('/dev/projects', json({ organization_slug: 'demo-pro', name: 'Sandbox', status: 'COMING_UP' }))
  expect(res.status).toBe(201)
  ref = ((await res.json()) as { ref: string }).ref
  s.clock.advance(s.config.lifecycle.comingUpMs)
  await s.engine.runDue()
  const owner = await s.signIn(OWNER)
  readonly = await s.signIn(READONLY)
  const token = await s.request('/platform/profile/access-tokens', {
    method: 'POST',
    headers: { cookie: owner, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'sandbox test' }),
  })
  ownerToken = ((await token.json()) as { token: string }).token
  // The project's database exists once it has answered.
  await ownerRows('create table notes (id int primary key, body text); insert into notes values (1, $$kept$$)')
}, 120_000)

afterAll(async () => {
  await s?.close()
  await rm(scratch, { recursive: true, force: true })
})

describe('a WebAssembly side module carrying JavaScript', () => {
  const marker = () => hostPath('kp-ran')
  const module = () => sideModule(`process.getBuiltinModule('fs').writeFileSync(${JSON.stringify(marker())}, 'ran')`)
  const hex = () => Buffer.from(module()).toString('hex')

  it('cannot be written into the project folder with lo_from_bytea + lo_export (42501)', async () => {
    const attack = `do $$
      declare o oid;
      begin
        o := lo_from_bytea(0, '\\x${hex()}'::bytea);
        perform lo_export(o, ${literal(serverPath('kp.so'))});
        execute ${literal(`load '${serverPath('kp.so')}'`)};
      end $$`
    expect(await refusedCode(asOwner(attack))).toBe('42501')
    expect(existsSync(hostPath('kp.so'))).toBe(false)
    expect(existsSync(marker())).toBe(false)
  })

  it('already in the folder, is refused by LOAD (42501) and nothing of it runs', async () => {
    await writeFile(hostPath('kp-planted.so'), module())
    expect(await refusedCode(asOwner(hidden(`load '${serverPath('kp-planted.so')}'`)))).toBe('42501')
    expect(await refusedCode(asOwner(`load '${serverPath('kp-planted.so')}'`))).toBe('42501')
    expect(existsSync(marker())).toBe(false)
  })
})

describe('what only a superuser may do, refused to the Owner’s SQL (42501)', () => {
  const cases: [string, string][] = [
    ['lo_import of a server file', `select lo_import(${literal(serverPath('PG_VERSION'))})`],
    ['lo_export of a large object', `select lo_export(lo_from_bytea(0, 'x'::bytea), ${literal(serverPath('kp-lo.txt'))})`],
    ['pg_read_file in the data folder', `select pg_read_file('PG_VERSION')`],
    ['pg_read_binary_file', `select pg_read_binary_file('postgresql.auto.conf')`],
    ['pg_ls_dir of the data folder', `select pg_ls_dir('.')`],
    ['the configuration files through pg_file_settings', `select * from pg_file_settings`],
    ['COPY … TO a file, hidden in DO', hidden(`copy (select 1) to '${serverPath('kp-copy.txt')}'`)],
    ['COPY … FROM a file, hidden in DO', hidden(`copy notes from '${serverPath('PG_VERSION')}'`)],
    ['COPY … TO PROGRAM, hidden in DO', hidden(`copy (select 1) to program 'id'`)],
    ['CREATE FUNCTION … LANGUAGE C', `create function kp_c() returns int language c as 'kp', 'kp'`],
    ['CREATE FUNCTION … LANGUAGE internal', `create function kp_i() returns int language internal as 'pg_backend_pid'`],
    ['a setting only a superuser may change', `set allow_system_table_mods = on`],
    ['writing the catalog of roles', `update pg_authid set rolsuper = true where rolname = current_user`],
    ['a new superuser', `create role kp_root superuser`],
    ['a table in pg_catalog', `create table pg_catalog.kp_x (a int)`],
  ]
  for (const [what, statement] of cases) {
    it(what, async () => {
      expect(await refusedCode(asOwner(statement))).toBe('42501')
    })
  }

  it('ALTER SYSTEM changes nothing (each query runs in a transaction; the role may not anyway)', async () => {
    const before = isPostgres ? undefined : readFileSync(path.join(projectFolder(), 'postgresql.auto.conf'), 'utf8')
    expect(['25001', '42501']).toContain(await refusedCode(asOwner(`alter system set shared_preload_libraries = 'kp'`)))
    expect(await refusedCode(asOwner(hidden(`alter system set shared_preload_libraries = 'kp'`)))).toMatch(/^(25001|42501)$/)
    if (before !== undefined) expect(readFileSync(path.join(projectFolder(), 'postgresql.auto.conf'), 'utf8')).toBe(before)
  })

  it('no file was written by any of them', () => {
    for (const name of ['kp-lo.txt', 'kp-copy.txt']) expect(existsSync(hostPath(name)), name).toBe(false)
  })
})

describe('no way back to a superuser', () => {
  it('the session is the project owner, no superuser, and RESET ROLE / SET SESSION AUTHORIZATION DEFAULT keep it', async () => {
    const [me] = await ownerRows(`reset role; set session authorization default;
      select current_user as role, session_user as session, r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolbypassrls
      from pg_roles r where r.rolname = current_user`)
    expect(me).toMatchObject({ rolsuper: false, rolcreaterole: false, rolcreatedb: false, rolbypassrls: false })
    expect(me.session).toBe(me.role)
    // The platform's owner role is named postgres on PGlite, as on the platform; on PostgreSQL each project has its own.
    if (isPostgres) expect(String(me.role)).toMatch(new RegExp(`_p_${ref}$`))
    else expect(me.role).toBe('postgres')
  })

  it('SET ROLE and SET SESSION AUTHORIZATION to a superuser are refused, hidden or not', async () => {
    const supers = (await ownerRows(`select rolname from pg_roles where rolsuper order by rolname`)).map((r) => String(r.rolname))
    expect(supers.length).toBeGreaterThan(0)
    for (const name of supers) {
      const quoted = `"${name.replace(/"/g, '""')}"`
      expect(await refusedCode(asOwner(`set role ${quoted}`)), name).toBe('42501')
      expect(await refusedCode(asOwner(`set session authorization ${quoted}`)), name).toBe('42501')
      expect(await refusedCode(asOwner(hidden(`set session authorization ${quoted}`))), name).toBe('42501')
    }
  })

  it('no role the session may become is a superuser or may read or write server files', async () => {
    const rows = await ownerRows(`select r.rolname from pg_roles r
      where pg_has_role(current_user, r.oid, 'member')
        and (r.rolsuper or r.rolname in ('pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program'))`)
    expect(rows).toEqual([])
  })

  it('the Owner still makes and changes what a project needs, and acts as the API roles', async () => {
    expect(
      await ownerRows(`create function note_count() returns bigint language sql stable as 'select count(*) from notes';
        create schema private; create table private.t (a int);
        set local role anon; select current_user as role`),
    ).toEqual([{ role: 'anon' }])
    expect(await ownerRows(`select note_count() as n`)).toEqual([{ n: 1 }])
  })
})

describe('a Read-only member through the read-only endpoint', () => {
  it('cannot write a file with COPY … TO hidden in a DO block (42501), and the folder keeps its settings', async () => {
    const target = isPostgres ? serverPath('kp-ro.conf') : '/pglite/data/postgresql.auto.conf'
    const before = isPostgres ? undefined : readFileSync(path.join(projectFolder(), 'postgresql.auto.conf'), 'utf8')
    expect(await refusedCode(asReadOnlyMember(hidden(`copy (select 'default_transaction_read_only = on') to '${target}'`)))).toBe('42501')
    if (before !== undefined) expect(readFileSync(path.join(projectFolder(), 'postgresql.auto.conf'), 'utf8')).toBe(before)
    else expect(existsSync(target)).toBe(false)
    expect(await refusedCode(asReadOnlyMember(hidden(`copy (select 1) to '${serverPath('global/pg_control')}'`)))).toBe('42501')
  })

  it('cannot read server files nor export large objects (42501)', async () => {
    expect(await refusedCode(asReadOnlyMember(`select pg_read_file('PG_VERSION')`))).toBe('42501')
    expect(await refusedCode(asReadOnlyMember(`select lo_export(0, ${literal(serverPath('kp-ro.txt'))})`))).toBe('42501')
  })

  it('the Owner still writes afterwards', async () => {
    expect(await ownerRows(`insert into notes values (2, 'after') returning id`)).toEqual([{ id: 2 }])
  })
})

describe('a branch migration and seed run as the owner too', () => {
  async function migrationCode(run: Promise<unknown>): Promise<string | null | undefined> {
    try {
      await run
      return undefined
    } catch (err) {
      return err instanceof StatementFailure ? err.error.code : String(err)
    }
  }

  it('a migration writing a file with COPY hidden in DO fails with 42501 and records nothing', async () => {
    const sql = `create table migrated (a int);\n${hidden(`copy (select 1) to '${serverPath('kp-migration.txt')}'`)};\n`
    const code = await migrationCode(
      s.projectDbs.transaction(ref, { platform: true }, (tx) => applyMigration(tx, { version: '20260101000000', name: 'attack', sql })),
    )
    expect(code).toBe('42501')
    expect(existsSync(hostPath('kp-migration.txt'))).toBe(false)
    expect(await ownerRows(`select to_regclass('public.migrated') is null as absent`)).toEqual([{ absent: true }])
  })

  it('a seed exporting a large object fails with 42501', async () => {
    const sql = `select lo_export(lo_from_bytea(0, 'x'::bytea), ${literal(serverPath('kp-seed.txt'))});\n`
    const code = await migrationCode(s.projectDbs.transaction(ref, { platform: true }, (tx) => applySeed(tx, 'supabase/seed.sql', sql)))
    expect(code).toBe('42501')
    expect(existsSync(hostPath('kp-seed.txt'))).toBe(false)
  })
})
