import { PGlite } from '@electric-sql/pglite'
import fs from 'node:fs'
const base = await PGlite.create(); const dump = await base.dumpDataDir('none'); await base.close()
const T = async (label, opts) => { const t = performance.now(); const p = await PGlite.create({ loadDataDir: dump, ...opts }); await p.query('select 1'); const d = performance.now() - t; console.log(label, Math.round(d)); return p }
await T('loadDataDir 1', {})
await T('loadDataDir 2', {})
const wasm = await WebAssembly.compile(fs.readFileSync(process.cwd() + '/node_modules/@electric-sql/pglite/dist/pglite.wasm'))
const fsBundle = new Blob([fs.readFileSync(process.cwd() + '/node_modules/@electric-sql/pglite/dist/pglite.data')])
await T('with module+bundle 1', { pgliteWasmModule: wasm, fsBundle })
await T('with module+bundle 2', { pgliteWasmModule: wasm, fsBundle })
