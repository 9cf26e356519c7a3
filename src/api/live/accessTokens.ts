/** The live actors of the personal access tokens: list, create, revoke, and the browser's clipboard. */
import { fromPromise } from 'xstate'
import { accessTokensMachine, type CreateTokenInput } from '../../../machines/accessTokens.machine'
import { createAccessToken, listAccessTokens, revokeAccessToken } from '../calls/session'

type Signal = { signal: AbortSignal }

export const liveAccessTokensMachine = accessTokensMachine.provide({
  actors: {
    listAccessTokens: fromPromise(({ signal }: Signal) => listAccessTokens({ signal })),
    createAccessToken: fromPromise(({ input, signal }: Signal & { input: CreateTokenInput }) =>
      createAccessToken({ name: input.name, expires_in_days: input.expiresInDays }, { signal }),
    ),
    revokeAccessToken: fromPromise(async ({ input, signal }: Signal & { input: { id: number } }) => {
      await revokeAccessToken(input.id, { signal })
    }),
  },
  actions: {
    // A refusal (no permission, insecure origin) leaves the token on screen to copy by hand.
    copyToClipboard: (_, params) => {
      void navigator.clipboard?.writeText(params.text).catch(() => undefined)
    },
  },
})
