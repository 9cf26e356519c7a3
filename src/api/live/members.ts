/** The live actors of an organization's Team page: its members and invitations. */
import { fromPromise } from 'xstate'
import { membersMachine } from '../../../machines/members.machine'
import type { Role } from '../../contracts/common'
import type { InviteMemberBody } from '../../contracts/members'
import { getTeam, inviteMember, removeMember, updateMember } from '../calls/members'

type Signal = { signal: AbortSignal }

export const liveMembersMachine = membersMachine.provide({
  actors: {
    getTeam: fromPromise(({ input, signal }: Signal & { input: { slug: string } }) => getTeam(input.slug, { signal })),
    inviteMember: fromPromise(({ input, signal }: Signal & { input: { slug: string; body: InviteMemberBody } }) => inviteMember(input.slug, input.body, { signal })),
    updateMember: fromPromise(({ input, signal }: Signal & { input: { slug: string; accountId: number; role: Role } }) =>
      updateMember(input.slug, input.accountId, input.role, { signal }),
    ),
    removeMember: fromPromise(async ({ input, signal }: Signal & { input: { slug: string; accountId: number } }) => {
      await removeMember(input.slug, input.accountId, { signal })
    }),
  },
})
