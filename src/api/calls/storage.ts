import type { CreateBucketBody } from '../../contracts/storage'
import type { MemberListObjectsBody, MemberSignObjectBody } from '../../contracts/storageObjects'
import * as endpoints from '../../contracts/endpoints/storage'
import { call, type CallOptions } from '../http'

// Storage buckets.
export const listBuckets = (ref: string | undefined, options?: CallOptions) => call(endpoints.listBuckets, { ref }, options)
export const createBucket = (ref: string | undefined, body: CreateBucketBody, options?: CallOptions) => call(endpoints.createBucket, { ref }, { ...options, body })
export const deleteBucket = (ref: string | undefined, id: string, options?: CallOptions) => call(endpoints.deleteBucket, { ref, id }, options)
// A bucket's objects as any member reads them (no key needed: the platform checks the membership).
export const listBucketObjects = (ref: string, id: string, body: MemberListObjectsBody, options?: CallOptions) =>
  call(endpoints.listBucketObjects, { ref, id }, { ...options, body })
export const signBucketObject = (ref: string, id: string, body: MemberSignObjectBody, options?: CallOptions) =>
  call(endpoints.signBucketObject, { ref, id }, { ...options, body })
