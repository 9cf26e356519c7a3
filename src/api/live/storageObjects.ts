/**
 * The live actors of a bucket's file browser: the project's storage API behind the gateway (calls/storageObjects),
 * and one upload per file with its progress reported to its machine as bytes leave.
 */
import { fromCallback, fromPromise } from 'xstate'
import { storageExplorerMachine, type Connection, type DeleteEntry, type Preview } from '../../../machines/storageExplorer.machine'
import { storageUploadMachine, type UploadEvent, type UploadTarget } from '../../../machines/storageUpload.machine'
import type { BucketSettingsBody } from '../../contracts/storageObjects'
import {
  connectStorage,
  createFolder,
  getBucket,
  listFolder,
  memberBucket,
  memberListFolder,
  memberSignUrl,
  moveFolder,
  moveObject,
  objectInfo,
  readSigned,
  readTextStart,
  removeObjects,
  signUrl,
  StorageCallError,
  type StorageConnection,
  updateBucket,
  uploadFile,
} from '../calls/storageObjects'

type Signal = { signal: AbortSignal }

/** How much of a text file the preview shows. */
const TEXT_PREVIEW_BYTES = 64 * 1024
/** How long the preview's (and download's) signed URL lives. */
const PREVIEW_URL_SECONDS = 10 * 60

const isText = (type: string) => type.startsWith('text/') || /^application\/(json|xml|javascript)\b/.test(type) || type.endsWith('+json') || type.endsWith('+xml')

export const liveStorageUploadMachine = storageUploadMachine.provide({
  actors: {
    sendFile: fromCallback<UploadEvent, UploadTarget>(({ input, sendBack }) => {
      return uploadFile(input.connection, input.bucket, input.path, input.file, input.upsert, {
        progress: ({ loaded, total }) => sendBack({ type: 'upload.progressed', loaded, total }),
        done: () => sendBack({ type: 'upload.finished' }),
        // 409: the name is taken (the platform's 'The resource already exists'), which the person may overwrite.
        failed: (error) => sendBack({ type: 'upload.failed', message: error.message, conflict: error instanceof StorageCallError && error.status === 409 }),
      })
    }),
  },
})

/** A change needs the key: the machine offers none without it, so meeting one here is a bug, said plainly. */
function keyed(connection: Connection): StorageConnection {
  if (connection.key === null) throw new Error("Changing this project's files needs the service_role key")
  return connection
}

export const liveStorageExplorerMachine = storageExplorerMachine.provide({
  actors: {
    connectStorage: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; bucketId: string } }) => {
      const connection = await connectStorage(input.ref, { signal })
      const bucket = connection.key === null ? await memberBucket(input.ref, input.bucketId, { signal }) : await getBucket(connection, input.bucketId, { signal })
      return { connection, bucket }
    }),
    listFolder: fromPromise(({ input, signal }: Signal & { input: { connection: Connection; bucket: string; path: string; search: string } }) => {
      const c = input.connection
      return c.key === null
        ? memberListFolder(c.ref, input.bucket, input.path, input.search, { signal })
        : listFolder(c, input.bucket, input.path, input.search, { signal })
    }),
    loadPreview: fromPromise(async ({ input, signal }: Signal & { input: { connection: Connection; bucket: string; path: string } }): Promise<Preview> => {
      const c = input.connection
      if (c.key === null) {
        // Without the key: the object's facts from its signed URL's headers, a text's start by Range on it.
        const url = await memberSignUrl(c.ref, input.bucket, input.path, PREVIEW_URL_SECONDS, { signal })
        const head = await readSigned(url, null, { signal })
        const read = isText(head.contentType) ? await readSigned(url, TEXT_PREVIEW_BYTES, { signal }) : head
        const name = input.path
        return {
          // The platform's read does not carry the row's id: the path names the object here.
          info: { id: name, name, bucket_id: input.bucket, size: read.size, content_type: read.contentType, last_modified: read.lastModified ?? undefined, created_at: null, updated_at: null },
          url,
          text: read.text,
        }
      }
      const info = await objectInfo(c, input.bucket, input.path, { signal })
      const url = await signUrl(c, input.bucket, input.path, PREVIEW_URL_SECONDS, { signal })
      const text = isText(info.content_type) ? await readTextStart(c, input.bucket, input.path, TEXT_PREVIEW_BYTES, { signal }) : null
      return { info, url, text }
    }),
    createFolder: fromPromise(async ({ input, signal }: Signal & { input: { connection: Connection; bucket: string; path: string } }) => {
      await createFolder(keyed(input.connection), input.bucket, input.path, { signal })
    }),
    moveObject: fromPromise(async ({ input, signal }: Signal & { input: { connection: Connection; bucket: string; from: string; to: string; folder: boolean } }) => {
      if (input.folder) await moveFolder(keyed(input.connection), input.bucket, input.from, input.to, { signal })
      else await moveObject(keyed(input.connection), input.bucket, input.from, input.to, { signal })
    }),
    removeObjects: fromPromise(async ({ input, signal }: Signal & { input: { connection: Connection; bucket: string; entries: DeleteEntry[] } }) => {
      await removeObjects(keyed(input.connection), input.bucket, input.entries, { signal })
    }),
    signUrl: fromPromise(({ input, signal }: Signal & { input: { connection: Connection; bucket: string; path: string; expiresIn: number } }) => {
      const c = input.connection
      return c.key === null
        ? memberSignUrl(c.ref, input.bucket, input.path, input.expiresIn, { signal })
        : signUrl(c, input.bucket, input.path, input.expiresIn, { signal })
    }),
    updateBucket: fromPromise(async ({ input, signal }: Signal & { input: { connection: Connection; bucket: string; body: BucketSettingsBody } }) => {
      await updateBucket(keyed(input.connection), input.bucket, input.body, { signal })
    }),
    storageUpload: liveStorageUploadMachine,
  },
})
