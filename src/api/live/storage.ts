/** The live actors of the Storage page: the project's buckets, created and deleted through the platform API. */
import { fromPromise } from 'xstate'
import { storageBucketsMachine } from '../../../machines/storageBuckets.machine'
import type { CreateBucketBody } from '../../contracts/storage'
import { createBucket, deleteBucket, listBuckets } from '../calls/storage'

type Signal = { signal: AbortSignal }

export const liveStorageBucketsMachine = storageBucketsMachine.provide({
  actors: {
    listBuckets: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => listBuckets(input.ref, { signal })),
    createBucket: fromPromise(({ input, signal }: Signal & { input: { ref: string; body: CreateBucketBody } }) => createBucket(input.ref, input.body, { signal })),
    deleteBucket: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; id: string } }) => {
      await deleteBucket(input.ref, input.id, { signal })
    }),
  },
})
