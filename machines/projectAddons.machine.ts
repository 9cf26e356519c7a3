/**
 * Settings › Add-ons: the project's add-ons (GET /platform/projects/{ref}/billing/addons) and Point in Time
 * Recovery turned on (with its retention) or off, kept by the platform. The PITR panel (?panel=pitr) sends the changes;
 * the recovery period chosen in it is the draft ('pitr.choose', null when the panel closes: it opens on the current one).
 * Invariants: one change at a time; a change is possible only on a paid plan for a member who may change billing
 * (the page's input, read from the organization and the person's role; the server checks both again); a failed or
 * timed-out change keeps the add-ons as they were and says why; a request unanswered after requestTimeout is abandoned.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { AddonVariantId, ProjectAddons } from '../src/contracts/settings'

export type AddonChange = { kind: 'enable'; variant: AddonVariantId } | { kind: 'disable' }

interface Input {
  ref: string
  /** The organization's plan is not free. */
  paidPlan: boolean
  /** The person is an Owner or Administrator of the organization. */
  mayChange: boolean
}

interface Context extends Input {
  addons: ProjectAddons | null
  /** The recovery period chosen in the panel and not sent yet (null: none chosen, the panel shows the current one). */
  choice: AddonVariantId | null
  error: string | null
  saved: AddonChange | null
}

type AddonsEvent =
  | { type: 'addons.retry' }
  | { type: 'pitr.choose'; variant: AddonVariantId | null }
  | { type: 'pitr.enable'; variant: AddonVariantId }
  | { type: 'pitr.disable' }

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

export const projectAddonsMachine = setup({
  types: {
    input: {} as Input,
    context: {} as Context,
    events: {} as AddonsEvent,
    children: {} as { fetchAddons: 'fetchAddons'; changeAddon: 'changeAddon' },
  },
  actors: {
    fetchAddons: fromPromise<ProjectAddons, { ref: string }>(async () => {
      throw new Error('fetchAddons not provided')
    }),
    changeAddon: fromPromise<ProjectAddons, { ref: string; change: AddonChange }>(async () => {
      throw new Error('changeAddon not provided')
    }),
  },
  guards: {
    mayChange: ({ context }) => context.paidPlan && context.mayChange,
    mayTurnOff: ({ context }) =>
      context.paidPlan && context.mayChange && (context.addons?.selected_addons.some((addon) => addon.type === 'pitr') ?? false),
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'projectAddons',
  context: ({ input }) => ({ ...input, addons: null, choice: null, error: null, saved: null }),
  initial: 'loading',
  on: { 'pitr.choose': { actions: assign(({ event }) => ({ choice: event.variant })) } },
  states: {
    loading: {
      invoke: {
        id: 'fetchAddons',
        src: 'fetchAddons',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: { target: 'idle', actions: assign(({ event }) => ({ addons: event.output, error: null })) },
        onError: { target: 'loadFailed', actions: assign(({ event }) => ({ error: messageOf(event.error, 'Failed to retrieve add-ons') })) },
      },
      after: { requestTimeout: { target: 'loadFailed', actions: assign({ error: 'The request timed out' }) } },
    },
    loadFailed: { on: { 'addons.retry': 'loading' } },
    idle: {
      on: {
        'pitr.enable': {
          guard: 'mayChange',
          target: 'saving',
          actions: assign(({ event }) => ({ saved: { kind: 'enable', variant: event.variant } as AddonChange, error: null })),
        },
        'pitr.disable': {
          guard: 'mayTurnOff',
          target: 'saving',
          actions: assign({ saved: { kind: 'disable' } as AddonChange, error: null }),
        },
      },
    },
    saving: {
      invoke: {
        id: 'changeAddon',
        src: 'changeAddon',
        input: ({ context }) => ({ ref: context.ref, change: context.saved! }),
        onDone: { target: 'idle', actions: assign(({ event }) => ({ addons: event.output })) },
        onError: {
          target: 'idle',
          actions: assign(({ event }) => ({ saved: null, error: messageOf(event.error, 'Failed to update Point in Time Recovery') })),
        },
      },
      after: { requestTimeout: { target: 'idle', actions: assign({ saved: null, error: 'The request timed out: Point in Time Recovery is unchanged' }) } },
    },
  },
})

export type ProjectAddonsView =
  | { phase: 'loading' }
  | { phase: 'loadFailed'; error: string }
  | {
      phase: 'ready' | 'saving'
      pitr: { identifier: AddonVariantId; name: string } | null
      variants: { identifier: AddonVariantId; name: string }[]
      /** The period the panel shows chosen: the one picked, else the current one, else the first offered. */
      selected: AddonVariantId
      error: string | null
      /** The last change that succeeded (for the confirmation line). */
      saved: AddonChange | null
      paidPlan: boolean
      mayChange: boolean
    }

export function selectProjectAddonsView(snapshot: SnapshotFrom<typeof projectAddonsMachine>): ProjectAddonsView {
  const { addons, choice, error, saved, paidPlan, mayChange } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('loadFailed') || addons === null) return { phase: 'loadFailed', error: error ?? 'Failed to retrieve add-ons' }
  const pitr = addons.selected_addons.find((addon) => addon.type === 'pitr')?.variant ?? null
  const variants = addons.available_addons.find((addon) => addon.type === 'pitr')?.variants ?? []
  const selected = choice ?? pitr?.identifier ?? variants[0]?.identifier ?? 'pitr_7'
  return { phase: snapshot.matches('saving') ? 'saving' : 'ready', pitr, variants, selected, error, saved: snapshot.matches('saving') ? null : saved, paidPlan, mayChange }
}
