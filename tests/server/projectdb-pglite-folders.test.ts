/**
 * The PGlite engine's folders, whatever the store (the engine alone, no platform store): a project folder made from
 * the template before it was locked down (its session a superuser, maybe with a superuser role of its people's and a
 * changed postgresql.auto.conf) is locked down when opened, keeping its rows; what a stopped start or creation left
 * is cleared when the template is first used, except a build another live process is making; and the host files of
 * an open project database are private (0600, folders 0700) while it runs, not only once it is closed; and that
 * database runs in a process of its own that Node's permission model keeps to its folder and PGlite's package.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig, repoRoot } from '../../src/server/config'
import { createEngineDatabases } from '../../src/server/projectdb/index'
import type { DatabaseManager } from '../../src/server/projectdb/manager'
import { PGLITE_TEMPLATE_FOLDER, projectProcessArgs } from '../../src/server/projectdb/pglite'
import { TEMPLATE_SQL } from '../../src/server/projectdb/template'
import { ProjectDbError } from '../../src/server/projectdb/types'
import { pgliteTemplate } from './helpers'

const settings = { maxOpen: 2, idleMs: 60_000, queryTimeoutMs: 30_000, slotWaitMs: 60_000, minResidencyMs: 0, wasmTier: 'baseline' as const }
let work: string
let dbs: DatabaseManager | undefined

function engine(root: string, templateCacheDir: string): DatabaseManager {
  dbs = createEngineDatabases(
    { dataDir: work, databaseUrl: undefined, projectDb: { ...settings, templateCacheDir } },
    { root, templateCacheDir },
  )
  return dbs
}

/** Every mode under `dir` (permission bits, octal) and how many entries have it. */
function modes(dir: string): Record<string, number> {
  const seen: Record<string, number> = {}
  const walk = (p: string) => {
    const st = statSync(p)
    const mode = (st.mode & 0o777).toString(8)
    seen[`${st.isDirectory() ? 'd' : 'f'}${mode}`] = (seen[`${st.isDirectory() ? 'd' : 'f'}${mode}`] ?? 0) + 1
    if (st.isDirectory()) for (const name of readdirSync(p)) walk(path.join(p, name))
  }
  walk(dir)
  return seen
}

/** A process id that no process has now: a child that has exited. */
function deadPid(): number {
  const out = execFileSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' })
  return Number(out.trim())
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'kp-pglite-folders-'))
})

afterAll(async () => {
  await dbs?.closeAll()
  await rm(work, { recursive: true, force: true })
})

describe('a folder made before the lock-down', () => {
  it('is locked down when opened: no superuser session, no superuser role left to become, the template settings back, rows kept', async () => {
    const root = path.join(work, 'old-projects')
    await mkdir(root, { recursive: true })
    const dir = path.join(root, 'oldref')
    // What the template used to be (its SQL as the superuser session), and what its people could do as superusers.
    const old = await PGlite.create(dir, { loadDataDir: await pgliteTemplate() })
    await old.exec(TEMPLATE_SQL)
    await old.exec(`create table kept (a int); insert into kept values (7);
      create role kp_root superuser nologin; grant kp_root to postgres;
      grant pg_execute_server_program, pg_write_server_files to postgres;`)
    await old.exec(`alter system set work_mem = '7MB'`)
    const { rows: before } = await old.query<{ rolsuper: boolean }>(`select rolsuper from pg_roles where rolname = session_user`)
    expect(before).toEqual([{ rolsuper: true }])
    await old.close()
    expect(readFileSync(path.join(dir, 'postgresql.auto.conf'), 'utf8')).toContain('7MB')

    const e = engine(root, os.tmpdir())
    const seen = await e.transaction('oldref', {}, async (tx) => ({
      me: (await tx.query(`select current_user as role, rolsuper, rolcreaterole from pg_roles where rolname = session_user`)).rows,
      kept: (await tx.query(`select a from kept`)).rows,
      supers: (await tx.query(`select rolname from pg_roles where rolsuper order by rolname`)).rows,
      member: (await tx.query(`select r.rolname from pg_roles r where pg_has_role(current_user, r.oid, 'member')
        and r.rolname in ('kp_root', 'pg_execute_server_program', 'pg_write_server_files')`)).rows,
      workMem: (await tx.query(`select current_setting('work_mem') as v`)).rows,
    }))
    expect(seen.me).toEqual([{ role: 'postgres', rolsuper: false, rolcreaterole: false }])
    expect(seen.kept).toEqual([{ a: 7 }])
    expect(seen.supers).toEqual([{ rolname: 'supabase_admin' }])
    expect(seen.member).toEqual([])
    expect(seen.workMem).toEqual([{ v: '4MB' }])
    expect(readFileSync(path.join(dir, 'postgresql.auto.conf'), 'utf8')).not.toContain('7MB')
    const refused = await e
      .transaction('oldref', {}, (tx) => tx.exec(`do $$ begin execute 'copy (select 1) to program ''id'''; end $$`))
      .catch((err: unknown) => err)
    expect(refused).toBeInstanceOf(ProjectDbError)
    expect((refused as ProjectDbError).code).toBe('42501')
    await e.closeAll()
    dbs = undefined
  }, 180_000)
})

describe('what a stopped start or creation left', () => {
  it('is cleared when the template is first used; what a live process is making is left alone', async () => {
    // The shared template, made (or found) once, then copied so this cache needs no build of its own.
    const shared = engine(path.join(work, 'unused'), os.tmpdir())
    await shared.prepare()
    await shared.closeAll()
    const cache = path.join(work, 'cache')
    const root = path.join(work, 'projects')
    await mkdir(root, { recursive: true })
    await cp(path.join(os.tmpdir(), PGLITE_TEMPLATE_FOLDER), path.join(cache, PGLITE_TEMPLATE_FOLDER), { recursive: true })
    const stale = path.join(cache, `${PGLITE_TEMPLATE_FOLDER}.partial-${deadPid()}-0a0b0c0d`)
    const otherVersion = path.join(cache, `.kp-projectdb-template-0.0.1-abcdef012345.partial-${deadPid()}-01020304`)
    const building = path.join(cache, `${PGLITE_TEMPLATE_FOLDER}.partial-${process.pid}-0e0f0a0b`)
    const partialRef = path.join(root, `.partial-someref-${deadPid()}-1a2b3c4d`)
    const dropping = path.join(root, `.dropping-someref-${deadPid()}-1a2b3c4d`)
    const creating = path.join(root, `.partial-otherref-${process.pid}-1a2b3c4d`)
    for (const dir of [stale, otherVersion, building, partialRef, dropping, creating]) await mkdir(path.join(dir, 'base'), { recursive: true })

    const e = engine(root, cache)
    await e.prepare()
    expect(existsSync(stale)).toBe(false)
    expect(existsSync(otherVersion)).toBe(false)
    expect(existsSync(partialRef)).toBe(false)
    expect(existsSync(dropping)).toBe(false)
    expect(existsSync(building)).toBe(true)
    expect(existsSync(creating)).toBe(true)
    expect(existsSync(path.join(cache, PGLITE_TEMPLATE_FOLDER, 'PG_VERSION'))).toBe(true)

    await e.create('fresh')
    // While it is open, after writes: PGlite's file layer would have made every file 0666.
    await e.transaction('fresh', {}, (tx) => tx.exec(`create table t (a int); insert into t select generate_series(1, 100)`))
    expect(e.openRefs()).toEqual(['fresh'])
    const open = modes(path.join(root, 'fresh'))
    expect(Object.keys(open).sort()).toEqual(['d700', 'f600'])
    await e.closeAll()
    dbs = undefined
    expect(Object.keys(modes(path.join(cache, PGLITE_TEMPLATE_FOLDER))).sort()).toEqual(['d700', 'f600'])
  }, 180_000)
})

describe('the template cache', () => {
  it('is the projects folder unless PROJECT_DB_TEMPLATE_CACHE_DIR names one, which several servers may share', () => {
    expect(loadConfig({}).projectDb.templateCacheDir).toBeUndefined()
    expect(loadConfig({ PROJECT_DB_TEMPLATE_CACHE_DIR: ' shared-cache ' }).projectDb.templateCacheDir).toBe(path.resolve('shared-cache'))
  })
})

describe('the process a project database runs in', () => {
  it("compiles Postgres with V8's optimizing tier unless PROJECT_DB_WASM_TIER=baseline", () => {
    expect(loadConfig({}).projectDb.wasmTier).toBe('optimizing')
    expect(loadConfig({ PROJECT_DB_WASM_TIER: 'baseline' }).projectDb.wasmTier).toBe('baseline')
    expect(() => loadConfig({ PROJECT_DB_WASM_TIER: 'fast' })).toThrow(/PROJECT_DB_WASM_TIER must be one of optimizing, baseline/)
    expect(projectProcessArgs('/x', 'optimizing')).not.toContain('--liftoff-only')
    expect(projectProcessArgs('/x', 'baseline')).toContain('--liftoff-only')
  })

  it('may read PGlite and its folder and write its folder only, start no process or thread, and has no environment', async () => {
    const dir = await mkdtemp(path.join(work, 'probe-'))
    const outside = path.join(work, 'outside.txt')
    const probe = `
      const fs = require('node:fs'); const out = {};
      const attempt = (name, fn) => { try { fn(); out[name] = 'allowed' } catch (e) { out[name] = e.code ?? String(e) } };
      attempt('writeOwnFolder', () => fs.writeFileSync(${JSON.stringify(path.join(dir, 'ok'))}, 'x'));
      attempt('readPglite', () => fs.readFileSync(${JSON.stringify(path.join(repoRoot, 'node_modules/@electric-sql/pglite/package.json'))}));
      attempt('readOutside', () => fs.readFileSync('/etc/hostname'));
      attempt('readRepository', () => fs.readFileSync(${JSON.stringify(path.join(repoRoot, 'package.json'))}));
      attempt('writeOutside', () => fs.writeFileSync(${JSON.stringify(outside)}, 'x'));
      attempt('childProcess', () => require('node:child_process').execFileSync('/bin/true'));
      attempt('workerThread', () => new (require('node:worker_threads').Worker)('1', { eval: true }));
      out.environment = Object.keys(process.env).length;
      console.log(JSON.stringify(out));`
    const output = execFileSync(process.execPath, [...projectProcessArgs(dir), '-e', probe], { encoding: 'utf8', env: {} })
    expect(JSON.parse(output)).toEqual({
      writeOwnFolder: 'allowed',
      readPglite: 'allowed',
      readOutside: 'ERR_ACCESS_DENIED',
      readRepository: 'ERR_ACCESS_DENIED',
      writeOutside: 'ERR_ACCESS_DENIED',
      childProcess: 'ERR_ACCESS_DENIED',
      workerThread: 'ERR_ACCESS_DENIED',
      environment: 0,
    })
    expect(existsSync(outside)).toBe(false)
  })

  it('is the one an open project database runs in: those arguments, no environment but its IPC channel', async () => {
    const root = path.join(work, 'running')
    const e = engine(root, os.tmpdir())
    await e.create('running')
    await e.transaction('running', {}, (tx) => tx.query('select 1'))
    const children = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map((pid) => {
        try {
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
          const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
          return { pid, ppid, cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'), environ: readFileSync(`/proc/${pid}/environ`, 'utf8') }
        } catch {
          return undefined
        }
      })
      .filter((p) => p && p.ppid === process.pid && p.cmdline.some((a) => a.endsWith('worker.mjs')))
    expect(children).toHaveLength(1)
    const dir = path.join(root, 'running')
    expect(children[0]!.cmdline).toEqual(expect.arrayContaining(projectProcessArgs(dir, 'baseline')))
    // The engine's PROJECT_DB_WASM_TIER reaches the process (the tests' settings ask for the quick compile only).
    expect(children[0]!.cmdline).toContain('--liftoff-only')
    expect(children[0]!.cmdline.some((a) => /^--allow-(child-process|worker|addons|wasi)/.test(a))).toBe(false)
    // Only what fork itself adds for the IPC channel.
    const names = children[0]!.environ.split('\0').filter(Boolean).map((v) => v.split('=')[0])
    expect(names.sort()).toEqual(['NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE'])
    await e.closeAll()
    dbs = undefined
  }, 180_000)
})
