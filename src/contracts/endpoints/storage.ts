import { endpoint } from '../endpoint'
import { CreateFunctionBody, FunctionList, FunctionResponse } from '../functions'
import { Bucket, BucketList, CreateBucketBody, DeleteBucketResponse } from '../storage'

// Storage buckets (src/contracts/storage.ts) and edge functions (src/contracts/functions.ts).
export const listBuckets = /* @__PURE__ */ endpoint('GET', 'platform', '/storage/:ref/buckets', { response: BucketList })
export const createBucket = /* @__PURE__ */ endpoint('POST', 'platform', '/storage/:ref/buckets', { body: CreateBucketBody, response: Bucket })
export const deleteBucket = /* @__PURE__ */ endpoint('DELETE', 'platform', '/storage/:ref/buckets/:id', { response: DeleteBucketResponse })
export const listFunctions = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/functions', { response: FunctionList })
export const getFunction = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/functions/:slug', { response: FunctionResponse })
export const createFunction = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/functions', { body: CreateFunctionBody, response: FunctionResponse })
export const deleteFunction = /* @__PURE__ */ endpoint('DELETE', 'v1', '/projects/:ref/functions/:slug')
