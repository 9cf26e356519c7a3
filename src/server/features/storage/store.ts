/**
 * The SQL of storage buckets: rows of `storage.buckets` in the project's own database (the table comes with the
 * project database template), read and written as service_role, the role the platform's storage service uses.
 * A bucket's id is its name. `owner` is not stored: the template's table has no owner column, so every bucket
 * answers owner '' (the platform's own answer for a bucket made with a service key rather than by a user).
 */
import type { Bucket, CreateBucketBody } from '../../../contracts/storage'
import { iso } from '../../core/rows'
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
