/**
 * Feature previews: opt-in switches for features in preview, listed in a modal opened from the account menu.
 * Each toggle is remembered by the app (`persistPreviews`, provided); the initial choices come from input.
 */
import { assign, setup, type SnapshotFrom } from 'xstate'

export const FEATURE_PREVIEWS = [
  {
    id: 'apiDocsPanel',
    name: 'API docs panel',
    description: 'Open the project API documentation in a panel over the page instead of navigating to the API page.',
  },
] as const
type FeaturePreviewId = (typeof FEATURE_PREVIEWS)[number]['id']
export type EnabledPreviews = Partial<Record<FeaturePreviewId, boolean>>

type FeaturePreviewsEvent =
  | { type: 'previews.open' }
  | { type: 'previews.close' }
  | { type: 'preview.toggle'; id: FeaturePreviewId }

export const featurePreviewsMachine = setup({
  types: {
    input: {} as { enabled: EnabledPreviews },
    context: {} as { enabled: EnabledPreviews },
    events: {} as FeaturePreviewsEvent,
  },
  actions: {
    persistPreviews: (_, _params: { enabled: EnabledPreviews }) => {},
  },
}).createMachine({
  id: 'featurePreviews',
  context: ({ input }) => ({ enabled: input.enabled }),
  initial: 'closed',
  states: {
    closed: { on: { 'previews.open': 'open' } },
    open: {
      on: {
        'previews.close': 'closed',
        'preview.toggle': {
          actions: [
            assign({ enabled: ({ context, event }) => ({ ...context.enabled, [event.id]: !context.enabled[event.id] }) }),
            { type: 'persistPreviews', params: ({ context }) => ({ enabled: context.enabled }) },
          ],
        },
      },
    },
  },
})

type FeaturePreviewsSnapshot = SnapshotFrom<typeof featurePreviewsMachine>

export const selectPreviewsOpen = (snapshot: FeaturePreviewsSnapshot) => snapshot.matches('open')
export const selectEnabledPreviews = (snapshot: FeaturePreviewsSnapshot) => snapshot.context.enabled
export const selectApiDocsPanelPreview = (snapshot: FeaturePreviewsSnapshot) => snapshot.context.enabled.apiDocsPanel === true
