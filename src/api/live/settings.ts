/**
 * The live actors of a project's settings pages: the custom domain, the add-ons (PITR), the database settings, the
 * Data API settings of the API page.
 * One module: these pages are small and load together, off the first load.
 */
import { fromPromise } from 'xstate'
import { customDomainMachine } from '../../../machines/customDomain.machine'
import { databaseSettingsMachine } from '../../../machines/databaseSettings.machine'
import { postgrestSettingsMachine } from '../../../machines/postgrestSettings.machine'
import { projectAddonsMachine, type AddonChange } from '../../../machines/projectAddons.machine'
import type { UpdatePostgrestConfigBody } from '../../contracts/wire'
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

export const livePostgrestSettingsMachine = postgrestSettingsMachine.provide({
  actors: {
    loadSettings: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => calls.getPostgrestConfig(input.ref, { signal })),
    // The PATCH answers the settings as the server kept them.
    saveSettings: fromPromise(({ input, signal }: Signal & { input: { ref: string; body: UpdatePostgrestConfigBody } }) =>
      calls.updatePostgrestConfig(input.ref, input.body, { signal }),
    ),
  },
})
