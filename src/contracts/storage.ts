/**
 * A project's storage buckets (rows of `storage.buckets` in the project's own database).
 *   GET    /platform/storage/{ref}/buckets         → BucketList
 *   POST   /platform/storage/{ref}/buckets         CreateBucketBody → Bucket (201)
 *   DELETE /platform/storage/{ref}/buckets/{id}    → 200 { message } (a bucket that still holds objects: 409)
 * A project whose storage is disabled answers 404 with a message that begins 'Tenant config' and ends 'not found'
 * (the dashboard does not retry that one; any other failure is retried at most 3 times — spec 8).
 * Reading needs project_storage:all in the project's organization, as does every change.
 */
import * as z from 'zod/mini'

export const Bucket = z.object({
  id: z.string(),
  name: z.string(),
  owner: z.string(),
  public: z.boolean(),
  /** null: every type; []: none. */
  allowed_mime_types: z.nullable(z.array(z.string())),
  /** Bytes; null: no limit. */
  file_size_limit: z.nullable(z.number().check(z.int(), z.nonnegative())),
  created_at: z.string(),
  updated_at: z.string(),
})
export type Bucket = z.infer<typeof Bucket>

export const BucketList = z.array(Bucket)
export type BucketList = z.infer<typeof BucketList>

/** A bucket's name: 1–100 characters, no slash, unique in the project (the name is also its id). */
export const BucketName = z.string().check(
  z.minLength(1, 'Bucket name is required'),
  z.maxLength(100, 'Bucket name must be at most 100 characters'),
  z.refine((name) => !name.includes('/'), 'Bucket name cannot contain a slash'),
  z.refine((name) => name.trim() === name, 'Bucket name cannot start or end with spaces'),
)

export const CreateBucketBody = z.object({
  name: BucketName,
  public: z.optional(z.boolean()),
  allowed_mime_types: z.optional(z.nullable(z.array(z.string().check(z.regex(/^[\w.+-]+\/[\w.+*-]+$/, 'Not a MIME type'))))),
  file_size_limit: z.optional(z.nullable(z.number().check(z.int(), z.positive()))),
})
export type CreateBucketBody = z.infer<typeof CreateBucketBody>

export const DeleteBucketResponse = z.object({ message: z.string() })
export type DeleteBucketResponse = z.infer<typeof DeleteBucketResponse>

/** The message of a project whose storage is disabled (spec 8): never retried. */
export const isTenantConfigNotFound = (message: string) => message.startsWith('Tenant config') && message.endsWith('not found')
