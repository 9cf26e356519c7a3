import { endpoint } from '../endpoint'
import { Bucket, BucketList, CreateBucketBody, DeleteBucketResponse } from '../storage'
import { MemberListObjectsBody, MemberSignedUrl, MemberSignObjectBody, StorageList } from '../storageObjects'

// Storage buckets (src/contracts/storage.ts).
export const listBuckets = /* @__PURE__ */ endpoint('GET', 'platform', '/storage/:ref/buckets', { response: BucketList })
export const createBucket = /* @__PURE__ */ endpoint('POST', 'platform', '/storage/:ref/buckets', { body: CreateBucketBody, response: Bucket })
export const deleteBucket = /* @__PURE__ */ endpoint('DELETE', 'platform', '/storage/:ref/buckets/:id', { response: DeleteBucketResponse })
// A bucket's objects read by any member of the project (browse and download; changes go through the storage API).
export const listBucketObjects = /* @__PURE__ */ endpoint('POST', 'platform', '/storage/:ref/buckets/:id/objects/list', { body: MemberListObjectsBody, response: StorageList })
export const signBucketObject = /* @__PURE__ */ endpoint('POST', 'platform', '/storage/:ref/buckets/:id/objects/sign', { body: MemberSignObjectBody, response: MemberSignedUrl })
