/**
 * The API docs' table, view and function snippets run against the project's real REST endpoint, in both languages:
 * the JavaScript with @supabase/supabase-js (AsyncFunction with `supabase` in scope, the client's fetch recording
 * each answer), the Bash with bash + curl (a `curl` shell function adds -s and -w to print the status). For every
 * relation and function of every ACTIVE_HEALTHY demo project, with the anon key and with the service_role key, both
 * languages must answer the same status and the same rows.
 *
 * Writes (insert, update, delete, VOLATILE functions) run from the same starting state in both languages: after
 * each run, the project's public tables and sequences are compared with the state read at the start, and when they
 * differ they are put back with SQL as the project owner (truncate, re-insert in foreign-key order, setval).
 *
 * The docs come as the dashboard gets them: the REST schema from GET /platform/projects/{ref}/api/rest and the keys
 * from the project settings, read as the Owner; the model from docsFromRestSchema.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { createClient, type RealtimeChannel } from '@supabase/supabase-js'
import { parse as parseShell } from 'shell-quote'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { docsFromRestSchema, type RestDocs } from '../../machines/restDocs'
import { RestSchemaResponse } from '../../src/contracts/rest'
import type { FunctionResponse } from '../../src/contracts/functions'
import { ProjectSettings } from '../../src/contracts/keys'
import type { Bucket } from '../../src/contracts/storage'
import {
  authSnippets,
  bucketSnippets,
  connectSnippets,
  edgeFunctionSnippets,
  functionSnippets,
  REALTIME_CLEANUP_TEXT,
  realtimeSnippets,
  tableSnippets,
} from '../../src/views/project/apiDocs/snippets'
import { AUTH_EXAMPLES } from '../../src/views/project/apiDocs/snippets/examples'
import { KEY_PLACEHOLDERS, type Snippet, type SnippetContext } from '../../src/views/project/apiDocs/snippets/types'
import { OWNER, startTestServer, type TestServer } from './helpers'

const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<unknown>

let s: TestServer
let server: ReturnType<typeof serve>
let origin: string
let cookie: string

interface Answer {
  status: number
  body: unknown
}

interface Project {
  ref: string
  name: string
  keys: { anon: string; service: string }
}

beforeAll(async () => {
  s = await startTestServer()
  server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const srv = serve({ fetch: s.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(srv))
  })
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  s.listeningOn(origin)
  cookie = await s.signIn(OWNER)
  bash = new BashSession()
}, 120_000)

afterAll(async () => {
  bash?.close()
  await new Promise<void>((resolve) => server?.close(() => resolve()))
  await s?.close()
})

async function platform(path: string): Promise<Response> {
  return fetch(`${origin}/platform${path}`, { headers: { cookie } })
}

async function keysOf(ref: string): Promise<Project['keys']> {
  const res = await platform(`/props/project/${ref}/settings`)
  expect(res.status).toBe(200)
  const settings = ProjectSettings.parse(await res.json())
  const all = settings.services.flatMap((svc) => svc.service_api_keys)
  const anon = all.find((k) => k.tags === 'anon')?.api_key
  const service = all.find((k) => k.tags === 'service_role')?.api_key
  if (!anon || !service) throw new Error(`project ${ref} shows no anon or service_role key to its Owner`)
  return { anon, service }
}

async function docsOf(ref: string): Promise<RestDocs> {
  // Create the project's database (and its demo schema) before the dashboard's first schema read.
  await s.projectDbs.transaction(ref, { role: 'postgres', readOnly: true }, (tx) => tx.query('select 1'))
  const res = await platform(`/projects/${ref}/api/rest`)
  expect(res.status).toBe(200)
  return docsFromRestSchema(RestSchemaResponse.parse(await res.json()))
}

const parseBody = (text: string): unknown => (text === '' ? null : JSON.parse(text))

/** The JavaScript of a snippet with a supabase-js client on the project URL; the answer of its one request. */
async function runJs(code: string, project: Project, key: string): Promise<Answer & { method: string; path: string }> {
  const answers: Array<Answer & { method: string; path: string }> = []
  const recording: typeof fetch = async (input, init) => {
    const res = await fetch(input, init)
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url)
    answers.push({ status: res.status, body: parseBody(await res.clone().text()), method: init?.method ?? 'GET', path: url.pathname })
    return res
  }
  const supabase = createClient(`${origin}/p/${project.ref}`, key, {
    global: { fetch: recording },
    // Node 20 has no global WebSocket: supabase-js asks for a transport even when realtime is never used.
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  })
  await new AsyncFunction('supabase', code)(supabase)
  expect(answers, code).toHaveLength(1)
  return answers[0]
}

/**
 * One bash process for the whole file, reading commands on its stdin: a process costs a tenth of a second to spawn
 * from a test worker, and bash forks curl cheaply. A `curl` function wraps the real one with -s and -w to print the
 * status on a line of its own; each snippet's output ends with a separator line.
 */
class BashSession {
  private readonly child: ChildProcessWithoutNullStreams
  private buffer = ''
  private readonly separator = `--- end of snippet ${Math.random().toString(36).slice(2)} ---`
  private wake: (() => void) | undefined
  private exited = false

  constructor() {
    this.child = spawn('bash', [], { stdio: 'pipe' })
    this.child.stdout.setEncoding('utf8')
    this.child.stdout.on('data', (d: string) => {
      this.buffer += d
      this.wake?.()
    })
    this.child.on('exit', () => {
      this.exited = true
      this.wake?.()
    })
    this.child.stdin.write(`curl() { command curl -s -w '\\n%{http_code}' "$@"; }\n`)
  }

  /** Runs one snippet; its stdout (without the separator). */
  async run(code: string): Promise<string> {
    this.child.stdin.write(`${code}\necho; echo '${this.separator}'\n`)
    const end = `\n${this.separator}\n`
    while (!this.buffer.includes(end)) {
      if (this.exited) throw new Error(`bash exited while running: ${code}`)
      await new Promise<void>((resolve) => (this.wake = resolve))
    }
    const cut = this.buffer.indexOf(end)
    const out = this.buffer.slice(0, cut)
    this.buffer = this.buffer.slice(cut + end.length)
    return out
  }

  close() {
    this.child.stdin.end()
  }
}

let bash: BashSession

/** The Bash of a snippet: curl's answer and status. */
async function runBash(code: string): Promise<Answer> {
  const out = await bash.run(code)
  const cut = out.lastIndexOf('\n')
  return { status: Number(out.slice(cut + 1)), body: parseBody(out.slice(0, cut)) }
}

/** Method and decoded path of a curl command (shell-quote splits it as the shell would). */
function curlTarget(code: string): { method: string; path: string } {
  const words = parseShell(code.replace(/\\\n/g, ' ')).filter((w): w is string => typeof w === 'string')
  const x = words.indexOf('-X')
  const url = words.find((w) => w.startsWith('http'))
  if (!url) throw new Error(`no URL in ${code}`)
  return { method: x >= 0 ? words[x + 1] : 'GET', path: new URL(url).pathname }
}

const decodedPath = (path: string) => path.split('/').map(decodeURIComponent)

// ---------------------------------------------------------------------------------------------------------------
// The project's state: read, compared, put back

type Tx = Parameters<Parameters<TestServer['projectDbs']['transaction']>[2]>[0]

/** A query's rows, typed as the caller says (the project database answers untyped rows). */
async function typed<T>(tx: Tx, sql: string, params?: unknown[]): Promise<{ rows: T[] }> {
  return { rows: (await tx.query(sql, params)).rows as T[] }
}

interface DbState {
  /** Each table's rows as JSON text, in their physical order (a restore keeps it, so unordered reads stay the same). */
  tables: Record<string, string[]>
  sequences: Record<string, string | null>
}

async function readState(ref: string): Promise<DbState> {
  return s.projectDbs.transaction(ref, { role: 'postgres', readOnly: true }, async (tx) => {
    const { rows: rels } = await typed<{ reg: string }>(
      tx,
      `select c.oid::regclass::text as reg from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
    )
    const tables: DbState['tables'] = {}
    for (const { reg } of rels) {
      const { rows } = await typed<{ row: string }>(tx, `select to_jsonb(t)::text as row from ${reg} t order by ctid`)
      tables[reg] = rows.map((r) => r.row)
    }
    const { rows: seqs } = await typed<{ seq: string; last: string | null }>(
      tx,
      `select c.oid::regclass::text as seq, pg_sequence_last_value(c.oid)::text as last from pg_class c
       join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'S' order by 1`,
    )
    return { tables, sequences: Object.fromEntries(seqs.map((r) => [r.seq, r.last])) }
  })
}

/** Puts the public tables and sequences back as `state` holds them (as the owner, whom row level security lets be). */
async function restoreState(ref: string, state: DbState): Promise<void> {
  await s.projectDbs.transaction(ref, { role: 'postgres' }, async (tx) => {
    const regs = Object.keys(state.tables)
    const { rows: fks } = await typed<{ child: string; parent: string }>(
      tx,
      `select conrelid::regclass::text as child, confrelid::regclass::text as parent from pg_constraint
       where contype = 'f' and conrelid <> confrelid and connamespace = 'public'::regnamespace`,
    )
    const ordered: string[] = []
    const visit = (reg: string) => {
      if (ordered.includes(reg)) return
      for (const fk of fks) if (fk.child === reg && regs.includes(fk.parent)) visit(fk.parent)
      ordered.push(reg)
    }
    regs.forEach(visit)
    if (regs.length) await tx.query(`truncate ${regs.join(', ')}`)
    for (const reg of ordered) {
      const rows = state.tables[reg]
      if (rows.length === 0) continue
      await tx.query(`insert into ${reg} overriding system value select * from jsonb_populate_recordset(null::${reg}, $1::jsonb)`, [
        `[${rows.join(',')}]`,
      ])
    }
    for (const [seq, last] of Object.entries(state.sequences)) {
      if (last === null) {
        await tx.query(`select setval($1::regclass, (select start_value from pg_sequences where format('%I.%I', schemaname, sequencename)::regclass = $1::regclass), false)`, [seq])
      } else {
        await tx.query('select setval($1::regclass, $2::bigint, true)', [seq, last])
      }
    }
  })
}

/**
 * Columns whose default changes between two inserts (now(), gen_random_uuid() …), by table; and by VOLATILE function,
 * those of the table its result rows are (rate_recipe answers the ratings row it wrote, created_at = now()).
 */
async function volatileDefaults(ref: string): Promise<{ tables: Record<string, string[]>; functions: Record<string, string[]> }> {
  return s.projectDbs.transaction(ref, { role: 'postgres', readOnly: true }, async (tx) => {
    const { rows } = await typed<{ rel: string; col: string }>(
      tx,
      `select c.relname as rel, a.attname as col from pg_attrdef d
       join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
       join pg_class c on c.oid = d.adrelid
       where c.relnamespace = 'public'::regnamespace
         and pg_get_expr(d.adbin, d.adrelid) ~ '(now|clock_timestamp|statement_timestamp|gen_random_uuid|random)\\('`,
    )
    const tables: Record<string, string[]> = {}
    for (const r of rows) (tables[r.rel] ??= []).push(r.col)
    const { rows: fns } = await typed<{ fn: string; rel: string }>(
      tx,
      `select p.proname as fn, c.relname as rel from pg_proc p join pg_type t on t.oid = p.prorettype
       join pg_class c on c.oid = t.typrelid where p.pronamespace = 'public'::regnamespace and p.provolatile = 'v'`,
    )
    const functions = Object.fromEntries(fns.filter((f) => tables[f.rel]).map((f) => [f.fn, tables[f.rel]]))
    return { tables, functions }
  })
}

// ---------------------------------------------------------------------------------------------------------------
// Running every snippet

interface Outcome {
  entity: string
  snippet: string
  key: 'anon' | 'service'
  status: number
  body: unknown
}

interface Job {
  entity: string
  /** Columns left out of the answers of its writing snippets (see below). */
  volatileColumns: string[]
  /** Whether a snippet may change the database: it then runs alone, and the state is put back after it. */
  mayWrite: (id: string) => boolean
  snippets: (ctx: SnippetContext) => Snippet[]
}

/**
 * Runs every snippet of the given tables and functions in both languages with both keys; the languages must agree.
 * Returns what each answered (the same in both), for the caller's own checks. The reads run one after the other,
 * checked afterwards to have changed nothing; a write runs in each language from the starting state.
 */
async function runAll(project: Project, docs: RestDocs, baseline: DbState): Promise<Outcome[]> {
  const volatile = await volatileDefaults(project.ref)
  const outcomes: Outcome[] = []
  const jobs: Job[] = [
    ...docs.tables.map((t) => ({
      entity: t.name,
      volatileColumns: volatile.tables[t.name] ?? [],
      mayWrite: (id: string) => /^(insert|update|delete)-/.test(id),
      snippets: (ctx: SnippetContext) => tableSnippets(t, ctx),
    })),
    ...docs.functions.map((f) => ({
      entity: `rpc ${f.name}`,
      volatileColumns: volatile.functions[f.name] ?? [],
      // A function without GET is VOLATILE: it may write.
      mayWrite: () => !f.hasGet,
      snippets: (ctx: SnippetContext) => functionSnippets(f, ctx),
    })),
  ]
  for (const keyName of ['anon', 'service'] as const) {
    const key = project.keys[keyName]
    // The snippets carry the key a person sees in place of the anon key: the service key for the second round.
    const ctx: SnippetContext = { projectUrl: `${origin}/p/${project.ref}`, anonKey: key, serviceKey: project.keys.service }
    const all = jobs.flatMap((job) =>
      job
        .snippets(ctx)
        .filter((sn): sn is Snippet & { js: string; bash: string } => sn.js !== null && sn.bash !== null)
        .map((snippet) => ({ job, snippet, label: `${project.name} · ${job.entity} · ${snippet.id} · ${keyName}` })),
    )
    const reads = all.filter((x) => !x.job.mayWrite(x.snippet.id))
    for (const r of reads) outcomes.push(compare(r.job, r.snippet, r.label, keyName, await runJs(r.snippet.js, project, key), await runBash(r.snippet.bash)))
    expect(await readState(project.ref), `${project.name}: the reads changed nothing`).toEqual(baseline)

    for (const w of all.filter((x) => x.job.mayWrite(x.snippet.id))) {
      const js = await runJs(w.snippet.js, project, key)
      await putBack(project.ref, baseline, w.label)
      const sh = await runBash(w.snippet.bash)
      await putBack(project.ref, baseline, w.label)
      outcomes.push(compare(w.job, w.snippet, w.label, keyName, js, sh))
    }
  }
  return outcomes
}

/** The two languages' answers must agree: status, rows, method and path. */
function compare(job: Job, snippet: Snippet & { bash: string }, label: string, key: Outcome['key'], js: Answer & { method: string; path: string }, sh: Answer): Outcome {
  // Rows written by the snippet differ between the two runs only in columns whose defaults are volatile
  // (created_at = now(), a random uuid): those are the only ones left out, only from the answers of writing
  // snippets (inserts, VOLATILE functions returning such rows) — every other answer is compared whole.
  const drop = (row: unknown) =>
    row !== null && typeof row === 'object' && !Array.isArray(row)
      ? Object.fromEntries(Object.entries(row).filter(([k]) => !job.volatileColumns.includes(k)))
      : row
  const strip = (body: unknown) =>
    job.mayWrite(snippet.id) && job.volatileColumns.length ? (Array.isArray(body) ? body.map(drop) : drop(body)) : body
  expect({ status: sh.status, body: strip(sh.body) }, label).toEqual({ status: js.status, body: strip(js.body) })
  const target = curlTarget(snippet.bash)
  expect({ method: target.method, path: decodedPath(target.path) }, label).toEqual({ method: js.method, path: decodedPath(js.path) })
  return { entity: job.entity, snippet: snippet.id, key, status: js.status, body: js.body }
}

/** After a snippet: the state as it was at the start, put back with SQL when the snippet changed it. */
async function putBack(ref: string, baseline: DbState, label: string): Promise<void> {
  if (JSON.stringify(await readState(ref)) === JSON.stringify(baseline)) return
  await restoreState(ref, baseline)
  expect(await readState(ref), `${label}: state put back`).toEqual(baseline)
}

async function activeProjects(): Promise<Array<{ ref: string; name: string; postgrest_status: string }>> {
  const { rows } = await s.db.query<{ ref: string; name: string; postgrest_status: string }>(
    `select ref, name, postgrest_status from projects where status = 'ACTIVE_HEALTHY' order by name`,
  )
  return rows
}

const find = (outcomes: Outcome[], entity: string, snippet: string, key: Outcome['key']) => {
  const o = outcomes.find((x) => x.entity === entity && x.snippet === snippet && x.key === key)
  if (!o) throw new Error(`no outcome for ${entity} ${snippet} ${key}`)
  return o
}

describe('every table, view and function snippet of the demo projects, in JavaScript and in Bash', () => {
  it('gives the same status and rows in both languages, with the anon key and with the service key', async () => {
    const projects = await activeProjects()
    expect(projects.map((p) => p.name)).toEqual(expect.arrayContaining(['Acme Storefront', 'Legacy Blog', 'Recipe Box']))
    let ran = 0
    for (const p of projects) {
      if (p.postgrest_status !== 'ONLINE') {
        // Legacy Blog's API server is OFFLINE: the dashboard gets no schema, so there are no snippets to run.
        expect((await platform(`/projects/${p.ref}/api/rest`)).status).toBe(503)
        continue
      }
      const project: Project = { ref: p.ref, name: p.name, keys: await keysOf(p.ref) }
      const docs = await docsOf(p.ref)
      const baseline = await readState(p.ref)
      const outcomes = await runAll(project, docs, baseline)
      ran += outcomes.length
      expect(await readState(p.ref)).toEqual(baseline)

      if (p.name === 'Recipe Box') {
        // What the runs show, beyond the two languages agreeing: row level security applies to the anon key …
        const published = await s.projectDbs.transaction(p.ref, { role: 'postgres', readOnly: true }, async (tx) =>
          (await typed<{ n: number }>(tx, 'select count(*)::int as n from recipes where published')).rows[0].n,
        )
        expect((find(outcomes, 'recipes', 'read-all-rows', 'anon').body as unknown[]).length).toBe(published)
        expect((find(outcomes, 'recipes', 'read-all-rows', 'service').body as unknown[]).length).toBe(baseline.tables.recipes.length)
        expect(find(outcomes, 'ratings', 'insert-a-row', 'anon').status).toBe(401)
        // … the writes really write with the service key (put back afterwards) …
        expect(find(outcomes, 'authors', 'insert-a-row', 'service')).toMatchObject({ status: 201, body: [{ name: 'example' }] })
        expect(find(outcomes, 'authors', 'insert-many-rows', 'service').body).toHaveLength(2)
        expect(find(outcomes, 'recipes', 'update-matching-rows', 'service')).toMatchObject({ status: 200, body: [{ id: 1, title: 'example' }] })
        expect(find(outcomes, 'recipes', 'delete-matching-rows', 'service').status).toBe(204)
        // … the Range header and range() give the first ten rows, and a function answers its rows.
        expect((find(outcomes, 'ingredients', 'paginate', 'service').body as unknown[]).length).toBe(10)
        expect(find(outcomes, 'rpc recipes_within', 'invoke', 'service').status).toBe(200)
        // The view is not updatable: no write snippets were made for it.
        expect(outcomes.some((o) => o.entity === 'recipe_summaries' && /^(insert|update|delete)-/.test(o.snippet))).toBe(false)
        expect(outcomes.some((o) => o.entity === 'recipe_summaries' && o.snippet === 'read-all-rows')).toBe(true)
      }
    }
    expect(ran).toBeGreaterThan(100)
  }, 300_000)
})

const ODD = `
create table "odd ""quoted"" tåble ?&#%" (
  "the key" integer primary key,
  "a,b (c)" numeric,
  "välue ""q""" text,
  "it's" text,
  "flag?" boolean not null default false,
  "tags & #stuff" text[],
  "data" jsonb
);
comment on table "odd ""quoted"" tåble ?&#%" is 'Names with spaces, quotes, unicode and URL characters.';
alter table "odd ""quoted"" tåble ?&#%" enable row level security;
create policy "anon reads flagged" on "odd ""quoted"" tåble ?&#%" for select to anon using ("flag?");
insert into "odd ""quoted"" tåble ?&#%" values
  (1, 1.5, 'example', 'it''s', true, '{a,b}', '{"k": 1}'),
  (2, 50, 'two, "quoted"', null, false, null, null),
  (3, null, null, 'x', true, '{}', '[]');
create table "émoji 🍕 table" (
  id bigint generated always as identity primary key,
  "näme" text not null,
  "prix €" numeric,
  "when" date,
  created_at timestamptz not null default now()
);
insert into "émoji 🍕 table" ("näme", "prix €", "when") values ('pizza', 9.5, '2024-05-01'), ('pasta', null, null);
create function "odd fn ""q"" ?&" ("arg one" integer, "ärg" text default 'x')
returns table ("the key" integer, "välue ""q""" text) language sql stable as $$
  select "the key", "välue ""q""" from "odd ""quoted"" tåble ?&#%" where "the key" <= "arg one" order by 1
$$;
`

/** Recipe Box, with the odd tables and function of ODD made once. */
async function withOddTables() {
  const p = (await activeProjects()).find((x) => x.name === 'Recipe Box')!
  await s.projectDbs.transaction(p.ref, { role: 'postgres' }, async (tx) => {
    const { rows } = await typed<{ n: number }>(tx, `select count(*)::int as n from pg_class where relname = 'émoji 🍕 table'`)
    if (rows[0].n === 0) await tx.exec(ODD)
  })
  return p
}

describe('names with spaces, quotes, unicode and URL characters', () => {
  it('the snippets of such tables, columns and functions work in both languages', async () => {
    const p = await withOddTables()
    const project: Project = { ref: p.ref, name: p.name, keys: await keysOf(p.ref) }
    const all = await docsOf(p.ref)
    const docs: RestDocs = {
      tables: all.tables.filter((t) => !/^[a-z_]+$/.test(t.name)),
      functions: all.functions.filter((f) => !/^[a-z_]+$/.test(f.name)),
    }
    expect(docs.tables.map((t) => t.name).sort()).toEqual(['odd "quoted" tåble ?&#%', 'émoji 🍕 table'])
    expect(docs.functions.map((f) => f.name)).toEqual(['odd fn "q" ?&'])
    const baseline = await readState(p.ref)
    const outcomes = await runAll(project, docs, baseline)
    const odd = 'odd "quoted" tåble ?&#%'
    const emoji = 'émoji 🍕 table'
    // anon reads only the flagged rows; the service key all three.
    expect(find(outcomes, odd, 'read-all-rows', 'anon').body).toHaveLength(2)
    expect(find(outcomes, odd, 'read-all-rows', 'service').body).toHaveLength(3)
    expect(find(outcomes, odd, 'read-specific-columns', 'service').body).toEqual([
      { 'the key': 1, 'a,b (c)': 1.5 },
      { 'the key': 2, 'a,b (c)': 50 },
      { 'the key': 3, 'a,b (c)': null },
    ])
    expect(find(outcomes, odd, 'filter-equal', 'service').body).toEqual([expect.objectContaining({ 'the key': 1, 'välue "q"': 'example' })])
    expect(find(outcomes, odd, 'filter-in', 'service').body).toHaveLength(2)
    expect(find(outcomes, odd, 'filter-null', 'service').body).toEqual([expect.objectContaining({ 'the key': 3 })])
    expect(find(outcomes, odd, 'update-matching-rows', 'service')).toMatchObject({ status: 200, body: [{ 'the key': 1 }] })
    expect(find(outcomes, emoji, 'insert-a-row', 'service')).toMatchObject({ status: 201, body: [{ id: 3, 'näme': 'example' }] })
    expect(find(outcomes, emoji, 'filter-range', 'service').body).toHaveLength(1)
    expect(find(outcomes, emoji, 'delete-matching-rows', 'anon').status).toBe(204)
    expect(find(outcomes, 'rpc odd fn "q" ?&', 'invoke', 'service').body).toEqual([{ 'the key': 1, 'välue "q"': 'example' }])
    expect(await readState(p.ref)).toEqual(baseline)
  }, 300_000)
})

// ---------------------------------------------------------------------------------------------------------------
// Every Bash snippet is valid shell

/**
 * `bash -n` on each text, on its stdin: one small bash process reads the NUL-separated texts and runs bash -n for
 * each (spawning from this test worker would cost a tenth of a second a text). Answers each text's error, or null.
 */
async function syntaxErrors(texts: string[]): Promise<Array<string | null>> {
  const loop = `while IFS= read -r -d '' text; do
  if err=$(printf '%s' "$text" | bash -n 2>&1); then printf 'ok\\0'; else printf 'bad %s\\0' "$err"; fi
done`
  const child = execFile('bash', ['-c', loop], { maxBuffer: 16 * 1024 * 1024 })
  const out = new Promise<string>((resolve, reject) => {
    let buf = ''
    child.stdout!.on('data', (d) => (buf += d))
    child.on('error', reject)
    child.on('close', () => resolve(buf))
  })
  for (const t of texts) {
    if (t.includes('\0')) throw new Error('a snippet holds a NUL')
    child.stdin!.write(`${t}\0`)
  }
  child.stdin!.end()
  const results = (await out).split('\0').slice(0, -1)
  expect(results).toHaveLength(texts.length)
  return results.map((r) => (r === 'ok' ? null : r.slice(4)))
}

const CTX_KINDS = (url: string): SnippetContext[] => [
  { projectUrl: url, ...KEY_PLACEHOLDERS },
  { projectUrl: url, anonKey: 'eyJhbGciOiJIUzI1NiJ9.eyJyb2xlIjoiYW5vbiJ9.c2ln', serviceKey: "it's a 'quoted' $(key) `x`" },
]

const BUCKETS: Bucket[] = [
  bucket('avatars', true),
  bucket("public ?&#% bücket's", true),
  bucket('privé "docs" 50% & more', false),
]

function bucket(name: string, isPublic: boolean): Bucket {
  return {
    id: name,
    name,
    owner: '',
    public: isPublic,
    allowed_mime_types: null,
    file_size_limit: null,
    created_at: '2024-01-01T00:00:00Z',
    updated_at: '2024-01-01T00:00:00Z',
  }
}

const EDGE_FUNCTION: FunctionResponse = {
  id: 'f1',
  slug: 'hello-world',
  name: 'Hello world',
  status: 'ACTIVE',
  version: 1,
  created_at: 1_700_000_000_000,
  updated_at: 1_700_000_000_000,
  verify_jwt: true,
}

describe('every Bash snippet', () => {
  it('passes bash -n: connect, auth, every table, view and function of the projects, buckets, edge functions', async () => {
    const texts: Array<{ label: string; bash: string }> = []
    await withOddTables()
    let first = true
    for (const p of await activeProjects()) {
      if (p.postgrest_status !== 'ONLINE') continue
      const docs = await docsOf(p.ref)
      for (const ctx of CTX_KINDS(`${origin}/p/${p.ref}`)) {
        const all = [
          ...docs.tables.flatMap((t) => tableSnippets(t, ctx)),
          ...docs.functions.flatMap((f) => functionSnippets(f, ctx)),
          // The sections that do not depend on the project's schema: once.
          ...(first
            ? [
                ...connectSnippets(ctx),
                ...authSnippets(ctx),
                ...BUCKETS.flatMap((b) => bucketSnippets(b, ctx)),
                ...edgeFunctionSnippets(EDGE_FUNCTION, ctx),
                ...realtimeSnippets(ctx),
              ]
            : []),
        ]
        for (const sn of all) if (sn.bash !== null) texts.push({ label: `${p.name} ${sn.id}`, bash: sn.bash })
      }
      first = false
    }
    // The odd-named tables of the test above are among them.
    expect(texts.some((t) => t.bash.includes('/rest/v1/odd%20%22quoted%22%20t%C3%A5ble%20%3F%26%23%25'))).toBe(true)
    const errors = await syntaxErrors([...texts.map((t) => t.bash), "curl 'unterminated", 'curl -H "x" \\\n  | |'])
    // The two last texts are broken on purpose: the check does tell.
    expect(errors.slice(-2).every((e) => e !== null)).toBe(true)
    const failed = texts.map((t, i) => (errors[i] === null ? null : `${t.label}: ${errors[i]}`)).filter(Boolean)
    expect(failed).toEqual([])
    expect(texts.length).toBeGreaterThan(200)
  }, 120_000)
})

// ---------------------------------------------------------------------------------------------------------------
// Auth, storage, edge functions, realtime: the JavaScript's request and the curl command's are the same

interface Request {
  method: string
  /** Decoded path segments. */
  path: string[]
  query: Array<[string, string]>
  /** The headers that matter, lower-cased; content-type as its media type. */
  headers: Record<string, string>
  body: { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'form'; fields: Array<[string, string]> }
}

const MATTERING_HEADERS = ['apikey', 'authorization', 'content-type', 'cache-control', 'x-upsert', 'prefer', 'range']

function requestOf(method: string, url: string, headers: Record<string, string>, body: Request['body'], bodyMediaType: string | undefined): Request {
  const u = new URL(url)
  const picked: Record<string, string> = {}
  for (const [k, v] of Object.entries(headers)) if (MATTERING_HEADERS.includes(k.toLowerCase())) picked[k.toLowerCase()] = v
  const type = picked['content-type'] ?? bodyMediaType
  if (type) picked['content-type'] = type.split(';')[0].trim().toLowerCase()
  return {
    method,
    path: u.pathname.split('/').map(decodeURIComponent),
    query: [...u.searchParams].sort(),
    headers: picked,
    body,
  }
}

/** A curl command as the request it sends: -X, -H, -d/--data (JSON), -F (form fields; @file as `@name`), the URL. */
function parseCurl(code: string): Request & { url: string; output?: string } {
  const words = parseShell(code.replace(/\\\n/g, ' '))
  expect(words.every((w) => typeof w === 'string'), `${code}: plain words only`).toBe(true)
  const list = words as string[]
  expect(list[0]).toBe('curl')
  let method: string | undefined
  let url: string | undefined
  let data: string | undefined
  let output: string | undefined
  const headers: Record<string, string> = {}
  const form: Array<[string, string]> = []
  for (let i = 1; i < list.length; i++) {
    const w = list[i]
    if (w === '-X') method = list[++i]
    else if (w === '-H') {
      const h = list[++i]
      headers[h.slice(0, h.indexOf(':')).trim()] = h.slice(h.indexOf(':') + 1).trim()
    } else if (w === '-d' || w === '--data') data = list[++i]
    else if (w === '-F') {
      const f = list[++i]
      form.push([f.slice(0, f.indexOf('=')), f.slice(f.indexOf('=') + 1)])
    } else if (w === '-o') output = list[++i]
    else if (!w.startsWith('-') && url === undefined) url = w
    else throw new Error(`unexpected word ${w} in ${code}`)
  }
  if (!url) throw new Error(`no URL in ${code}`)
  const body: Request['body'] = form.length ? { kind: 'form', fields: form } : data !== undefined ? { kind: 'json', value: JSON.parse(data) } : { kind: 'none' }
  // What curl sends as the content type when no header names one.
  const implied = form.length ? 'multipart/form-data' : data !== undefined ? 'application/x-www-form-urlencoded' : undefined
  return { ...requestOf(method ?? (data !== undefined || form.length ? 'POST' : 'GET'), url, headers, body, implied), url, output }
}

const USER = { id: 'u1', aud: 'authenticated', role: 'authenticated', email: AUTH_EXAMPLES.email, app_metadata: {}, user_metadata: {}, created_at: '2024-01-01T00:00:00Z' }
const SESSION = { access_token: AUTH_EXAMPLES.userToken, token_type: 'bearer', expires_in: 3600, refresh_token: 'refresh', user: USER }

/** A plausible answer for each call, so that the client does not throw. */
function cannedAnswer(method: string, url: URL): Response {
  const json = (value: unknown, status = 200) => new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } })
  const p = url.pathname
  if (/\/auth\/v1\/(token|verify)$/.test(p)) return json({ ...SESSION, expires_at: Math.floor(Date.now() / 1000) + 3600 })
  if (/\/auth\/v1\/(signup|user|invite)$/.test(p)) return json(USER)
  if (p.includes('/auth/v1/')) return json({})
  if (p.includes('/storage/v1/object/sign/')) return json({ signedURL: '/object/sign/b/f?token=t' })
  if (p.includes('/storage/v1/object/list/')) return json([])
  if (p.includes('/storage/v1/object/') && method === 'GET') return new Response('hello', { headers: { 'content-type': 'image/png' } })
  if (p.includes('/storage/v1/object/') && method === 'POST') return json({ Id: 'o1', Key: 'b/folder/avatar1.png' })
  if (p.includes('/storage/v1/object/')) return json([])
  if (p.includes('/functions/v1/')) return json({ message: 'Hello Functions!' })
  throw new Error(`no canned answer for ${method} ${url}`)
}

interface Recorded {
  method: string
  url: string
  headers: Record<string, string>
  body: unknown
}

/** A client on `url` whose requests are recorded and answered with canned JSON; and its WebSocket's messages. */
function recordingClient(url: string, key: string) {
  const calls: Recorded[] = []
  const sent: unknown[] = []
  const sockets: string[] = []
  const recording: typeof fetch = async (input, init) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    calls.push({ method: init?.method ?? 'GET', url: href, headers: Object.fromEntries(new Headers(init?.headers)), body: init?.body })
    return cannedAnswer(init?.method ?? 'GET', new URL(href))
  }
  /** A WebSocket that opens at once, records what is sent and acknowledges every push. */
  class RecordingSocket {
    static CONNECTING = 0
    static OPEN = 1
    static CLOSING = 2
    static CLOSED = 3
    readyState = 0
    binaryType = 'arraybuffer'
    onopen?: (e: unknown) => void
    onmessage?: (e: { data: string }) => void
    onclose?: (e: unknown) => void
    onerror?: (e: unknown) => void
    constructor(socketUrl: string) {
      sockets.push(socketUrl)
      setTimeout(() => {
        this.readyState = 1
        this.onopen?.({})
      }, 0)
    }
    send(data: string) {
      const message = JSON.parse(data) as unknown
      sent.push(message)
      // vsn 2 frames are [join_ref, ref, topic, event, payload]: answer each push with an ok reply.
      if (Array.isArray(message) && message[3] !== 'heartbeat') {
        const [joinRef, ref, topic] = message
        setTimeout(() => this.onmessage?.({ data: JSON.stringify([joinRef, ref, topic, 'phx_reply', { status: 'ok', response: { postgres_changes: [] } }]) }), 0)
      }
    }
    close(code?: number) {
      this.readyState = 3
      this.onclose?.({ code })
    }
  }
  const supabase = createClient(url, key, {
    global: { fetch: recording },
    realtime: { transport: RecordingSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  })
  return { supabase, calls, sent, sockets }
}

function requestOfCall(call: Recorded): Request {
  let body: Request['body'] = { kind: 'none' }
  let implied: string | undefined
  if (typeof call.body === 'string') {
    body = { kind: 'json', value: JSON.parse(call.body) }
    implied = 'text/plain'
  } else if (call.body instanceof FormData) {
    const fields: Array<[string, string]> = []
    call.body.forEach((value, name) => fields.push([name, typeof value === 'string' ? value : `@${(value as File).name}`]))
    body = { kind: 'form', fields }
    implied = 'multipart/form-data'
  } else if (call.body !== undefined && call.body !== null) {
    throw new Error(`unexpected body ${String(call.body)}`)
  }
  return requestOf(call.method, call.url, call.headers, body, implied)
}

/**
 * Fields supabase-js's auth client adds to every body with the value GoTrue takes when a field is absent; they are
 * removed from the JavaScript's body (only with exactly these values) before it is compared with curl's.
 */
const AUTH_CLIENT_DEFAULTS: Array<[string, unknown]> = [
  ['data', {}],
  ['gotrue_meta_security', {}],
  ['code_challenge', null],
  ['code_challenge_method', null],
  ['create_user', true],
  ['channel', 'sms'],
]

function withoutAuthDefaults(req: Request): Request {
  if (req.body.kind !== 'json' || !req.path.includes('auth')) return req
  const value = { ...(req.body.value as Record<string, unknown>) }
  for (const [k, v] of AUTH_CLIENT_DEFAULTS) if (k in value && JSON.stringify(value[k]) === JSON.stringify(v)) delete value[k]
  return { ...req, body: { kind: 'json', value } }
}

const PROJECT_URL = 'http://127.0.0.1:54321/p/abcdefghijklmnopqrst'

/** The snippet's JavaScript with a recording client: every request it made. */
async function recordJs(js: string, key: string, opts: { signedIn?: boolean; scope?: Record<string, unknown> } = {}) {
  const client = recordingClient(PROJECT_URL, key)
  if (opts.signedIn) {
    const { error } = await client.supabase.auth.signInWithPassword({ email: AUTH_EXAMPLES.email, password: AUTH_EXAMPLES.password })
    expect(error).toBeNull()
    client.calls.length = 0
  }
  const scope = { supabase: client.supabase, ...opts.scope }
  const result = await new AsyncFunction(...Object.keys(scope), `${js}\nreturn typeof publicUrl !== 'undefined' ? publicUrl : typeof data !== 'undefined' ? data : undefined`)(
    ...Object.values(scope),
  )
  return { ...client, result }
}

describe('auth, storage, edge function and realtime snippets: JavaScript and curl send the same request', () => {
  for (const ctx of [{ projectUrl: PROJECT_URL, ...KEY_PLACEHOLDERS }, { projectUrl: PROJECT_URL, anonKey: 'anon.jwt.key', serviceKey: 'service.jwt.key' }]) {
    const keys = ctx.anonKey === KEY_PLACEHOLDERS.anonKey ? 'placeholders' : 'real keys'

    it(`auth (${keys})`, async () => {
      const signedIn = new Set(['get-user', 'update-user', 'logout'])
      const snippets = authSnippets(ctx)
      expect(snippets.map((sn) => sn.id)).toEqual([
        'sign-up',
        'login-with-password',
        'login-with-magic-link',
        'login-with-phone-otp',
        'login-with-email-otp',
        'verify-otp',
        'get-user',
        'update-user',
        'recover-password',
        'logout',
        'invite-user',
      ])
      for (const sn of snippets) {
        // The invitation needs the service key: its client is made with it.
        const key = sn.id === 'invite-user' ? ctx.serviceKey : ctx.anonKey
        const { calls } = await recordJs(sn.js!, key, { signedIn: signedIn.has(sn.id) })
        expect(calls, sn.id).toHaveLength(1)
        const js = withoutAuthDefaults(requestOfCall(calls[0]))
        const { url: _url, output: _output, ...bash } = parseCurl(sn.bash!)
        if (sn.id === 'login-with-magic-link') {
          // GoTrue's two routes to an e-mailed link: supabase-js posts to /otp, the curl form uses /magiclink.
          expect(js.path.at(-1)).toBe('otp')
          expect(bash.path.at(-1)).toBe('magiclink')
          expect({ ...bash, path: js.path }, sn.id).toEqual(js)
        } else {
          expect(bash, sn.id).toEqual(js)
        }
      }
      // The paths of spec 7.
      const paths = snippets.map((sn) => {
        const { method, url } = parseCurl(sn.bash!)
        return `${method} ${url.slice(PROJECT_URL.length)}`
      })
      expect(paths).toEqual([
        'POST /auth/v1/signup',
        'POST /auth/v1/token?grant_type=password',
        'POST /auth/v1/magiclink',
        'POST /auth/v1/otp',
        'POST /auth/v1/otp',
        'POST /auth/v1/verify',
        'GET /auth/v1/user',
        'PUT /auth/v1/user',
        'POST /auth/v1/recover',
        'POST /auth/v1/logout?scope=global',
        'POST /auth/v1/invite',
      ])
      expect(parseCurl(snippets.at(-1)!.bash!).headers).toMatchObject({ apikey: ctx.serviceKey, authorization: `Bearer ${ctx.serviceKey}` })
    })

    it(`storage (${keys})`, async () => {
      const event = { target: { files: [new File(['hello'], 'avatar1.png', { type: 'image/png' })] } }
      for (const b of BUCKETS) {
        const snippets = bucketSnippets(b, ctx)
        expect(snippets.map((sn) => sn.id)).toEqual([
          'upload-a-file',
          'download-a-file',
          'list-files',
          b.public ? 'retrieve-public-url' : 'create-a-signed-url',
          'delete-files',
        ])
        for (const sn of snippets) {
          const label = `${b.name} ${sn.id}`
          const { calls, result } = await recordJs(sn.js!, ctx.anonKey, { scope: { event } })
          const { url, output, ...bash } = parseCurl(sn.bash!)
          expect(bash.path.slice(0, 6), label).toEqual(['', 'p', 'abcdefghijklmnopqrst', 'storage', 'v1', 'object'])
          if (sn.id === 'retrieve-public-url') {
            // No request: the URL is built where the code runs, and anyone may GET it.
            expect(calls, label).toHaveLength(0)
            const publicUrl = typeof result === 'string' ? result : (result as { publicUrl: string }).publicUrl
            expect(requestOf('GET', publicUrl, {}, { kind: 'none' }, undefined), label).toEqual(bash)
            expect(bash.path.slice(6), label).toEqual(['public', b.name, 'folder', 'avatar1.png'])
            continue
          }
          expect(calls, label).toHaveLength(1)
          expect(bash, label).toEqual(requestOfCall(calls[0]))
          if (sn.id === 'download-a-file') expect(output).toBe('avatar1.png')
        }
        const byId = Object.fromEntries(snippets.map((sn) => [sn.id, parseCurl(sn.bash!)]))
        expect(byId['upload-a-file']).toMatchObject({
          method: 'POST',
          path: ['', 'p', 'abcdefghijklmnopqrst', 'storage', 'v1', 'object', b.name, 'folder', 'avatar1.png'],
          headers: { 'x-upsert': 'false' },
          body: { kind: 'form', fields: [['cacheControl', '3600'], ['', '@avatar1.png']] },
        })
        expect(byId['list-files']).toMatchObject({ path: expect.arrayContaining(['list', b.name]), body: { value: { limit: 100, offset: 0, prefix: 'folder' } } })
        if (!b.public) expect(byId['create-a-signed-url']).toMatchObject({ path: expect.arrayContaining(['sign', b.name]), body: { value: { expiresIn: 60 } } })
      }
    })

    it(`edge functions (${keys})`, async () => {
      const [sn] = edgeFunctionSnippets(EDGE_FUNCTION, ctx)
      const { calls } = await recordJs(sn.js!, ctx.anonKey)
      expect(calls).toHaveLength(1)
      const { url, output: _o, ...bash } = parseCurl(sn.bash!)
      expect(bash).toEqual(requestOfCall(calls[0]))
      expect(url).toBe(`${PROJECT_URL}/functions/v1/hello-world`)
      expect(bash.headers.authorization).toBe(`Bearer ${ctx.anonKey}`)
    })

    it(`connect (${keys})`, async () => {
      const snippets = connectSnippets(ctx)
      expect(snippets.map((sn) => sn.id)).toEqual(['initializing', 'client-api-keys', 'service-keys'])
      for (const sn of snippets) {
        // The client the JavaScript makes: its URL and key (the import becomes a parameter).
        const made: Array<[string, string]> = []
        const code = sn.js!.replace("import { createClient } from '@supabase/supabase-js'\n", '')
        expect(code).not.toContain('import')
        await new AsyncFunction('createClient', code)((u: string, k: string) => made.push([u, k]))
        const key = sn.id === 'service-keys' ? ctx.serviceKey : ctx.anonKey
        expect(made, sn.id).toEqual([[PROJECT_URL, key]])
        expect(parseCurl(sn.bash!).headers, sn.id).toEqual({ apikey: key, authorization: `Bearer ${key}` })
      }
      expect(snippets.find((sn) => sn.id === 'service-keys')!.description).toMatch(/bypasses Row Level Security.*never in a browser/s)
    })
  }

  it('realtime: the subscription message names the channel and the postgres_changes filter', async () => {
    const ctx = { projectUrl: PROJECT_URL, ...KEY_PLACEHOLDERS }
    const joined = async (js: string) => {
      const client = recordingClient(PROJECT_URL, ctx.anonKey)
      const channel = (await new AsyncFunction('supabase', `${js}\nreturn channel`)(client.supabase)) as RealtimeChannel
      await expect.poll(() => client.sent.length).toBeGreaterThan(0)
      const join = client.sent.find((m) => Array.isArray(m) && m[3] === 'phx_join') as [string, string, string, string, { config: { postgres_changes: unknown } }]
      expect(client.sockets[0]).toMatch(/^ws:\/\/127\.0\.0\.1:54321\/p\/abcdefghijklmnopqrst\/realtime\/v1\/websocket\?/)
      return { client, channel, topic: join[2], changes: join[4].config.postgres_changes }
    }
    const [subscribe, unsubscribe] = realtimeSnippets(ctx)
    expect(subscribe.bash).toBeNull()
    const first = await joined(subscribe.js!)
    expect([first.topic, first.changes]).toEqual(['realtime:schema-db-changes', [{ event: '*', schema: 'public' }]])
    expect(unsubscribe.description).toContain(REALTIME_CLEANUP_TEXT)
    expect(REALTIME_CLEANUP_TEXT).toMatch(/cleaned up 30 seconds after/)
    await new AsyncFunction('supabase', 'channel', unsubscribe.js!)(first.client.supabase, first.channel)
    expect(first.client.sent.some((m) => Array.isArray(m) && m[2] === 'realtime:schema-db-changes' && m[3] === 'phx_leave')).toBe(true)

    // A table's subscriptions, on a name with quotes and unicode.
    const table = { name: `odd "quoted" tåble ?&#%`, kind: 'table' as const, rawKind: 'table', description: null, fields: [], insertable: true, updatable: true, deletable: true }
    const expected: Record<string, string> = { 'subscribe-to-inserts': 'INSERT', 'subscribe-to-updates': 'UPDATE', 'subscribe-to-deletes': 'DELETE', 'subscribe-to-all-changes': '*' }
    const subs = tableSnippets(table, ctx).filter((sn) => sn.id.startsWith('subscribe-'))
    expect(subs.map((sn) => sn.id)).toEqual(Object.keys(expected))
    for (const sn of subs) {
      expect(sn.bash).toBeNull()
      const { changes, topic } = await joined(sn.js!)
      expect(topic).toMatch(/^realtime:custom-/)
      expect(changes, sn.id).toEqual([{ event: expected[sn.id], schema: 'public', table: table.name }])
    }
  })
})
