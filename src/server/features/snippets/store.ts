/**
 * The SQL of saved queries. A person sees a snippet when it is theirs, or shared with a project of an organization
 * they belong to; every read here takes the person's id and applies that rule in SQL, so no caller can forget it.
 */
import type { Snippet, SnippetSummary } from '../../../contracts/snippets'
import type { Queryable } from '../../db'
import { iso } from '../../core/rows'

export interface SnippetRow {
  id: string
  project_id: number
  project_name: string
  owner_id: number
  owner_username: string
  updated_by_id: number
  updated_by_username: string
  name: string
  description: string | null
  visibility: 'user' | 'project'
  sql: string
  inserted_at: unknown
  updated_at: unknown
  favorite: boolean
}

/** The snippet's version of the content format the platform's dashboard writes. */
const SCHEMA_VERSION = '1.0'

export function toSummary(row: SnippetRow): SnippetSummary {
  return {
    id: row.id,
    inserted_at: iso(row.inserted_at),
    updated_at: iso(row.updated_at),
    type: 'sql',
    visibility: row.visibility,
    name: row.name,
    description: row.description,
    project: { id: row.project_id, name: row.project_name },
    owner: { id: row.owner_id, username: row.owner_username },
    updated_by: { id: row.updated_by_id, username: row.updated_by_username },
    favorite: row.favorite,
  }
}

export const toSnippet = (row: SnippetRow): Snippet => ({
  ...toSummary(row),
  content: { favorite: row.favorite, schema_version: SCHEMA_VERSION, sql: row.sql },
})

/** Columns of a SnippetRow; `$1` is the reader's account id (their favourite mark). */
const SELECT = `select s.id, s.project_id, p.name as project_name, s.owner_id, o.username as owner_username,
    coalesce(u.id, o.id) as updated_by_id, coalesce(u.username, o.username) as updated_by_username,
    s.name, s.description, s.visibility, s.sql, s.inserted_at, s.updated_at,
    exists (select 1 from sql_snippet_favorites f where f.snippet_id = s.id and f.account_id = $1) as favorite
  from sql_snippets s
  join projects p on p.id = s.project_id
  join accounts o on o.id = s.owner_id
  left join accounts u on u.id = s.updated_by_id`

/** What `$1` may see: their own, or shared with a project of an organization they belong to. */
const VISIBLE = `(s.owner_id = $1 or (s.visibility = 'project' and exists (
    select 1 from members m where m.organization_id = p.organization_id and m.account_id = $1)))`

/** The snippets of one project the person sees: favourites first, then by name. */
export async function listProjectSnippets(db: Queryable, accountId: number, projectId: number): Promise<SnippetRow[]> {
  const { rows } = await db.query<SnippetRow>(
    `${SELECT} where s.project_id = $2 and ${VISIBLE} order by favorite desc, lower(s.name), s.inserted_at, s.id limit 1000`,
    [accountId, projectId],
  )
  return rows
}

export async function findSnippet(db: Queryable, accountId: number, id: string): Promise<SnippetRow | undefined> {
  const { rows } = await db.query<SnippetRow>(`${SELECT} where s.id = $2 and ${VISIBLE}`, [accountId, id])
  return rows[0]
}

export interface ListOptions {
  projectRef?: string
  sortBy: 'name' | 'inserted_at'
  sortOrder: 'asc' | 'desc'
  limit: number
  /** The last row of the previous page: its sort value and id. */
  after?: { value: string; id: string }
}

/** The Management API's list: every snippet the person sees (of one project when asked), keyset-paged. */
export async function listVisibleSnippets(db: Queryable, accountId: number, opts: ListOptions): Promise<SnippetRow[]> {
  const params: unknown[] = [accountId]
  const where = [VISIBLE]
  if (opts.projectRef) {
    params.push(opts.projectRef)
    where.push(`p.ref = $${params.length}`)
  }
  const key = opts.sortBy === 'name' ? 's.name' : 's.inserted_at'
  const cmp = opts.sortOrder === 'asc' ? '>' : '<'
  if (opts.after) {
    params.push(opts.after.value, opts.after.id)
    const value = opts.sortBy === 'name' ? `$${params.length - 1}::text` : `$${params.length - 1}::timestamptz`
    where.push(`(${key}, s.id) ${cmp} (${value}, $${params.length}::uuid)`)
  }
  params.push(opts.limit)
  const { rows } = await db.query<SnippetRow>(
    `${SELECT} where ${where.join(' and ')} order by ${key} ${opts.sortOrder}, s.id ${opts.sortOrder} limit $${params.length}`,
    params,
  )
  return rows
}

export async function insertSnippet(
  db: Queryable,
  s: { id: string; projectId: number; ownerId: number; name: string; description: string | null; visibility: 'user' | 'project'; sql: string; now: Date },
): Promise<void> {
  await db.query(
    `insert into sql_snippets (id, project_id, owner_id, updated_by_id, name, description, visibility, sql, inserted_at, updated_at)
     values ($1, $2, $3, $3, $4, $5, $6, $7, $8, $8)`,
    [s.id, s.projectId, s.ownerId, s.name, s.description, s.visibility, s.sql, s.now.toISOString()],
  )
}

/** Changes the fields given (undefined ones are kept). */
export async function updateSnippet(
  db: Queryable,
  id: string,
  by: number,
  change: { name?: string; sql?: string; visibility?: 'user' | 'project'; description?: string | null },
  now: Date,
): Promise<void> {
  await db.query(
    `update sql_snippets set
       name = coalesce($3, name), sql = coalesce($4, sql), visibility = coalesce($5, visibility),
       description = case when $6::boolean then $7 else description end,
       updated_by_id = $2, updated_at = $8
     where id = $1`,
    [id, by, change.name ?? null, change.sql ?? null, change.visibility ?? null, change.description !== undefined, change.description ?? null, now.toISOString()],
  )
}

export async function setFavorite(db: Queryable, id: string, accountId: number, favorite: boolean): Promise<void> {
  if (favorite) {
    await db.query(`insert into sql_snippet_favorites (snippet_id, account_id) values ($1, $2) on conflict do nothing`, [id, accountId])
  } else {
    await db.query(`delete from sql_snippet_favorites where snippet_id = $1 and account_id = $2`, [id, accountId])
  }
}

export async function deleteSnippet(db: Queryable, id: string): Promise<void> {
  await db.query(`delete from sql_snippets where id = $1`, [id])
}
