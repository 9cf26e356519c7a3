import { useSelector } from '@xstate/react'
import { selectApiDocsOpen } from '../../../machines/navBar.machine'
import type { NavBarActorRef } from '../shell/contexts'
import { Modal } from '../shell/Modal'
import { TextLink } from '../shell/ui'

/** Placeholder of the API docs panel; its content arrives with a later issue. */
export function ApiDocsDialog({ navBar, projectRef }: { navBar: NavBarActorRef; projectRef: string }) {
  const open = useSelector(navBar, selectApiDocsOpen)
  return (
    <Modal open={open} onClose={() => navBar.send({ type: 'apiDocs.close' })} title="API Docs" size="lg">
      <p className="text-sm text-neutral-600 dark:text-neutral-300">
        The in-app API documentation panel arrives in a later version. Meanwhile the API docs page has the project's
        endpoints.
      </p>
      <p className="mt-4 text-sm">
        <TextLink href={`/project/${projectRef}/api`}>Open the API docs page</TextLink>
      </p>
    </Modal>
  )
}
