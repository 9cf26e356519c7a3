/**
 * A bucket's files, as the dashboard's file browser reads them from the project's storage API behind the gateway
 * (`{projectUrl}/storage/v1`, called with the project's service_role key, as the platform's dashboard does):
 *   GET  /bucket/{id}                 → Bucket (src/contracts/storage.ts)
 *   PUT  /bucket/{id}                 BucketSettingsBody → StorageMessage
 *   POST /object/list/{bucket}        ListObjectsBody → StorageListItem[] (folders: id null, metadata null)
 *   POST /object/{bucket}/{path}      raw body → UploadedObject (the upload; larger files: TUS /upload/resumable)
 *   POST /object/move                 MoveObjectBody → StorageMessage
 *   DELETE /object/{bucket}           { prefixes } → RemovedObject[]
 *   POST /object/sign/{bucket}/{path} { expiresIn } → SignedUrl (a path relative to /storage/v1)
 *   GET  /object/info/{bucket}/{path} → ObjectInfo
 * (Their descriptors, base 'storage': ./endpoints/storageObjects.ts; they are the project's API, not the platform's, so
 * ./endpoints.ts does not list them.)
 * Its errors are `{ statusCode, error, message }` (StorageErrorBody): the dashboard shows their message as it is.
 */
import * as z from 'zod/mini'

export const StorageErrorBody = z.object({
  statusCode: z.union([z.string(), z.number()]),
  error: z.string(),
  message: z.string(),
})
export type StorageErrorBody = z.infer<typeof StorageErrorBody>

/** What the service keeps of an object's bytes (`storage.objects.metadata`). */
export const ObjectMetadata = z.looseObject({
  size: z.number(),
  mimetype: z.string(),
  lastModified: z.optional(z.string()),
  eTag: z.optional(z.string()),
  cacheControl: z.optional(z.string()),
})
export type ObjectMetadata = z.infer<typeof ObjectMetadata>

/** One entry of a folder: a file (id and metadata) or a folder (both null). */
export const StorageListItem = z.object({
  name: z.string(),
  id: z.nullable(z.string()),
  updated_at: z.nullable(z.string()),
  created_at: z.nullable(z.string()),
  last_accessed_at: z.nullable(z.string()),
  metadata: z.nullable(ObjectMetadata),
})
export type StorageListItem = z.infer<typeof StorageListItem>
export const StorageList = z.array(StorageListItem)
export type StorageList = z.infer<typeof StorageList>

export const ListObjectsBody = z.object({
  prefix: z.string(),
  limit: z.number().check(z.int(), z.minimum(1), z.maximum(10_000)),
  offset: z.number().check(z.int(), z.nonnegative()),
  sortBy: z.object({ column: z.enum(['name', 'created_at', 'updated_at', 'last_accessed_at']), order: z.enum(['asc', 'desc']) }),
  search: z.string(),
})
export type ListObjectsBody = z.infer<typeof ListObjectsBody>

export const StorageMessage = z.object({ message: z.string() })
export type StorageMessage = z.infer<typeof StorageMessage>

export const UploadedObject = z.object({ Id: z.optional(z.string()), Key: z.string() })
export type UploadedObject = z.infer<typeof UploadedObject>

export const MoveObjectBody = z.object({ bucketId: z.string(), sourceKey: z.string(), destinationKey: z.string() })
export type MoveObjectBody = z.infer<typeof MoveObjectBody>

export const RemovedObject = z.looseObject({ name: z.string(), bucket_id: z.string() })
export const RemovedObjects = z.array(RemovedObject)

export const SignedUrl = z.object({ signedURL: z.string().check(z.startsWith('/object/sign/')) })
export type SignedUrl = z.infer<typeof SignedUrl>

export const ObjectInfo = z.object({
  id: z.string(),
  name: z.string(),
  bucket_id: z.string(),
  size: z.number(),
  content_type: z.string(),
  last_modified: z.optional(z.string()),
  created_at: z.nullable(z.string()),
  updated_at: z.nullable(z.string()),
})
export type ObjectInfo = z.infer<typeof ObjectInfo>

export const BucketSettingsBody = z.object({
  public: z.boolean(),
  /** Bytes; null: no limit. */
  file_size_limit: z.nullable(z.number().check(z.int(), z.positive())),
  /** null: every type. */
  allowed_mime_types: z.nullable(z.array(z.string().check(z.regex(/^[\w.+-]+\/[\w.+*-]+$/, 'Not a MIME type')))),
})
export type BucketSettingsBody = z.infer<typeof BucketSettingsBody>

/** The name a folder is kept by: an empty object inside it, as the platform's dashboard creates folders. */
export const FOLDER_PLACEHOLDER = '.emptyFolderPlaceholder'
/** Files larger than this go through the resumable (TUS) endpoint, in chunks of this size (the platform's rule). */
export const RESUMABLE_THRESHOLD = 6 * 1024 * 1024

export const RemoveObjectsBody = z.object({ prefixes: z.array(z.string().check(z.minLength(1))).check(z.minLength(1), z.maxLength(1000)) })
export type RemoveObjectsBody = z.infer<typeof RemoveObjectsBody>

export const SignObjectBody = z.object({ expiresIn: z.number().check(z.int(), z.positive()) })
export type SignObjectBody = z.infer<typeof SignObjectBody>

/**
 * The platform's own object reads for a member (POST /platform/storage/{ref}/buckets/{id}/objects/list and /sign, as
 * the platform's dashboard calls them): every member may browse and download; the bytes come from a signed URL.
 */
export const MemberListObjectsBody = z.object({
  path: z.string().check(z.maxLength(1024)),
  options: z.object({
    limit: z.number().check(z.int(), z.minimum(1), z.maximum(10_000)),
    offset: z.number().check(z.int(), z.nonnegative()),
    sortBy: z.object({ column: z.enum(['name', 'created_at', 'updated_at', 'last_accessed_at']), order: z.enum(['asc', 'desc']) }),
    search: z.string().check(z.maxLength(1024)),
  }),
})
export type MemberListObjectsBody = z.infer<typeof MemberListObjectsBody>
export const MemberSignObjectBody = z.object({
  path: z.string().check(z.minLength(1), z.maxLength(1024)),
  expiresIn: z.number().check(z.int(), z.positive(), z.maximum(10 * 365 * 24 * 3600)),
})
export type MemberSignObjectBody = z.infer<typeof MemberSignObjectBody>
/** An absolute signed URL of the object, under the project's storage API. */
export const MemberSignedUrl = z.object({ signedUrl: z.string().check(z.url()) })
export type MemberSignedUrl = z.infer<typeof MemberSignedUrl>
