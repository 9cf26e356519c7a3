import { useSelector } from '@xstate/react'
import { useEffect, type ReactNode } from 'react'
import { useSearch } from 'wouter'
import { selectApiDocsOpen } from '../../../machines/navBar.machine'
import type { NavBarActorRef } from '../shell/contexts'

/**
 * The API docs panel over a project page. The navigation bar's region says whether it is open: its Project API entry
 * opens it (with the feature preview on), and so does a URL carrying the panel's `docs` parameter (a link, a reload,
 * the command menu, the browser going forward); a URL that loses it (the browser going back) closes it. On the
 * /project/{ref}/api page the parameters belong to the page. The panel itself comes from the project's views
 * (`panel`, given by the frame), told how to tell the navigation bar it was dismissed.
 */
export function ApiDocsDialog({ navBar, section, panel }: { navBar: NavBarActorRef; section: string; panel: (onDismiss: () => void) => ReactNode }) {
  const open = useSelector(navBar, selectApiDocsOpen)
  const requested = section !== 'api' && new URLSearchParams(useSearch()).has('docs')
  // The URL's `docs` parameter, told to the navigation bar when it comes or goes (as routes are told to machines).
  useEffect(() => {
    navBar.send({ type: requested ? 'apiDocs.open' : 'apiDocs.close' })
  }, [navBar, requested])
  return open ? panel(() => navBar.send({ type: 'apiDocs.close' })) : null
}
