/** The live actor and action of 'Generate types': the Management API's types, saved by the browser as a file. */
import { fromPromise } from 'xstate'
import { typeGenerationMachine } from '../../../machines/typeGeneration.machine'
import { getTypescriptTypes } from '../calls/database'
import { saveAsFile } from './saveFile'

type Signal = { signal: AbortSignal }

export const liveTypeGenerationMachine = typeGenerationMachine.provide({
  actors: {
    generateTypes: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getTypescriptTypes(input.ref, { signal })),
  },
  actions: {
    downloadFile: (_, params) => saveAsFile({ ...params, mediaType: 'text/typescript' }),
  },
})
