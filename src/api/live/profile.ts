/** The live actor of the profile: the username saved. */
import { fromPromise } from 'xstate'
import { profileMachine } from '../../../machines/profile.machine'
import { updateProfile } from '../calls/accounts'

type Signal = { signal: AbortSignal }

export const liveProfileMachine = profileMachine.provide({
  actors: {
    updateProfile: fromPromise(({ input, signal }: Signal & { input: { username: string } }) => updateProfile(input, { signal })),
  },
})
