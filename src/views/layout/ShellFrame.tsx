import type { ReactNode } from 'react'
import { AppFrame, type Crumb } from './AppFrame'
import { CommandMenu } from './CommandMenu'
import { NavBar } from './NavBar'
import { useBuildFlags, type NavBarActorRef } from '../shell/contexts'

/** The frame of signed-in pages outside a project. */
export function ShellFrame({ navBar, crumbs, children }: { navBar: NavBarActorRef; crumbs: Crumb[]; children: ReactNode }) {
  const flags = useBuildFlags()
  return (
    <AppFrame nav={<NavBar navBar={navBar} project={null} />} crumbs={crumbs} overlays={flags.isPlatform ? <CommandMenu project={null} /> : null}>
      {children}
    </AppFrame>
  )
}
