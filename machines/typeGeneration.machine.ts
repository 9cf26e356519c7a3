/**
 * 'Generate types': reads the project's TypeScript types (GET /v1/projects/{ref}/types/typescript) and hands them to
 * the browser as the file `supabase.ts`, then says so in the project's toast region — 'Successfully generated types!
 * File is being downloaded' or 'Failed to generate types: {message}' (spec 8).
 * Invariants: one generation at a time (a click while one runs does nothing); every run ends back in idle with
 * exactly one toast; a request unanswered after generateTimeout is abandoned (its signal aborted) and reported.
 */
import { fromPromise, sendTo, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate'
import type { TypescriptResponse } from '../src/contracts/database'
import type { toastMachine, ToastTone } from './toast.machine'

/** The file the types are saved as (spec 7). */
export const TYPES_FILE_NAME = 'supabase.ts'
export const TYPES_GENERATED_MESSAGE = 'Successfully generated types! File is being downloaded'
export const typesFailedMessage = (message: string) => `Failed to generate types: ${message}`

/** The toast region the outcome is told to: the open project's (the project status machine's child 'toasts'). */
export type ToastsRef = ActorRefFrom<typeof toastMachine>

interface Context {
  ref: string
  toasts: ToastsRef
}

type TypeGenerationEvent = { type: 'types.generate' }

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Unknown error')

export const typeGenerationMachine = setup({
  types: {
    input: {} as { ref: string; toasts: ToastsRef },
    context: {} as Context,
    events: {} as TypeGenerationEvent,
    children: {} as { generateTypes: 'generateTypes' },
  },
  actors: {
    generateTypes: fromPromise<TypescriptResponse, { ref: string }>(async () => {
      throw new Error('generateTypes not provided')
    }),
  },
  actions: {
    /** Provided by the app: saves `content` as a file named `fileName` (the browser's download). */
    downloadFile: (_, _params: { fileName: string; content: string }) => {
      throw new Error('downloadFile not provided')
    },
    showToast: sendTo(
      ({ context }) => context.toasts,
      (_, params: { tone: ToastTone; message: string }) => ({ type: 'toast.show' as const, tone: params.tone, message: params.message }),
    ),
  },
  delays: {
    // Types of a large schema take a few seconds to build; 30 s is well past that and still a bounded wait.
    generateTimeout: 30_000,
  },
}).createMachine({
  id: 'typeGeneration',
  context: ({ input }) => ({ ref: input.ref, toasts: input.toasts }),
  initial: 'idle',
  states: {
    idle: {
      on: { 'types.generate': 'generating' },
    },
    generating: {
      invoke: {
        id: 'generateTypes',
        src: 'generateTypes',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'downloadFile', params: ({ event }) => ({ fileName: TYPES_FILE_NAME, content: event.output.types }) },
            { type: 'showToast', params: { tone: 'success', message: TYPES_GENERATED_MESSAGE } },
          ],
        },
        onError: {
          target: 'idle',
          actions: { type: 'showToast', params: ({ event }) => ({ tone: 'error', message: typesFailedMessage(messageOf(event.error)) }) },
        },
      },
      after: {
        generateTimeout: {
          target: 'idle',
          actions: { type: 'showToast', params: { tone: 'error', message: typesFailedMessage('The request timed out') } },
        },
      },
    },
  },
})

export interface TypeGenerationView {
  generating: boolean
  /** The button is enabled (not while a generation runs). */
  canGenerate: boolean
}

export function selectTypeGenerationView(snapshot: SnapshotFrom<typeof typeGenerationMachine>): TypeGenerationView {
  return { generating: snapshot.matches('generating'), canGenerate: snapshot.can({ type: 'types.generate' }) }
}
