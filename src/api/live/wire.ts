/** The live actors of the 'Connect' dialog: the pooler settings (the Management API's shape) and the clipboard. */
import { fromPromise } from 'xstate'
import { connectMachine } from '../../../machines/connect.machine'
import { getPoolerConfig } from '../calls/wire'

type Signal = { signal: AbortSignal }

export const liveConnectMachine = connectMachine.provide({
  actors: {
    fetchPoolerConfig: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getPoolerConfig(input.ref, { signal })),
    copyText: fromPromise(async ({ input }: { input: { text: string } }) => {
      if (!navigator.clipboard) throw new Error('The clipboard is not available')
      await navigator.clipboard.writeText(input.text)
    }),
  },
})
