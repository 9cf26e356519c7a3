/** The live actors of the session flow: the profile with the person's permissions, sign-in and sign-out. */
import { fromPromise } from 'xstate'
import { sessionMachine, type SignInCredentials } from '../../../machines/session.machine'
import { getPermissions, getProfile, signIn, signOut } from '../calls/session'

type Signal = { signal: AbortSignal }

export const liveSessionMachine = sessionMachine.provide({
  actors: {
    fetchSession: fromPromise(async ({ signal }: Signal) => {
      // Both reads at once (one round trip less before the first page): when the profile fails (signed out), that
      // error is the answer and the permissions' failure is dropped.
      const permissions = getPermissions({ signal })
      permissions.catch(() => {})
      const profile = await getProfile({ signal })
      return { profile, permissions: await permissions }
    }),
    signIn: fromPromise(async ({ input, signal }: Signal & { input: SignInCredentials }) => {
      const profile = await signIn(input, { signal })
      return { profile, permissions: await getPermissions({ signal }) }
    }),
    signOut: fromPromise(async ({ signal }: Signal) => {
      await signOut({ signal })
    }),
  },
})
