/**
 * The live actors of the project screens: the custom domain, the add-ons (PITR), the database settings,
 * and support tickets (send, list). One module: these screens are small and load together, off the first load.
 */
import { fromPromise } from 'xstate'
import { customDomainMachine } from '../../../machines/customDomain.machine'
import { databaseSettingsMachine } from '../../../machines/databaseSettings.machine'
import { projectAddonsMachine, type AddonChange } from '../../../machines/projectAddons.machine'
import { supportTicketMachine } from '../../../machines/supportTicket.machine'
import { supportTicketsMachine } from '../../../machines/supportTickets.machine'
import type { CreateTicketBody } from '../../contracts/support'
import * as calls from '../calls/projectSettings'

type Signal = { signal: AbortSignal }

export const liveCustomDomainMachine = customDomainMachine.provide({
  actors: {
    fetchCustomHostname: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => calls.getCustomHostname(input.ref, { signal })),
  },
})

export const liveDatabaseSettingsMachine = databaseSettingsMachine.provide({
  actors: {
    fetchDatabaseConnection: fromPromise(({ input, signal }: Signal & { input: { ref: string } }) => calls.getDatabaseConnection(input.ref, { signal })),
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

export const liveSupportTicketMachine = supportTicketMachine.provide({
  actors: {
    sendTicket: fromPromise(({ input, signal }: Signal & { input: CreateTicketBody }) => calls.createSupportTicket(input, { signal })),
  },
})

export const liveSupportTicketsMachine = supportTicketsMachine.provide({
  actors: {
    listTickets: fromPromise(({ signal }: Signal) => calls.listSupportTickets({ signal })),
  },
})
