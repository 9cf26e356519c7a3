/** The live actors of the 'Supabase AI Settings' dialog: the person's setting for the project, read and saved. */
import { fromPromise } from 'xstate'
import { aiSettingsMachine } from '../../../machines/aiSettings.machine'
import { getAiSettings, updateAiSettings } from '../calls/orgSettings'

type Signal = { signal: AbortSignal }

export const liveAiSettingsMachine = aiSettingsMachine.provide({
  actors: {
    fetchAiSettings: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getAiSettings(input.ref, { signal })),
    saveAiSettings: fromPromise(({ input, signal }: Signal & { input: { ref: string; send: boolean } }) =>
      updateAiSettings(input.ref, { send_anonymous_schema_metadata: input.send }, { signal }),
    ),
  },
})
