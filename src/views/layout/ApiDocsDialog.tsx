import { useSelector } from '@xstate/react'
import { Suspense, useEffect } from 'react'
import { useSearch } from 'wouter'
import { selectApiDocsOpen } from '../../../machines/navBar.machine'
import type { NavBarActorRef } from '../shell/contexts'
import { preloadable, preloadLoader, useLoaded } from '../shell/lazy'
import { useAppLogic } from '../shell/logic'
import { Modal } from '../shell/Modal'
import { Loading } from '../shell/ui'

// The panel's code (views, snippets) loads when it first opens, side by side with its machine.
const loadPanel = preloadable(() => import('../project/apiDocs/ApiDocsHosts'))

/**
 * The API docs panel over a project page. The navigation bar's region says whether it is open: its Project API entry
 * opens it (with the feature preview on), and so does a URL carrying the panel's `docs` parameter (a link, a reload,
 * the command menu, the browser going forward); a URL that loses it (the browser going back) closes it. On the
 * /project/{ref}/api page the parameters belong to the page.
 */
export function ApiDocsDialog({ navBar, section }: { navBar: NavBarActorRef; section: string }) {
  const open = useSelector(navBar, selectApiDocsOpen)
  const requested = section !== 'api' && new URLSearchParams(useSearch()).has('docs')
  // The URL's `docs` parameter, told to the navigation bar when it comes or goes (as routes are told to machines).
  useEffect(() => {
    navBar.send({ type: requested ? 'apiDocs.open' : 'apiDocs.close' })
  }, [navBar, requested])
  if (!open) return null
  const dismiss = () => navBar.send({ type: 'apiDocs.close' })
  return (
    <Suspense
      fallback={
        <Modal open onClose={dismiss} title="API Docs" size="lg">
          <Loading label="Loading API docs…" />
        </Modal>
      }
    >
      <LoadedPanel onDismiss={dismiss} />
    </Suspense>
  )
}

function LoadedPanel({ onDismiss }: { onDismiss: () => void }) {
  preloadLoader(useAppLogic().apiDocs)
  const { ApiDocsDialogPanel } = useLoaded(loadPanel)
  return <ApiDocsDialogPanel onDismiss={onDismiss} />
}
