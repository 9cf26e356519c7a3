import { endpoint } from '../endpoint'
import { Bucket, BucketList, CreateBucketBody, DeleteBucketResponse } from '../storage'

// Storage buckets (src/contracts/storage.ts).
export const listBuckets = /* @__PURE__ */ endpoint('GET', 'platform', '/storage/:ref/buckets', { response: BucketList })
export const createBucket = /* @__PURE__ */ endpoint('POST', 'platform', '/storage/:ref/buckets', { body: CreateBucketBody, response: Bucket })
export const deleteBucket = /* @__PURE__ */ endpoint('DELETE', 'platform', '/storage/:ref/buckets/:id', { response: DeleteBucketResponse })
