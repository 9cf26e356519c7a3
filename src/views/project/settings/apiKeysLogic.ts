import { createContext } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { apiKeysMachine } from '../../../../machines/apiKeys.machine'

/** The API keys machine with its live actors, provided by the app (src/app); absent, the panels render nothing. */
export const ApiKeysMachineContext = createContext<typeof apiKeysMachine | null>(null)

export type ApiKeysActorRef = ActorRefFrom<typeof apiKeysMachine>
