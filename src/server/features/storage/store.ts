/**
 * The SQL of storage: buckets and objects, rows of `storage.buckets` and `storage.objects` in the project's own
 * database (the tables come with the project database template), and the platform store's flag of the service.
 * Buckets are read and written as service_role, the role the platform's storage service uses. A bucket's id is its
 * name. `owner` is not stored: the template's table has no owner column, so every bucket answers owner '' (the
 * platform's own answer for a bucket made with a service key rather than by a user).
 * Each object function runs in the transaction it is given, as whatever role that transaction has: the caller's,
 * so row level security decides what a caller sees and changes.
 */
import type { Bucket, CreateBucketBody } from '../../../contracts/storage'
import { iso } from '../../core/rows'
import type { Queryable } from '../../db'
import type { ProjectTx } from '../../projectdb/types'

interface BucketRow {
  id: string
  name: string
  public: boolean
  allowed_mime_types: string[] | null
  /** bigint read as double precision (the driver would give a string): byte counts fit easily. */
  file_size_limit: number | null
  created_at: Date | string
  updated_at: Date | string
}

const columns = `id, name, public, allowed_mime_types, file_size_limit::double precision as file_size_limit, created_at, updated_at`

function toBucket(row: BucketRow): Bucket {
  return {
    id: row.id,
    name: row.name,
    owner: '',
    public: row.public,
    allowed_mime_types: row.allowed_mime_types,
    file_size_limit: row.file_size_limit === null ? null : Number(row.file_size_limit),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  }
}

/** Every bucket, by name. */
export async function listBuckets(tx: ProjectTx): Promise<Bucket[]> {
  const { rows } = await tx.query<BucketRow>(`select ${columns} from storage.buckets order by name`)
  return rows.map(toBucket)
}

/** The new bucket; undefined when one with this name (or id) exists. */
export async function insertBucket(tx: ProjectTx, body: CreateBucketBody): Promise<Bucket | undefined> {
  const { rows } = await tx.query<BucketRow>(
    `insert into storage.buckets (id, name, public, allowed_mime_types, file_size_limit)
     values ($1, $1, $2, $3::text[], $4::bigint)
     on conflict do nothing
     returning ${columns}`,
    [body.name, body.public ?? false, body.allowed_mime_types ?? null, body.file_size_limit ?? null],
  )
  const row: BucketRow | undefined = rows[0]
  return row && toBucket(row)
}

/** Deletes the bucket unless it still holds objects (any the transaction's role can see or not). */
export async function deleteBucket(tx: ProjectTx, id: string): Promise<'deleted' | 'missing' | 'not_empty'> {
  // The foreign key of storage.objects refuses it anyway; asked first so that the answer is a clear 409.
  const { rows: held } = await tx.query<{ held: boolean }>('select storage.bucket_holds_objects($1) as held', [id])
  if (held[0]?.held) return 'not_empty'
  const { rows } = await tx.query('delete from storage.buckets where id = $1 returning id', [id])
  return rows.length > 0 ? 'deleted' : 'missing'
}

/** Changes the settings given (undefined: kept); whether the bucket was there for the transaction's role. */
export async function updateBucket(
  tx: ProjectTx,
  id: string,
  changes: { public?: boolean; file_size_limit?: number | null; allowed_mime_types?: string[] | null },
): Promise<boolean> {
  const sets: string[] = []
  const params: unknown[] = [id]
  if (changes.public !== undefined) sets.push(`public = $${params.push(changes.public)}`)
  if (changes.file_size_limit !== undefined) sets.push(`file_size_limit = $${params.push(changes.file_size_limit)}::bigint`)
  if (changes.allowed_mime_types !== undefined) sets.push(`allowed_mime_types = $${params.push(changes.allowed_mime_types)}::text[]`)
  sets.push('updated_at = now()')
  const { rows } = await tx.query(`update storage.buckets set ${sets.join(', ')} where id = $1 returning id`, params)
  return rows.length > 0
}

/** Whether the project has the storage service (the platform store's flag; false: its tenant is unknown). */
export async function storageEnabled(db: Queryable, projectId: number): Promise<boolean> {
  const { rows } = await db.query<{ storage_enabled: boolean }>('select storage_enabled from projects where id = $1', [projectId])
  return rows[0]?.storage_enabled === true
}

// ---- objects -------------------------------------------------------------------------------------------------------

export interface ObjectMetadata {
  eTag: string
  size: number
  mimetype: string
  cacheControl: string
  lastModified: string
  contentLength: number
  httpStatusCode: number
}

export interface ObjectRow {
  id: string
  bucket_id: string
  name: string
  owner: string | null
  owner_id: string | null
  version: string
  metadata: ObjectMetadata
  user_metadata: Record<string, unknown> | null
  created_at: string
  updated_at: string
  last_accessed_at: string
}

const COLUMNS = 'id, bucket_id, name, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at'

/** A row as the driver gives it: timestamps as Date (node-postgres, PGlite) or text. */
type StoredObjectRow = Omit<ObjectRow, 'created_at' | 'updated_at' | 'last_accessed_at'> & {
  created_at: Date | string
  updated_at: Date | string
  last_accessed_at: Date | string
}

function toRow(r: StoredObjectRow): ObjectRow {
  return { ...r, created_at: iso(r.created_at), updated_at: iso(r.updated_at), last_accessed_at: iso(r.last_accessed_at) }
}

export interface BucketInfo {
  id: string
  public: boolean
  file_size_limit: number | null
  allowed_mime_types: string[] | null
}

export async function findBucket(tx: ProjectTx, id: string): Promise<BucketInfo | undefined> {
  const { rows } = await tx.query<BucketInfo>(
    'select id, public, file_size_limit::double precision as file_size_limit, allowed_mime_types from storage.buckets where id = $1',
    [id],
  )
  return rows[0]
}

export async function findObject(tx: ProjectTx, bucket: string, name: string): Promise<ObjectRow | undefined> {
  const { rows } = await tx.query<StoredObjectRow>(`select ${COLUMNS} from storage.objects where bucket_id = $1 and name = $2`, [bucket, name])
  return rows[0] && toRow(rows[0])
}

export interface NewObject {
  bucket: string
  name: string
  owner: string | undefined
  version: string
  metadata: ObjectMetadata
  userMetadata: Record<string, unknown> | null
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Inserts the object (upsert: or replaces the one at its name); its id. A taken name without upsert: 23505. */
export async function putObject(tx: ProjectTx, o: NewObject, upsert: boolean): Promise<string> {
  const owner = o.owner !== undefined && UUID.test(o.owner) ? o.owner : null
  const { rows } = await tx.query<{ id: string }>(
    `insert into storage.objects (bucket_id, name, owner, owner_id, version, metadata, user_metadata)
     values ($1, $2, $3::uuid, $4, $5, $6::jsonb, $7::jsonb)
     ${upsert ? `on conflict (bucket_id, name) do update set owner = excluded.owner, owner_id = excluded.owner_id,
       version = excluded.version, metadata = excluded.metadata, user_metadata = excluded.user_metadata, updated_at = now()` : ''}
     returning id`,
    [o.bucket, o.name, owner, o.owner ?? null, o.version, JSON.stringify(o.metadata), o.userMetadata === null ? null : JSON.stringify(o.userMetadata)],
  )
  return rows[0].id
}

/** Deletes the named objects the caller may delete; the rows deleted. */
export async function deleteObjects(tx: ProjectTx, bucket: string, names: string[]): Promise<ObjectRow[]> {
  const { rows } = await tx.query<StoredObjectRow>(`delete from storage.objects where bucket_id = $1 and name = any($2::text[]) returning ${COLUMNS}`, [bucket, names])
  return rows.map(toRow)
}

/** Deletes every object of a bucket the caller may delete; their versions. */
export async function emptyBucket(tx: ProjectTx, bucket: string): Promise<string[]> {
  const { rows } = await tx.query<{ version: string }>('delete from storage.objects where bucket_id = $1 returning version', [bucket])
  return rows.map((r) => r.version)
}

export async function moveObject(tx: ProjectTx, from: { bucket: string; name: string }, to: { bucket: string; name: string }): Promise<boolean> {
  const { rows } = await tx.query(
    'update storage.objects set bucket_id = $3, name = $4, updated_at = now() where bucket_id = $1 and name = $2 returning id',
    [from.bucket, from.name, to.bucket, to.name],
  )
  return rows.length > 0
}

export type SortColumn = 'name' | 'created_at' | 'updated_at' | 'last_accessed_at'

export interface ListOptions {
  prefix: string
  limit: number
  offset: number
  sortBy: { column: SortColumn; order: 'asc' | 'desc' }
  search: string
}

export interface ListItem {
  name: string
  id: string | null
  updated_at: string | null
  created_at: string | null
  last_accessed_at: string | null
  metadata: ObjectMetadata | null
}

/**
 * The entries of one folder, as the platform's `storage.search` answers: the objects right in it, and each
 * sub-folder once (name only, id and dates null). `search` keeps entries whose name contains it (any case).
 */
export async function listFolder(tx: ProjectTx, bucket: string, o: ListOptions): Promise<ListItem[]> {
  const folder = o.prefix === '' || o.prefix.endsWith('/') ? o.prefix : `${o.prefix}/`
  const order = o.sortBy.order === 'desc' ? 'desc' : 'asc'
  // Folders have no dates: they sort by name whatever the column, first, as the platform lists them.
  const { rows } = await tx.query<{
    name: string
    id: string | null
    updated_at: Date | string | null
    created_at: Date | string | null
    last_accessed_at: Date | string | null
    metadata: ObjectMetadata | null
  }>(
    `with inside as (
       select o.*, substr(o.name, char_length($2) + 1) as rest from storage.objects o
       where o.bucket_id = $1 and left(o.name, char_length($2)) = $2
     ), entries as (
       select split_part(rest, '/', 1) as name, null::uuid as id, null::timestamptz as updated_at, null::timestamptz as created_at,
         null::timestamptz as last_accessed_at, null::jsonb as metadata, true as folder
       from inside where strpos(rest, '/') > 0 group by 1
       union all
       select rest, id, updated_at, created_at, last_accessed_at, metadata, false from inside where strpos(rest, '/') = 0
     )
     select name, id, updated_at, created_at, last_accessed_at, metadata from entries
     where $3 = '' or strpos(lower(name), lower($3)) > 0
     order by folder desc, ${o.sortBy.column === 'name' ? 'name' : o.sortBy.column} ${order} nulls last, name ${order}
     limit $4 offset $5`,
    [bucket, folder, o.search, o.limit, o.offset],
  )
  return rows.map((r) => ({
    name: r.name,
    id: r.id ?? null,
    updated_at: r.updated_at ? iso(r.updated_at) : null,
    created_at: r.created_at ? iso(r.created_at) : null,
    last_accessed_at: r.last_accessed_at ? iso(r.last_accessed_at) : null,
    metadata: r.metadata ?? null,
  }))
}

/** Which of the names the caller may see. */
export async function visibleNames(tx: ProjectTx, bucket: string, names: string[]): Promise<Set<string>> {
  const { rows } = await tx.query<{ name: string }>('select name from storage.objects where bucket_id = $1 and name = any($2::text[])', [bucket, names])
  return new Set(rows.map((r) => r.name))
}

/** Bytes of every object in the project's metadata (the usage figure). */
export async function storedBytes(tx: ProjectTx): Promise<number> {
  const { rows } = await tx.query<{ bytes: number }>(`select coalesce(sum((metadata->>'size')::bigint), 0)::double precision as bytes from storage.objects`)
  return Number(rows[0]?.bytes ?? 0)
}

/** The project's JWT secret in the platform's store, which signs its storage URLs (the gateway reads the same row). */
export async function projectJwtSecret(db: Queryable, projectId: number): Promise<string | undefined> {
  const { rows } = await db.query<{ jwt_secret: string | null }>('select jwt_secret from project_api_keys where project_id = $1', [projectId])
  return rows[0]?.jwt_secret ?? undefined
}
