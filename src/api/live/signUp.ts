/** The live actor of sign-up: the account is created and signed in, then the permissions are read. */
import { fromPromise } from 'xstate'
import { signUpMachine } from '../../../machines/signUp.machine'
import type { SignUpBody } from '../../contracts/accounts'
import { signUp } from '../calls/accounts'
import { getPermissions } from '../calls/session'

type Signal = { signal: AbortSignal }

export const liveSignUpMachine = signUpMachine.provide({
  actors: {
    signUp: fromPromise(async ({ input, signal }: Signal & { input: SignUpBody }) => {
      const profile = await signUp(input, { signal })
      return { profile, permissions: await getPermissions({ signal }) }
    }),
  },
})
