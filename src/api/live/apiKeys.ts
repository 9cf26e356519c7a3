/** The live actors of the API keys flow: the project settings, with its JWT secret and copy button children. */
import { fromPromise } from 'xstate'
import { apiKeysMachine } from '../../../machines/apiKeys.machine'
import { getProjectSettings } from '../calls/keys'
import { liveCopyButtonMachine } from './copyButton'
import { liveJwtSecretChildMachine } from './jwtSecret'

export const fetchSettings = fromPromise(({ input, signal }: { input: { ref: string }; signal: AbortSignal }) => getProjectSettings(input.ref, { signal }))

export const liveApiKeysMachine = apiKeysMachine.provide({
  actors: { fetchSettings, jwtSecret: liveJwtSecretChildMachine, copyButton: liveCopyButtonMachine },
})
