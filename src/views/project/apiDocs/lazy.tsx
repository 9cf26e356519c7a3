/**
 * The API docs panel as the frame and the project pages mount it: its views (and the snippets) load when it is first
 * shown, side by side with its machine, behind a loading treatment. One loader for both, so the first load carries
 * one small entry for them.
 */
import { Suspense } from 'react'
import { preloadable, preloadLoader, useLoaded } from '../../shell/lazy'
import { useAppLogic } from '../../shell/logic'
import { Modal } from '../../shell/Modal'
import { Loading } from '../../shell/ui'

const loadViews = preloadable(() => import('./ApiDocsHosts'))

function useViews() {
  preloadLoader(useAppLogic().apiDocs)
  return useLoaded(loadViews)
}

/** The panel in its dialog; a dialog saying it loads meanwhile. `onDismiss` tells the navigation bar it is gone. */
export function LazyApiDocsDialogPanel({ onDismiss }: { onDismiss: () => void }) {
  return (
    <Suspense
      fallback={
        <Modal open onClose={onDismiss} title="API Docs" size="lg">
          <Loading label="Loading API docs…" />
        </Modal>
      }
    >
      <DialogPanel onDismiss={onDismiss} />
    </Suspense>
  )
}

function DialogPanel({ onDismiss }: { onDismiss: () => void }) {
  const { ApiDocsDialogPanel } = useViews()
  return <ApiDocsDialogPanel onDismiss={onDismiss} />
}

/** /project/{ref}/api. */
export function LazyApiDocsPage() {
  return (
    <Suspense fallback={<Loading label="Loading page…" />}>
      <Page />
    </Suspense>
  )
}

function Page() {
  const { ApiDocsPage } = useViews()
  return <ApiDocsPage />
}
