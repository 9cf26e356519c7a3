/** The live actors of the connecting flow: the connectivity test of the project's API server. */
import { fromPromise } from 'xstate'
import { connectingChildMachine, type ConnectivityEndpoint } from '../../../machines/connecting.machine'
import { getProjectLive } from '../calls/projects'
import { getProjectRestSchema } from '../calls/rest'

/** What the flow reads: the child below runs with it, and so do the tests that run the flow's machine on its own. */
export const connectingActors = {
  testConnectivity: fromPromise(
    ({ input, signal }: { input: { ref: string; endpoint: ConnectivityEndpoint }; signal: AbortSignal }): Promise<unknown> =>
      input.endpoint === 'live' ? getProjectLive(input.ref, { signal }) : getProjectRestSchema(input.ref, { signal }),
  ),
}

export const liveConnectingChildMachine = connectingChildMachine.provide({ actors: connectingActors })
