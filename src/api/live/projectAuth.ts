/**
 * The live actors of the Authentication pages: the users through the platform's /platform/auth routes, the local
 * mailbox, and the settings through the Management API's config/auth.
 */
import { fromPromise } from 'xstate'
import { authEmailsMachine } from '../../../machines/authEmails.machine'
import { authSettingsMachine } from '../../../machines/authSettings.machine'
import { authUsersMachine, type AddMode, type UserActionInput, type UsersQuery } from '../../../machines/authUsers.machine'
import type { UpdateAuthConfigBody } from '../../contracts/auth'
import type { AuthEmailBody, CreateAuthUserBody } from '../../contracts/projectAuth'
import {
  createAuthUser,
  deleteAuthUser,
  getAuthConfig,
  getAuthMailbox,
  inviteAuthUser,
  listAuthUsers,
  sendAuthMagicLink,
  sendAuthRecovery,
  updateAuthConfig,
  updateAuthUser,
} from '../calls/projectAuth'

type Signal = { signal: AbortSignal }

export const liveAuthUsersMachine = authUsersMachine.provide({
  actors: {
    listAuthUsers: fromPromise(({ input, signal }: Signal & { input: { ref: string; query: UsersQuery } }) => listAuthUsers(input.ref, input.query, { signal })),
    addAuthUser: fromPromise(({ input, signal }: Signal & { input: { ref: string; mode: AddMode; body: CreateAuthUserBody | AuthEmailBody } }) =>
      input.mode === 'invite'
        ? inviteAuthUser(input.ref, { email: input.body.email }, { signal })
        : createAuthUser(input.ref, input.body as CreateAuthUserBody, { signal }),
    ),
    runUserAction: fromPromise(async ({ input, signal }: Signal & { input: UserActionInput }) => {
      const { ref, user, action } = input
      if (action === 'magiclink') await sendAuthMagicLink(ref, { email: user.email }, { signal })
      else if (action === 'recovery') await sendAuthRecovery(ref, { email: user.email }, { signal })
      else return updateAuthUser(ref, user.id, { ban_duration: action === 'ban' ? '24h' : 'none' }, { signal })
      return null
    }),
    removeAuthUser: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; id: string } }) => {
      await deleteAuthUser(input.ref, input.id, { signal })
    }),
  },
})

export const liveAuthEmailsMachine = authEmailsMachine.provide({
  actors: {
    readMailbox: fromPromise(async ({ input, signal }: Signal & { input: { ref: string } }) => (await getAuthMailbox(input.ref, { signal })).messages),
  },
})

export const liveAuthSettingsMachine = authSettingsMachine.provide({
  actors: {
    loadSettings: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => getAuthConfig(input.ref, { signal })),
    saveSettings: fromPromise(({ input, signal }: Signal & { input: { ref: string; body: UpdateAuthConfigBody } }) => updateAuthConfig(input.ref, input.body, { signal })),
  },
})
