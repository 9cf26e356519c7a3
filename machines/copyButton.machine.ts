/**
 * Copy button: writes a value to the clipboard and then shows 'Copied' for 2 s. The write is an actor the app
 * provides (the browser's clipboard); a refused write returns to idle. Copying again while 'Copied' shows starts a
 * new write. The value is kept only while it is being written.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'

type CopyButtonEvent = { type: 'clipboard.copy'; text: string }

export const copyButtonMachine = setup({
  types: {
    context: {} as { text: string },
    events: {} as CopyButtonEvent,
    children: {} as { writeClipboard: 'writeClipboard' },
  },
  actors: {
    writeClipboard: fromPromise<void, { text: string }>(async () => {
      throw new Error('writeClipboard not provided')
    }),
  },
  actions: {
    storeText: assign({ text: (_, params: { text: string }) => params.text }),
    forgetText: assign({ text: '' }),
  },
  delays: {
    /** Spec: the 'Copied' label shows for 2 s. */
    copiedDuration: 2_000,
  },
}).createMachine({
  id: 'copyButton',
  context: { text: '' },
  initial: 'idle',
  states: {
    idle: {
      on: { 'clipboard.copy': { target: 'copying', actions: { type: 'storeText', params: ({ event }) => ({ text: event.text }) } } },
    },
    copying: {
      exit: 'forgetText',
      invoke: {
        id: 'writeClipboard',
        src: 'writeClipboard',
        input: ({ context }) => ({ text: context.text }),
        onDone: 'copied',
        onError: 'idle',
      },
    },
    copied: {
      after: { copiedDuration: 'idle' },
      on: { 'clipboard.copy': { target: 'copying', actions: { type: 'storeText', params: ({ event }) => ({ text: event.text }) } } },
    },
  },
})

type CopyButtonView = { label: 'Copy' | 'Copied'; copying: boolean }

export function selectCopyButtonView(snapshot: SnapshotFrom<typeof copyButtonMachine>): CopyButtonView {
  return {
    label: snapshot.matches('copied') ? 'Copied' : 'Copy',
    copying: snapshot.matches('copying'),
  }
}
