import { endpoint, pathOf } from '../endpoint'
import { Bucket } from '../storage'
import {
  BucketSettingsBody,
  ListObjectsBody,
  MoveObjectBody,
  ObjectInfo,
  RemovedObjects,
  RemoveObjectsBody,
  SignedUrl,
  SignObjectBody,
  StorageList,
  StorageMessage,
  UploadedObject,
} from '../storageObjects'

// A project's storage API (src/contracts/storageObjects.ts), relative to `{projectUrl}/storage/v1`. An object's
// `:path` is sent percent-encoded whole (its slashes as %2F): the service decodes the key after the bucket.
export const getStorageBucket = /* @__PURE__ */ endpoint('GET', 'storage', '/bucket/:bucket', { response: Bucket })
export const updateStorageBucket = /* @__PURE__ */ endpoint('PUT', 'storage', '/bucket/:bucket', { body: BucketSettingsBody, response: StorageMessage })
export const listObjects = /* @__PURE__ */ endpoint('POST', 'storage', '/object/list/:bucket', { body: ListObjectsBody, response: StorageList })
export const uploadObject = /* @__PURE__ */ endpoint('POST', 'storage', '/object/:bucket/:path', { response: UploadedObject })
export const downloadObject = /* @__PURE__ */ endpoint('GET', 'storage', '/object/:bucket/:path')
export const publicObject = /* @__PURE__ */ endpoint('GET', 'storage', '/object/public/:bucket/:path')
export const moveObject = /* @__PURE__ */ endpoint('POST', 'storage', '/object/move', { body: MoveObjectBody, response: StorageMessage })
export const removeObjects = /* @__PURE__ */ endpoint('DELETE', 'storage', '/object/:bucket', { body: RemoveObjectsBody, response: RemovedObjects })
export const signObject = /* @__PURE__ */ endpoint('POST', 'storage', '/object/sign/:bucket/:path', { body: SignObjectBody, response: SignedUrl })
export const objectInfo = /* @__PURE__ */ endpoint('GET', 'storage', '/object/info/:bucket/:path', { response: ObjectInfo })
export const resumableUpload = /* @__PURE__ */ endpoint('POST', 'storage', '/upload/resumable')

/**
 * A public bucket's object URL under the storage API's URL (anyone may read a public bucket's objects), with the
 * key's slashes kept, as the platform writes public URLs.
 */
export const publicObjectUrl = (storageUrl: string, bucket: string, path: string) =>
  `${storageUrl}${pathOf(publicObject, { bucket, path }).replace(/%2F/gi, '/')}`
