/**
 * The live actors of the API docs panel: the REST schema (read once per opening), the API key info (its keys),
 * the buckets and the edge functions, the JWT secret update status, and the browser's clipboard for its copy buttons.
 */
import { fromPromise } from 'xstate'
import { apiDocsMachine, jwtSecretDocsChildMachine } from '../../../machines/apiDocs.machine'
import { getProjectApiInfo } from '../calls/keys'
import { listFunctions } from '../calls/functions'
import { getProjectRestSchema } from '../calls/rest'
import { listBuckets } from '../calls/storage'
import { liveCopyButtonMachine } from './copyButton'
import { fetchJwtStatus, requestJwtSecretUpdate } from './jwtSecret'

type Read = { input: { ref: string }; signal: AbortSignal }

export const liveApiDocsMachine = apiDocsMachine.provide({
  actors: {
    fetchRestSchema: fromPromise(({ input, signal }: Read) => getProjectRestSchema(input.ref, { signal })),
    fetchApiKeyInfo: fromPromise(({ input, signal }: Read) => getProjectApiInfo(input.ref, { signal })),
    fetchBuckets: fromPromise(({ input, signal }: Read) => listBuckets(input.ref, { signal })),
    fetchFunctions: fromPromise(({ input, signal }: Read) => listFunctions(input.ref, { signal })),
    copyButton: liveCopyButtonMachine,
    jwtSecret: jwtSecretDocsChildMachine.provide({ actors: { fetchJwtStatus, updateJwtSecret: requestJwtSecretUpdate } }),
  },
})
