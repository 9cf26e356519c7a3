/**
 * A lifecycle flow invoked by the project status machine asks it for refreshes by event: these are the
 * implementations of a flow's `refreshProject` / `refreshProjectList` placeholders when it runs as that child.
 */
import { sendParent, type EventObject, type MachineContext } from 'xstate'

export function refreshThroughParent<TContext extends MachineContext, TEvent extends EventObject>() {
  return {
    refreshProject: sendParent<TContext, TEvent, unknown, { type: 'project.refresh' }, TEvent>({ type: 'project.refresh' }),
    refreshProjectList: sendParent<TContext, TEvent, unknown, { type: 'projects.refresh' }, TEvent>({ type: 'projects.refresh' }),
  }
}
