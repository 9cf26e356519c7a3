/** The live actors of the JWT secret flow: its update status and the update request. */
import { fromPromise } from 'xstate'
import { jwtSecretChildMachine } from '../../../machines/apiKeys.machine'
import type { JwtSecretUpdateBody } from '../../contracts/keys'
import { getJwtSecretUpdateStatus, updateJwtSecret } from '../calls/keys'

type Signal = { signal: AbortSignal }

export const fetchJwtStatus = fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getJwtSecretUpdateStatus(input.ref, { signal }))
export const requestJwtSecretUpdate = fromPromise(({ input, signal }: Signal & { input: { ref: string; body: JwtSecretUpdateBody } }) =>
  updateJwtSecret(input.ref, input.body, { signal }),
)

/** As the API keys machine's child. */
export const liveJwtSecretChildMachine = jwtSecretChildMachine.provide({ actors: { fetchJwtStatus, updateJwtSecret: requestJwtSecretUpdate } })
