/**
 * The lifecycle flows as the project status machine's children, each asking that machine for refreshes. They are not
 * in the project status machine's own code: a project that needs none of their screens never loads them (the app
 * provides them from src/api/live/lifecycle.ts, loaded on demand; tests provide these or their own).
 */
import { buildingChildMachine } from './building.machine'
import { connectingChildMachine } from './connecting.machine'
import { pausedChildMachine } from './paused.machine'
import { pausingChildMachine } from './pausing.machine'
import { restoringChildMachine } from './restoring.machine'
import { upgradingChildMachine } from './upgrading.machine'

export const lifecycleChildren = {
  building: buildingChildMachine,
  upgrading: upgradingChildMachine,
  connecting: connectingChildMachine,
  paused: pausedChildMachine,
  pausing: pausingChildMachine,
  restoring: restoringChildMachine,
}

export type LifecycleChildren = typeof lifecycleChildren
