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
import { execFile } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { serve } from '@hono/node-server'
import { createClient } from '@supabase/supabase-js'
import { parse as parseShell } from 'shell-quote'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { docsFromRestSchema, type RestDocs } from '../../machines/restDocs'
import { RestSchemaResponse } from '../../src/contracts/connecting'
import { ProjectSettings } from '../../src/contracts/keys'
import { functionSnippets, tableSnippets } from '../../src/views/project/apiDocs/snippets'
import type { Snippet, SnippetContext } from '../../src/views/project/apiDocs/snippets/types'
import { OWNER, startTestServer, type TestServer } from './helpers'

const run = promisify(execFile)
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
}, 120_000)

afterAll(async () => {
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
 * The Bash of snippets, in one bash process, one after the other; each one's answer and status (a `curl` function
 * wraps the real one with -s and -w to print the status on a line of its own, then a separator line).
 */
async function runBashBatch(snippets: string[]): Promise<Answer[]> {
  if (snippets.length === 0) return []
  const separator = `--- end of snippet ${Math.random().toString(36).slice(2)} ---`
  const script = [`curl() { command curl -s -w '\\n%{http_code}' "$@"; }`, ...snippets.map((code) => `${code}\necho; echo '${separator}'`)].join('\n')
  const { stdout } = await run('bash', ['-c', script], { maxBuffer: 64 * 1024 * 1024 })
  const parts = stdout.split(`\n${separator}\n`)
  expect(parts.pop()).toBe('')
  expect(parts).toHaveLength(snippets.length)
  return parts.map((part) => {
    const cut = part.lastIndexOf('\n')
    return { status: Number(part.slice(cut + 1)), body: parseBody(part.slice(0, cut)) }
  })
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

interface DbState {
  /** Each table's rows as JSON text, in their physical order (a restore keeps it, so unordered reads stay the same). */
  tables: Record<string, string[]>
  sequences: Record<string, string | null>
}

async function readState(ref: string): Promise<DbState> {
  return s.projectDbs.transaction(ref, { role: 'postgres', readOnly: true }, async (tx) => {
    const { rows: rels } = await tx.query<{ reg: string }>(
      `select c.oid::regclass::text as reg from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
    )
    const tables: DbState['tables'] = {}
    for (const { reg } of rels) {
      const { rows } = await tx.query<{ row: string }>(`select to_jsonb(t)::text as row from ${reg} t order by ctid`)
      tables[reg] = rows.map((r) => r.row)
    }
    const { rows: seqs } = await tx.query<{ seq: string; last: string | null }>(
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
    const { rows: fks } = await tx.query<{ child: string; parent: string }>(
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
    const { rows } = await tx.query<{ rel: string; col: string }>(
      `select c.relname as rel, a.attname as col from pg_attrdef d
       join pg_attribute a on a.attrelid = d.adrelid and a.attnum = d.adnum
       join pg_class c on c.oid = d.adrelid
       where c.relnamespace = 'public'::regnamespace
         and pg_get_expr(d.adbin, d.adrelid) ~ '(now|clock_timestamp|statement_timestamp|gen_random_uuid|random)\\('`,
    )
    const tables: Record<string, string[]> = {}
    for (const r of rows) (tables[r.rel] ??= []).push(r.col)
    const { rows: fns } = await tx.query<{ fn: string; rel: string }>(
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
 * Returns what each answered (the same in both), for the caller's own checks. The reads' curl commands run in one
 * bash process (a process costs a tenth of a second from a test worker), checked afterwards to have changed nothing;
 * a write runs alone in each language, from the starting state.
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
    const readsJs = []
    for (const r of reads) readsJs.push(await runJs(r.snippet.js, project, key))
    const readsBash = await runBashBatch(reads.map((r) => r.snippet.bash))
    expect(await readState(project.ref), `${project.name}: the reads changed nothing`).toEqual(baseline)
    reads.forEach((r, i) => outcomes.push(compare(r.job, r.snippet, r.label, keyName, readsJs[i], readsBash[i])))

    for (const w of all.filter((x) => x.job.mayWrite(x.snippet.id))) {
      const js = await runJs(w.snippet.js, project, key)
      await putBack(project.ref, baseline, w.label)
      const [bash] = await runBashBatch([w.snippet.bash])
      await putBack(project.ref, baseline, w.label)
      outcomes.push(compare(w.job, w.snippet, w.label, keyName, js, bash))
    }
  }
  return outcomes
}

/** The two languages' answers must agree: status, rows, method and path. */
function compare(job: Job, snippet: Snippet & { bash: string }, label: string, key: Outcome['key'], js: Answer & { method: string; path: string }, bash: Answer): Outcome {
  // Rows written by the snippet differ between the two runs only in columns whose defaults are volatile
  // (created_at = now(), a random uuid): those are the only ones left out, only from the answers of writing
  // snippets (inserts, VOLATILE functions returning such rows) — every other answer is compared whole.
  const drop = (row: unknown) =>
    row !== null && typeof row === 'object' && !Array.isArray(row)
      ? Object.fromEntries(Object.entries(row).filter(([k]) => !job.volatileColumns.includes(k)))
      : row
  const strip = (body: unknown) =>
    job.mayWrite(snippet.id) && job.volatileColumns.length ? (Array.isArray(body) ? body.map(drop) : drop(body)) : body
  expect({ status: bash.status, body: strip(bash.body) }, label).toEqual({ status: js.status, body: strip(js.body) })
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
      // Create the project's database (and its demo schema) before the dashboard's first schema read.
      await s.projectDbs.transaction(p.ref, { role: 'postgres', readOnly: true }, (tx) => tx.query('select 1'))
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
          (await tx.query<{ n: number }>('select count(*)::int as n from recipes where published')).rows[0].n,
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

describe('names with spaces, quotes, unicode and URL characters', () => {
  it('the snippets of such tables, columns and functions work in both languages', async () => {
    const p = (await activeProjects()).find((x) => x.name === 'Recipe Box')!
    await s.projectDbs.transaction(p.ref, { role: 'postgres' }, (tx) => tx.exec(ODD))
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
