import { useActorRef } from '@xstate/react'
import { useEffect, useMemo, type ReactNode } from 'react'
import { commandMenuMachine } from '../../machines/commandMenu.machine'
import { featurePreviewsMachine } from '../../machines/featurePreviews.machine'
import { themeMachine } from '../../machines/theme.machine'
import { onUnauthorized } from '../api/http'
import { ShellContext } from '../views/shell/contexts'
import { inspectOption } from './inspector'
import { useAppLogic } from './logic'
import {
  applyThemeClass,
  onSystemThemeChange,
  readPreviews,
  readTheme,
  systemPrefersDark,
  writePreviews,
  writeTheme,
} from './preferences'

const liveThemeMachine = themeMachine.provide({
  actions: {
    applyTheme: (_, params) => applyThemeClass(params.className),
    persistTheme: (_, params) => writeTheme(params.theme),
  },
})

const liveFeaturePreviewsMachine = featurePreviewsMachine.provide({
  actions: { persistPreviews: (_, params) => writePreviews(params.enabled) },
})

/** The actors that live as long as the page: session, theme, feature previews, command menu. */
export function ShellProviders({ children }: { children: ReactNode }) {
  const logic = useAppLogic()
  const session = useActorRef(logic.session, inspectOption())
  const theme = useActorRef(liveThemeMachine, { input: { theme: readTheme(), systemDark: systemPrefersDark() }, ...inspectOption() })
  const previews = useActorRef(liveFeaturePreviewsMachine, { input: { enabled: readPreviews() }, ...inspectOption() })
  const commandMenu = useActorRef(commandMenuMachine, inspectOption())

  // Any 401 from any call ends the session.
  useEffect(() => {
    onUnauthorized(() => session.send({ type: 'session.expired' }))
    return () => onUnauthorized(null)
  }, [session])

  useEffect(() => onSystemThemeChange((dark) => theme.send({ type: 'system.changed', dark })), [theme])

  const actors = useMemo(() => ({ session, theme, previews, commandMenu }), [session, theme, previews, commandMenu])
  return <ShellContext.Provider value={actors}>{children}</ShellContext.Provider>
}
