/** The live actor of the Edge Functions page: the Management API's list of the project's functions. */
import { fromPromise } from 'xstate'
import { edgeFunctionsMachine } from '../../../machines/edgeFunctions.machine'
import { listFunctions } from '../calls/functions'

type Signal = { signal: AbortSignal }

export const liveEdgeFunctionsMachine = edgeFunctionsMachine.provide({
  actors: {
    listFunctions: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => listFunctions(input.ref, { signal })),
  },
})
