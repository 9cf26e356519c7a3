/**
 * Where the API docs panel runs: in a large dialog over any project page (opened from the navigation bar's Project
 * API entry with the feature preview on, from the command menu, or by a link carrying `docs`), and as the
 * /project/{ref}/api page. Each creates the panel's actor for the open project once its machine has loaded, keyed by
 * the person's permissions (they decide the sections).
 */
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react'
import { useSelector } from '@xstate/react'
import { Suspense, useEffect } from 'react'
import { selectApiDocsPlace } from '../../../../machines/apiDocs.machine'
import { selectProject } from '../../../../machines/projectStatus.machine'
import type { Project } from '../../../contracts/projects'
import { Icon } from '../../shell/Icon'
import { Modal } from '../../shell/Modal'
import { Loading } from '../../shell/ui'
import { useProjectActor } from '../../shell/projectActor'
import { WithCustomDomainUrl } from '../settings/CustomDomain'
import { ApiDocsPanel } from './ApiDocsPanel'
import { GenerateTypesButton } from '../settings/GenerateTypesButton'
import { useApiDocsActor, useProjectPermissions, type ApiDocsActorRef } from './useApiDocsActor'

/** The project URL of a project's REST URL (`{url}/rest/v1/`), until the settings give it. */
const projectUrlOf = (project: Project) => /^(.*)\/rest\/v1\/?$/.exec(project.restUrl)?.[1] ?? null

const loadingLabel = 'Loading API docs…'

/** The panel in a dialog. `onDismiss` tells the navigation bar the dialog is gone. */
export function ApiDocsDialogPanel({ onDismiss }: { onDismiss: () => void }) {
  const project = useSelector(useProjectActor(), selectProject)
  const fallback = (
    <Modal open onClose={onDismiss} title="API Docs" size="lg">
      <Loading label={loadingLabel} />
    </Modal>
  )
  if (!project) return fallback
  return (
    <Suspense fallback={fallback}>
      <DialogHost project={project} onDismiss={onDismiss} />
    </Suspense>
  )
}

function DialogHost({ project, onDismiss }: { project: Project; onDismiss: () => void }) {
  const permissions = useProjectPermissions(project)
  return <DialogActor key={`${project.ref}:${permissions.join(',')}`} project={project} onDismiss={onDismiss} />
}

function DialogActor({ project, onDismiss }: { project: Project; onDismiss: () => void }) {
  const actor = useApiDocsActor(project, 'dialog')
  const open = useSelector(actor, (snapshot) => selectApiDocsPlace(snapshot).open)
  // Closing asks the machine (it clears the URL's docs parameters) and tells the navigation bar.
  const close = () => {
    actor.send({ type: 'panel.close' })
    onDismiss()
  }
  return (
    <Dialog open={open} onClose={close} className="relative z-50">
      <div aria-hidden className="fixed inset-0 bg-neutral-950/40 backdrop-blur-[1px]" />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="flex h-[88vh] w-full max-w-6xl flex-col overflow-hidden rounded-xl border border-neutral-200 bg-white shadow-2xl dark:border-neutral-800 dark:bg-neutral-900">
          <CustomUrlOfDocs actor={actor} projectRef={project.ref} />
          <ApiDocsPanel
            actor={actor}
            projectRef={project.ref}
            fallbackUrl={projectUrlOf(project)}
            title={<DialogTitle className="font-semibold">API Docs</DialogTitle>}
            connectExtra={<TypesCard projectRef={project.ref} />}
            close={
              <button type="button" aria-label="Close" onClick={close} className="rounded p-1 text-neutral-500 hover:bg-neutral-100 dark:hover:bg-neutral-800">
                <Icon name="close" className="h-4 w-4" />
              </button>
            }
          />
        </DialogPanel>
      </div>
    </Dialog>
  )
}

/** /project/{ref}/api: the same panel as a page. */
export function ApiDocsPage() {
  const project = useSelector(useProjectActor(), selectProject)
  if (!project) return null
  return (
    <Suspense fallback={<Loading label={loadingLabel} />}>
      <PageHost project={project} />
    </Suspense>
  )
}

function PageHost({ project }: { project: Project }) {
  const permissions = useProjectPermissions(project)
  return <PageActor key={`${project.ref}:${permissions.join(',')}`} project={project} />
}

function PageActor({ project }: { project: Project }) {
  const actor = useApiDocsActor(project, 'page')
  return (
    <div className="h-full min-h-[36rem] bg-white dark:bg-neutral-900">
      <CustomUrlOfDocs actor={actor} projectRef={project.ref} />
      <ApiDocsPanel
        actor={actor}
        projectRef={project.ref}
        fallbackUrl={projectUrlOf(project)}
        title={<h1 className="text-lg font-semibold text-neutral-900 dark:text-neutral-50">API Docs</h1>}
        connectExtra={<TypesCard projectRef={project.ref} />}
      />
    </div>
  )
}

/** 'Generate types' on the Connect page: the project's TypeScript types, downloaded as supabase.ts. */
function TypesCard({ projectRef }: { projectRef: string }) {
  return (
    <div className="mb-8 flex items-center justify-between gap-4 rounded-lg border border-neutral-200 p-4 dark:border-neutral-800">
      <div className="text-sm">
        <h3 className="font-medium text-neutral-900 dark:text-neutral-50">TypeScript types</h3>
        <p className="mt-1 text-neutral-600 dark:text-neutral-300">
          The types of this database's tables, views and functions for <code className="font-mono">{'createClient<Database>(…)'}</code>, as supabase.ts.
        </p>
      </div>
      <GenerateTypesButton projectRef={projectRef} />
    </div>
  )
}

/**
 * Tells the panel's actor the project URL of an active custom domain once the custom domain answers. A sibling of the
 * panel, not its parent: the custom domain's logic loads on demand, and a parent that waits for it would mount the
 * panel again when it arrives.
 */
function CustomUrlOfDocs({ actor, projectRef }: { actor: ApiDocsActorRef; projectRef: string }) {
  return <WithCustomDomainUrl projectRef={projectRef}>{(customUrl) => <SendCustomUrl actor={actor} customUrl={customUrl} />}</WithCustomDomainUrl>
}

function SendCustomUrl({ actor, customUrl }: { actor: ApiDocsActorRef; customUrl: string | null }) {
  useEffect(() => actor.send({ type: 'customUrl.changed', customUrl }), [actor, customUrl])
  return null
}
