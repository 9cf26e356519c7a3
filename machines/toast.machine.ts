/**
 * Toast: the project layout's one notification, shown in a polite live region. A toast stays for
 * `displayTime`, or until dismissed; a new one replaces the one on screen and starts its own time.
 * Other flows ask for a toast by sending `toast.show` to the actor registered as system id 'toasts'.
 */
import { assign, setup, type SnapshotFrom } from 'xstate'

export type ToastTone = 'success' | 'error'

export interface Toast {
  id: number
  tone: ToastTone
  message: string
}

type ToastEvent = { type: 'toast.show'; tone: ToastTone; message: string } | { type: 'toast.dismiss' }

export const TOAST_SYSTEM_ID = 'toasts'

export const toastMachine = setup({
  types: {
    context: {} as { toast: Toast | null; shown: number },
    events: {} as ToastEvent,
  },
  actions: {
    storeToast: assign(({ context }, params: { tone: ToastTone; message: string }) => ({
      toast: { id: context.shown + 1, tone: params.tone, message: params.message },
      shown: context.shown + 1,
    })),
    clearToast: assign({ toast: null }),
  },
  delays: {
    displayTime: 6_000,
  },
}).createMachine({
  id: 'toast',
  context: { toast: null, shown: 0 },
  initial: 'hidden',
  on: {
    'toast.show': {
      target: '.visible',
      reenter: true,
      actions: { type: 'storeToast', params: ({ event }) => ({ tone: event.tone, message: event.message }) },
    },
  },
  states: {
    hidden: {
      entry: 'clearToast',
    },
    visible: {
      after: { displayTime: 'hidden' },
      on: { 'toast.dismiss': 'hidden' },
    },
  },
})

export const selectToast = (snapshot: SnapshotFrom<typeof toastMachine>) => snapshot.context.toast
