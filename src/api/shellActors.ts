/** The real I/O of the dashboard shell's machines (session, project list, access tokens, organization pages). */
import { fromPromise } from 'xstate'
import { accessTokensMachine } from '../../machines/accessTokens.machine'
import { organizationMachine } from '../../machines/organization.machine'
import { projectListMachine } from '../../machines/projectList.machine'
import { sessionMachine, type SignInCredentials } from '../../machines/session.machine'
import {
  createAccessToken,
  getOrganization,
  getPermissions,
  getProfile,
  getSubscription,
  listAccessTokens,
  listOrganizations,
  listProjects,
  revokeAccessToken,
  signIn,
  signOut,
} from './platform'

type Signal = { signal: AbortSignal }

export const liveSessionMachine = sessionMachine.provide({
  actors: {
    fetchSession: fromPromise(async ({ signal }: Signal) => {
      const profile = await getProfile({ signal })
      return { profile, permissions: await getPermissions({ signal }) }
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

export const liveProjectListMachine = projectListMachine.provide({
  actors: {
    fetchProjects: fromPromise(async ({ signal }: Signal) => {
      const [organizations, projects] = await Promise.all([listOrganizations({ signal }), listProjects({ signal })])
      return { organizations, projects }
    }),
  },
})

export const liveAccessTokensMachine = accessTokensMachine.provide({
  actors: {
    listAccessTokens: fromPromise(({ signal }: Signal) => listAccessTokens({ signal })),
    createAccessToken: fromPromise(({ input, signal }: Signal & { input: { name: string } }) => createAccessToken(input.name, { signal })),
    revokeAccessToken: fromPromise(async ({ input, signal }: Signal & { input: { id: number } }) => {
      await revokeAccessToken(input.id, { signal })
    }),
  },
})

export const liveOrganizationMachine = organizationMachine.provide({
  actors: {
    fetchOrganization: fromPromise(async ({ input, signal }: Signal & { input: { slug: string } }) => {
      const [organization, subscription] = await Promise.all([
        getOrganization(input.slug, { signal }),
        getSubscription(input.slug, { signal }),
      ])
      return { organization, subscription }
    }),
  },
})
