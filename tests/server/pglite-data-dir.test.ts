/**
 * The PGlite data folder holds JWT secrets (tables and WAL). It is created 0700 with files 0600, a
 * folder left world-readable by an older version is fixed on the next start, and files made while running are
 * fixed on close. This tests the PGlite store itself, so it runs the same whatever TEST_DB is.
 */
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { copyDataDir, openPglite } from '../../src/server/db/pglite'

const root = mkdtempSync(path.join(os.tmpdir(), 'kp-perm-'))
const dataDir = path.join(root, 'nested', 'data')
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** Every path under `dir` (itself included) with its permission bits, folders marked with a trailing slash. */
function modes(dir: string): Map<string, number> {
  const out = new Map<string, number>([[`${dir}/`, statSync(dir).mode & 0o777]])
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name)
    if (entry.isDirectory()) out.set(`${full}/`, statSync(full).mode & 0o777)
    else if (entry.isFile()) out.set(full, statSync(full).mode & 0o777)
  }
  return out
}

function expectPrivate(dir: string) {
  const all = modes(dir)
  const wrong = [...all].filter(([p, mode]) => mode !== (p.endsWith('/') ? 0o700 : 0o600))
  expect(wrong.map(([p, mode]) => `${path.relative(dir, p)} ${mode.toString(8)}`)).toEqual([])
  // The WAL (where rotated JWT secrets land first) is among what was checked.
  expect([...all.keys()].some((p) => p.includes(`${path.sep}pg_wal${path.sep}`))).toBe(true)
}

it('a new data folder is 0700 and every file in it 0600, WAL included; a loosened one is fixed on the next open', async () => {
  const db = await openPglite(dataDir)
  await db.exec(`create table secrets (value text); insert into secrets values ('jwt-secret')`)
  expectPrivate(dataDir)
  await db.close()
  expectPrivate(dataDir)

  // An older version left everything world-writable: the next start puts it right.
  for (const p of modes(dataDir).keys()) chmodSync(p.replace(/\/$/, ''), p.endsWith('/') ? 0o777 : 0o666)
  const reopened = await openPglite(dataDir)
  try {
    expectPrivate(dataDir)
    expect((await reopened.query<{ value: string }>('select value from secrets')).rows).toEqual([{ value: 'jwt-secret' }])
    // The store's own buffer pool, not PGlite's 128MB default (createStorePglite).
    expect((await reopened.query<{ shared_buffers: string }>('show shared_buffers')).rows).toEqual([{ shared_buffers: '16MB' }])
  } finally {
    await reopened.close()
  }
}, 120_000) // initdb of a new folder takes seconds, longer on a loaded machine

it('a copy of a data folder (a new project is one) has the same files and bytes, private whatever the source modes', async () => {
  const copy = path.join(root, 'copy')
  // The folder of the test above, loosened as an older version left it.
  for (const p of modes(dataDir).keys()) chmodSync(p.replace(/\/$/, ''), p.endsWith('/') ? 0o777 : 0o666)
  await copyDataDir(dataDir, copy)
  expectPrivate(copy)
  const names = (dir: string) => [...modes(dir).keys()].map((p) => path.relative(dir, p) + (p.endsWith('/') ? '/' : '')).sort()
  expect(names(copy)).toEqual(names(dataDir))
  for (const name of names(dataDir).filter((n) => !n.endsWith('/'))) {
    expect(readFileSync(path.join(copy, name)).equals(readFileSync(path.join(dataDir, name))), name).toBe(true)
  }
  // It opens, with its rows.
  const db = await openPglite(copy)
  try {
    expect((await db.query<{ value: string }>('select value from secrets')).rows).toEqual([{ value: 'jwt-secret' }])
  } finally {
    await db.close()
  }
  // The target must be new: a copy never mixes into a folder that exists.
  await expect(copyDataDir(dataDir, copy)).rejects.toThrow(/EEXIST/)
}, 120_000)
