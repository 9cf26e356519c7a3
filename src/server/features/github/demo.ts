/**
 * The demo's GitHub side: in each demo organization a GitHub installation (added by the demo Owner, who has
 * authorized the app) with three repositories, and Acme Storefront connected to Demo Pro Org's notes-app.
 *  - notes-app: supabase/migrations (four `<timestamp>_<name>.sql` making a small notes schema) and supabase/seed.sql
 *    on `main`, and a branch `feature/tags` with one more migration;
 *  - landing-page: no supabase directory;
 *  - broken-migrations: its second migration fails (it alters a table that does not exist).
 * The rows are written by the seed (demoGitHub); each repository's folder is made from its `demo` content the first
 * time something uses it (one `git fast-import` run), so a start costs no git process at all.
 */
import type { Queryable } from '../../db'
import { findDemoOwner, insertAuthorization, insertDemoConnection, insertDemoInstallation, insertDemoRepository, organizationIdOf } from './store'

export type DemoKind = 'notes' | 'plain' | 'broken'

export interface DemoCommit {
  branch: string
  /** Start the branch at the tip of this one (a new branch); default: the branch's own previous commit. */
  from?: string
  message: string
  /** Seconds since the epoch, so the demo's commits (and their ids) are the same in every data folder. */
  at: number
  files: Record<string, string>
}

const T0 = Date.UTC(2024, 0, 8, 9, 0, 0) / 1000
const DAY = 86_400

const NOTES_README = `# notes-app

A small notes app on the platform: notebooks, notes and tags.

    supabase/migrations   the schema, one file per change
    supabase/seed.sql     rows for a fresh database
`

const notes: DemoCommit[] = [
  {
    branch: 'main',
    message: 'Notebooks and notes',
    at: T0,
    files: {
      'README.md': NOTES_README,
      'supabase/config.toml': 'project_id = "notes-app"\n\n[db]\nmajor_version = 15\n',
      'supabase/migrations/20240108090000_create_notebooks.sql': `create table public.notebooks (
  id bigint generated always as identity primary key,
  title text not null check (length(title) between 1 and 200),
  created_at timestamptz not null default now()
);
comment on table public.notebooks is 'A named collection of notes.';
`,
      'supabase/migrations/20240108093000_create_notes.sql': `create table public.notes (
  id bigint generated always as identity primary key,
  notebook_id bigint not null references public.notebooks (id) on delete cascade,
  title text not null,
  body text not null default '',
  pinned boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index notes_notebook_idx on public.notes (notebook_id);
`,
    },
  },
  {
    branch: 'main',
    message: 'Row level security and seed data',
    at: T0 + DAY,
    files: {
      'supabase/migrations/20240109100000_notes_rls.sql': `alter table public.notebooks enable row level security;
alter table public.notes enable row level security;
create policy "notebooks are readable" on public.notebooks for select using (true);
create policy "notes are readable" on public.notes for select using (true);
`,
      'supabase/seed.sql': `insert into public.notebooks (title) values ('Work'), ('Home');
insert into public.notes (notebook_id, title, body, pinned) values
  (1, 'Standup', 'Yesterday, today, blockers', true),
  (1, 'Release checklist', 'Tag, build, announce', false),
  (2, 'Groceries', 'Milk, eggs, bread', false);
`,
    },
  },
  {
    branch: 'main',
    message: 'Search notes by text',
    at: T0 + 2 * DAY,
    files: {
      'supabase/migrations/20240110110000_notes_search.sql': `create function public.search_notes(query text)
returns setof public.notes
language sql stable
as $$ select * from public.notes where title ilike '%' || query || '%' or body ilike '%' || query || '%' $$;
`,
    },
  },
  {
    branch: 'feature/tags',
    from: 'main',
    message: 'Tags on notes',
    at: T0 + 3 * DAY,
    files: {
      'supabase/migrations/20240111120000_add_tags.sql': `create table public.tags (
  id bigint generated always as identity primary key,
  name text not null unique
);
create table public.note_tags (
  note_id bigint not null references public.notes (id) on delete cascade,
  tag_id bigint not null references public.tags (id) on delete cascade,
  primary key (note_id, tag_id)
);
`,
    },
  },
]

const plain: DemoCommit[] = [
  {
    branch: 'main',
    message: 'Landing page',
    at: T0,
    files: {
      'README.md': '# landing-page\n\nA static landing page. No database here.\n',
      'index.html': '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Acme</title></head>\n<body><h1>Acme</h1></body></html>\n',
      'package.json': '{\n  "name": "landing-page",\n  "private": true,\n  "scripts": { "start": "npx serve ." }\n}\n',
    },
  },
]

const broken: DemoCommit[] = [
  {
    branch: 'main',
    message: 'Todos, with a migration that fails',
    at: T0,
    files: {
      'README.md': '# broken-migrations\n\nIts second migration alters a table that does not exist, so applying the migrations fails.\n',
      'supabase/migrations/20240201080000_create_todos.sql': `create table public.todos (
  id bigint generated always as identity primary key,
  task text not null,
  done boolean not null default false
);
`,
      'supabase/migrations/20240202080000_add_todo_owner.sql': `-- Fails: the table is "todos", not "todo".
alter table public.todo add column owner text;
`,
      'supabase/migrations/20240203080000_todos_index.sql': 'create index todos_done_idx on public.todos (done);\n',
      'supabase/seed.sql': "insert into public.todos (task) values ('Write the docs'), ('Fix the migration');\n",
    },
  },
]

export const demoContents: Record<DemoKind, DemoCommit[]> = { notes, plain, broken }

/** The `git fast-import` stream that writes a demo repository's commits and branches. */
export const fastImportStream = (kind: DemoKind): Buffer => fastImport(demoContents[kind], 'Demo Owner <owner@example.com>')

/**
 * The `git fast-import` stream of these commits, in order, each on its branch (a new branch starts at the tip of
 * `from`), by `author` at each commit's time: the demo's repositories, and the tests' own.
 */
export function fastImport(commits: DemoCommit[], author: string): Buffer {
  const parts: Buffer[] = []
  const text = (s: string) => parts.push(Buffer.from(s, 'utf8'))
  const data = (s: string) => {
    const bytes = Buffer.from(s, 'utf8')
    text(`data ${bytes.length}\n`)
    parts.push(bytes)
    text('\n')
  }
  const tips = new Map<string, number>()
  commits.forEach((commit, i) => {
    const mark = i + 1
    const who = `${author} ${commit.at} +0000`
    text(`commit refs/heads/${commit.branch}\nmark :${mark}\nauthor ${who}\ncommitter ${who}\n`)
    data(commit.message)
    const from = commit.from !== undefined ? tips.get(commit.from) : undefined
    if (from !== undefined) text(`from :${from}\n`)
    for (const [path, content] of Object.entries(commit.files)) {
      text(`M 100644 inline ${path}\n`)
      data(content)
    }
    text('\n')
    tips.set(commit.branch, mark)
  })
  text('done\n')
  return Buffer.concat(parts)
}

interface DemoRepository {
  name: string
  kind: DemoKind
}

const demoRepositories: DemoRepository[] = [
  { name: 'notes-app', kind: 'notes' },
  { name: 'landing-page', kind: 'plain' },
  { name: 'broken-migrations', kind: 'broken' },
]

const DEMO_ORGANIZATIONS = ['demo-free', 'demo-pro']
const DEMO_OWNER = 'owner@example.com'
/** The demo project that starts connected, and its repository (in the project's organization). */
const DEMO_CONNECTION = { org: 'demo-pro', project: 'Acme Storefront', repository: 'notes-app' }

/** An avatar with the account's initial, as a data URL (the Content-Security-Policy allows data: images). */
export function avatarFor(name: string): string {
  const initial = (name.match(/[A-Za-z0-9]/)?.[0] ?? '?').toUpperCase()
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" rx="8" fill="#3ecf8e"/><text x="20" y="27" font-family="sans-serif" font-size="20" text-anchor="middle" fill="#fff">${initial}</text></svg>`
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
}

/**
 * Writes the demo's installations, repositories, the Owner's authorization and the one connection. Idempotent
 * (an organization that already has a GitHub installation is left alone); runs in the transaction that applied
 * migration 011 (a data folder made before it) and at the end of the seed (a new one).
 */
export async function demoGitHub(tx: Queryable, now: Date): Promise<void> {
  const owner = await findDemoOwner(tx, DEMO_OWNER)
  if (!owner) return
  let installed = false
  for (const slug of DEMO_ORGANIZATIONS) {
    const organizationId = await organizationIdOf(tx, slug)
    if (organizationId === undefined) continue
    const installationId = await insertDemoInstallation(tx, { organizationId, accountName: slug, avatarUrl: avatarFor(slug), owner, now })
    if (installationId === undefined) continue
    installed = true
    for (const repo of demoRepositories) {
      await insertDemoRepository(tx, installationId, repo.name, repo.kind, now)
    }
  }
  if (!installed) return
  await insertAuthorization(tx, owner.id, now)
  await insertDemoConnection(tx, {
    organizationSlug: DEMO_CONNECTION.org,
    project: DEMO_CONNECTION.project,
    repository: DEMO_CONNECTION.repository,
    addedBy: owner.id,
    now,
  })
}
