/** The live actor of /join: the invitation accepted, then the session read again (the new permissions). */
import { fromPromise } from 'xstate'
import { joinInvitationMachine } from '../../../machines/joinInvitation.machine'
import { sendEmailVerification } from '../calls/accounts'
import { acceptInvitation } from '../calls/members'
import { getPermissions, getProfile } from '../calls/session'

type Signal = { signal: AbortSignal }

export const liveJoinInvitationMachine = joinInvitationMachine.provide({
  actors: {
    acceptInvitation: fromPromise(async ({ input, signal }: Signal & { input: { token: string } }) => {
      const organization = await acceptInvitation(input, { signal })
      const [profile, permissions] = await Promise.all([getProfile({ signal }), getPermissions({ signal })])
      return { organization, session: { profile, permissions } }
    }),
    sendEmailVerification: fromPromise(({ signal }: Signal) => sendEmailVerification({ signal })),
  },
})
