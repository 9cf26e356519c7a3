/**
 * The Stately inspector, in development only and on request (`VITE_INSPECT=1 npm run dev`). It is imported
 * lazily, so the production bundle never contains it, and any failure (no module, the Stately site unreachable,
 * a blocked popup) is harmless: the app runs without it.
 */
import type { InspectionEvent } from 'xstate'

let inspectListener: ((event: InspectionEvent) => void) | undefined

export async function startInspector(): Promise<void> {
  if (!(import.meta.env.DEV && import.meta.env.VITE_INSPECT === '1')) return
  try {
    const { createBrowserInspector } = await import('@statelyai/inspect')
    const inspector = createBrowserInspector()
    inspectListener = (event) => {
      try {
        inspector.inspect.next?.(event)
      } catch (error) {
        console.info('Stately inspector: event not delivered', error)
      }
    }
  } catch (error) {
    console.info('Stately inspector unavailable; continuing without it', error)
  }
}

/** Spread into the options of every actor the app creates: `useActorRef(logic, { ...inspectOption() })`. */
export function inspectOption(): { inspect?: (event: InspectionEvent) => void } {
  return inspectListener ? { inspect: inspectListener } : {}
}
