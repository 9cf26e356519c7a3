/**
 * The live actors of a function's pages: its page (function, files, verify_jwt, deploy, logs), its Test panel (the
 * project's URL and keys, then the request through the gateway), its figures (functions.combined-stats), 'Deploy a new function', and Edge Function Secrets.
 */
import { fromPromise } from 'xstate'
import { functionCreateMachine } from '../../../machines/functionCreate.machine'
import { functionDetailMachine } from '../../../machines/functionDetail.machine'
import { functionSecretsMachine, type SecretDraft } from '../../../machines/functionSecrets.machine'
import { functionStatsMachine, type StatsInterval } from '../../../machines/functionStats.machine'
import { functionTestMachine } from '../../../machines/functionTest.machine'
import type { FunctionFile, FunctionTestRequest } from '../../contracts/functionRuntime'
import { getProjectApiInfo } from '../calls/keys'
import { listAuthUsers } from '../calls/projectAuth'
import {
  createFunction,
  createSecrets,
  deleteFunction,
  deleteSecrets,
  deployFunction,
  getFunction,
  getFunctionFiles,
  getFunctionLogs,
  getFunctionStats,
  createTestToken,
  invokeFunction,
  listSecrets,
  setVerifyJwt,
} from '../calls/functionRuntime'

type Signal = { signal: AbortSignal }

const projectUrlOf = (service: { protocol: string; endpoint: string }) => `${service.protocol}://${service.endpoint}`
const TEST_USERS_SHOWN = 50

export const liveFunctionStatsMachine = functionStatsMachine.provide({
  actors: {
    fetchStats: fromPromise(
      async ({ input, signal }: Signal & { input: { ref: string; functionId: string; interval: StatsInterval } }) =>
        (await getFunctionStats(input.ref, input.functionId, input.interval, { signal })).result,
    ),
  },
})

export const liveFunctionDetailMachine = functionDetailMachine.provide({
  actors: {
    loadFunction: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; slug: string } }) => {
      const [fn, files, api] = await Promise.all([
        getFunction(input.ref, input.slug, { signal }),
        getFunctionFiles(input.ref, input.slug, { signal }),
        getProjectApiInfo(input.ref, { signal }),
      ])
      return { fn, files, projectUrl: projectUrlOf(api.autoApiService) }
    }),
    setVerifyJwt: fromPromise(({ input, signal }: Signal & { input: { ref: string; slug: string; value: boolean } }) => setVerifyJwt(input.ref, input.slug, input.value, { signal })),
    deleteFunction: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; slug: string } }) => {
      await deleteFunction(input.ref, input.slug, { signal })
    }),
    deployFunction: fromPromise(({ input, signal }: Signal & { input: { ref: string; slug: string; entrypoint_path: string; files: FunctionFile[] } }) =>
      deployFunction(input.ref, { slug: input.slug, entrypoint_path: input.entrypoint_path, files: input.files }, { signal }),
    ),
    fetchLogs: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; slug: string } }) => (await getFunctionLogs(input.ref, input.slug, { signal })).result),
    functionStats: liveFunctionStatsMachine,
  },
})

export const liveFunctionTestMachine = functionTestMachine.provide({
  actors: {
    loadKeys: fromPromise(async ({ input, signal }: Signal & { input: { ref: string } }) => {
      // The first page of users, newest first: enough to pick one to test as. Any member may list them, so the list
      // is asked for beside the keys (not after them) and kept only for members who may act as a user.
      const [{ autoApiService }, page] = await Promise.all([
        getProjectApiInfo(input.ref, { signal }),
        listAuthUsers(input.ref, { page: 1, perPage: TEST_USERS_SHOWN }, { signal }),
      ])
      if (!autoApiService.defaultApiKey) throw new Error('The project has no API keys yet')
      const serviceKey = autoApiService.serviceApiKey ?? null
      const users = serviceKey ? page.users : []
      return {
        projectUrl: projectUrlOf(autoApiService),
        anonKey: autoApiService.defaultApiKey,
        serviceKey,
        users: users.map((u) => ({ id: u.id, label: u.email || u.phone || u.id })),
      }
    }),
    invokeFunction: fromPromise(async ({ input, signal }: Signal & { input: FunctionTestRequest }) => {
      if (!input.userId) return invokeFunction(input, { signal })
      const { access_token } = await createTestToken(input.ref, input.userId, { signal })
      return invokeFunction({ ...input, bearer: access_token }, { signal })
    }),
  },
})

export const liveFunctionCreateMachine = functionCreateMachine.provide({
  actors: {
    deployFunction: fromPromise(({ input, signal }: Signal & { input: { ref: string; slug: string; code: string; verifyJwt: boolean } }) =>
      createFunction(input.ref, { slug: input.slug, body: input.code, verify_jwt: input.verifyJwt }, { signal }),
    ),
  },
})

export const liveFunctionSecretsMachine = functionSecretsMachine.provide({
  actors: {
    listSecrets: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => listSecrets(input.ref, { signal })),
    createSecrets: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; secrets: SecretDraft[] } }) => {
      await createSecrets(input.ref, input.secrets, { signal })
    }),
    deleteSecret: fromPromise(async ({ input, signal }: Signal & { input: { ref: string; name: string } }) => {
      await deleteSecrets(input.ref, [input.name], { signal })
    }),
  },
})
