import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import type { connectingMachine } from '../../../../machines/connecting.machine'
import type { upgradingMachine } from '../../../../machines/upgrading.machine'
import type { Project } from '../../../contracts/projects'
import { useProjectActor } from '../projectActor'
import { ConnectingPage, ConnectingScreen } from './ConnectingPage'
import { UpgradingPage } from './UpgradingPage'
import { Loading } from '../../shell/ui'

/** The upgrading and connecting pages, each driven by the child the project status machine invokes for it. */
export function UpgradeConnectGate({ page, project }: { page: 'upgrading' | 'connecting'; project: Project }) {
  const actor = useProjectActor()
  const upgrading = useSelector(actor, (snapshot) => snapshot.children.upgrading as ActorRefFrom<typeof upgradingMachine> | undefined)
  const connecting = useSelector(actor, (snapshot) => snapshot.children.connecting as ActorRefFrom<typeof connectingMachine> | undefined)
  if (page === 'connecting') {
    return connecting ? <ConnectingPage actor={connecting} projectName={project.name} /> : <ConnectingScreen projectName={project.name} />
  }
  // Between the project being read and the child starting (a refresh), the page waits without claiming anything.
  return upgrading ? <UpgradingPage actor={upgrading} projectName={project.name} /> : <Loading label="Reading upgrade status…" />
}
