/** The live actors of the connecting flow: the connectivity test of the project's API server. */
import { fromPromise } from 'xstate'
import { connectingChildMachine, connectingMachine, type ConnectivityEndpoint } from '../../../machines/connecting.machine'
import { getProjectLive } from '../calls/projects'
import { getProjectRestSchema } from '../calls/rest'

const testConnectivity = fromPromise(
  ({ input, signal }: { input: { ref: string; endpoint: ConnectivityEndpoint }; signal: AbortSignal }): Promise<unknown> =>
    input.endpoint === 'live' ? getProjectLive(input.ref, { signal }) : getProjectRestSchema(input.ref, { signal }),
)

export const liveConnectingMachine = connectingMachine.provide({ actors: { testConnectivity } })
/** As the project status machine's child. */
export const liveConnectingChildMachine = connectingChildMachine.provide({ actors: { testConnectivity } })
