/** The long-lived actors of the shell, created by the app (src/app) and read by the views. */
import { createContext, useContext } from 'react'
import type { ActorRefFrom } from 'xstate'
import type { commandMenuMachine } from '../../../machines/commandMenu.machine'
import type { featurePreviewsMachine } from '../../../machines/featurePreviews.machine'
import type { navBarMachine } from '../../../machines/navBar.machine'
import type { projectListMachine } from '../../../machines/projectList.machine'
import type { sessionMachine } from '../../../machines/session.machine'
import type { themeMachine } from '../../../machines/theme.machine'
import { config } from '../../config'

export type SessionActorRef = ActorRefFrom<typeof sessionMachine>
export type ThemeActorRef = ActorRefFrom<typeof themeMachine>
export type PreviewsActorRef = ActorRefFrom<typeof featurePreviewsMachine>
type CommandMenuActorRef = ActorRefFrom<typeof commandMenuMachine>
export type ProjectListActorRef = ActorRefFrom<typeof projectListMachine>
export type NavBarActorRef = ActorRefFrom<typeof navBarMachine>

interface ShellActors {
  session: SessionActorRef
  theme: ThemeActorRef
  previews: PreviewsActorRef
  commandMenu: CommandMenuActorRef
}

export const ShellContext = createContext<ShellActors | null>(null)
/** Present on signed-in routes only. */
export const ProjectListContext = createContext<ProjectListActorRef | null>(null)

/** Build flags as the views see them; tests render other builds by providing different values. */
export interface BuildFlags {
  isPlatform: boolean
  isProduction: boolean
  features: { auth: boolean; storage: boolean; edgeFunctions: boolean; realtime: boolean }
}
export const BuildFlagsContext = createContext<BuildFlags>(config)

export function useShell(): ShellActors {
  const shell = useContext(ShellContext)
  if (shell === null) throw new Error('useShell must be used inside the app shell')
  return shell
}

export function useProjectListActor(): ProjectListActorRef {
  const actor = useContext(ProjectListContext)
  if (actor === null) throw new Error('useProjectListActor must be used on a signed-in route')
  return actor
}

export const useBuildFlags = () => useContext(BuildFlagsContext)
