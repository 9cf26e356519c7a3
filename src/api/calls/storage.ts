import type { CreateBucketBody } from '../../contracts/storage'
import * as endpoints from '../../contracts/endpoints/storage'
import { call, type CallOptions } from '../http'

// Storage buckets.
export const listBuckets = (ref: string | undefined, options?: CallOptions) => call(endpoints.listBuckets, { ref }, options)
export const createBucket = (ref: string | undefined, body: CreateBucketBody, options?: CallOptions) => call(endpoints.createBucket, { ref }, { ...options, body })
export const deleteBucket = (ref: string | undefined, id: string, options?: CallOptions) => call(endpoints.deleteBucket, { ref, id }, options)
