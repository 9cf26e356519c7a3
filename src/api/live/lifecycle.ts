/**
 * The live lifecycle flows as the project status machine's children (building, upgrading, connecting, paused,
 * pausing, restoring): one chunk, loaded only for a project that may show one of their screens (./projectStatus.ts).
 */
import type { LifecycleChildren } from '../../../machines/lifecycleChildren'
import { liveBuildingChildMachine } from './building'
import { liveConnectingChildMachine } from './connecting'
import { livePausedChildMachine } from './paused'
import { livePausingChildMachine } from './pausing'
import { liveRestoringChildMachine } from './restoring'
import { liveUpgradingChildMachine } from './upgrading'

export const liveLifecycleChildren: LifecycleChildren = {
  building: liveBuildingChildMachine,
  upgrading: liveUpgradingChildMachine,
  connecting: liveConnectingChildMachine,
  paused: livePausedChildMachine,
  pausing: livePausingChildMachine,
  restoring: liveRestoringChildMachine,
}
