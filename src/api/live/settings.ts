/**
 * The live actors of a project's settings pages: the custom domain, the add-ons (PITR), the database settings.
 * One module: these pages are small and load together, off the first load.
 */
import { fromPromise } from 'xstate'
import { customDomainMachine } from '../../../machines/customDomain.machine'
import { databaseSettingsMachine } from '../../../machines/databaseSettings.machine'
import { projectAddonsMachine, type AddonChange } from '../../../machines/projectAddons.machine'
import * as calls from '../calls/settings'
import { resetDatabasePassword } from '../calls/wire'

type Signal = { signal: AbortSignal }

export const liveCustomDomainMachine = customDomainMachine.provide({
  actors: {
    fetchCustomHostname: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => calls.getCustomHostname(input.ref, { signal })),
  },
})

export const liveDatabaseSettingsMachine = databaseSettingsMachine.provide({
  actors: {
    fetchDatabaseConnection: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => calls.getDatabaseConnection(input.ref, { signal })),
    resetDatabasePassword: fromPromise(({ input, signal }: Signal & { input: { ref: string; password: string } }) =>
      resetDatabasePassword(input.ref, input.password, { signal }),
    ),
  },
})

export const liveProjectAddonsMachine = projectAddonsMachine.provide({
  actors: {
    fetchAddons: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => calls.getProjectAddons(input.ref, { signal })),
    changeAddon: fromPromise(({ input, signal }: Signal & { input: { ref: string; change: AddonChange } }) =>
      input.change.kind === 'enable' ? calls.enableAddon(input.ref, input.change.variant, { signal }) : calls.removeAddon(input.ref, 'pitr', { signal }),
    ),
  },
})
