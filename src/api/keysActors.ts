/** The real I/O of the API keys flow: settings, JWT secret status and update, and the browser's clipboard. */
import { fromPromise } from 'xstate'
import { apiKeysMachine, jwtSecretChildMachine } from '../../machines/apiKeys.machine'
import { copyButtonMachine } from '../../machines/copyButton.machine'
import type { JwtSecretUpdateBody } from '../contracts/keys'
import { getJwtSecretUpdateStatus, getProjectSettings, updateJwtSecret } from './platform'

type Signal = { signal: AbortSignal }

export const fetchSettings = fromPromise(({ input, signal }: Signal & { input: { ref: string } }) =>
  getProjectSettings(input.ref, { signal }),
)
export const fetchJwtStatus = fromPromise(({ input, signal }: Signal & { input: { ref: string } }) =>
  getJwtSecretUpdateStatus(input.ref, { signal }),
)
export const requestJwtSecretUpdate = fromPromise(
  ({ input, signal }: Signal & { input: { ref: string; body: JwtSecretUpdateBody } }) => updateJwtSecret(input.ref, input.body, { signal }),
)

/** A refusal (no permission, insecure origin, no clipboard) fails the copy; the button returns to 'Copy'. */
export const writeClipboard = fromPromise(async ({ input }: { input: { text: string } }) => {
  if (!navigator.clipboard) throw new Error('The clipboard is not available')
  await navigator.clipboard.writeText(input.text)
})

export const liveCopyButtonMachine = copyButtonMachine.provide({ actors: { writeClipboard } })

export const liveApiKeysMachine = apiKeysMachine.provide({
  actors: {
    fetchSettings,
    jwtSecret: jwtSecretChildMachine.provide({ actors: { fetchJwtStatus, updateJwtSecret: requestJwtSecretUpdate } }),
    copyButton: liveCopyButtonMachine,
  },
})
