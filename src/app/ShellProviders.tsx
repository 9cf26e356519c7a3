import { useActorRef } from '@xstate/react'
import { useEffect, useMemo, type ReactNode } from 'react'
import { onUnauthorized } from '../api/http'
import { ShellContext } from '../views/shell/contexts'
import { useAppLogic } from '../views/shell/logic'
import { inspectOption } from './inspector'
import { onSystemThemeChange, readPreviews, readTheme, systemPrefersDark } from './preferences'

/** The actors that live as long as the page: session, theme, feature previews, command menu. */
export function ShellProviders({ children }: { children: ReactNode }) {
  const logic = useAppLogic()
  const session = useActorRef(logic.session, inspectOption())
  const theme = useActorRef(logic.theme, { input: { theme: readTheme(), systemDark: systemPrefersDark() }, ...inspectOption() })
  const previews = useActorRef(logic.featurePreviews, { input: { enabled: readPreviews() }, ...inspectOption() })
  const commandMenu = useActorRef(logic.commandMenu, inspectOption())

  // Any 401 from any call ends the session.
  useEffect(() => {
    onUnauthorized(() => session.send({ type: 'session.expired' }))
    return () => onUnauthorized(null)
  }, [session])

  useEffect(() => onSystemThemeChange((dark) => theme.send({ type: 'system.changed', dark })), [theme])

  const actors = useMemo(() => ({ session, theme, previews, commandMenu }), [session, theme, previews, commandMenu])
  return <ShellContext.Provider value={actors}>{children}</ShellContext.Provider>
}
