import { useSelector } from '@xstate/react'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { useProjectActor } from '../../shell/projectActor'
import { useAppLogic } from '../../shell/logic'
import { PageHeading, TextLink } from '../../shell/ui'
import { useDocumentTitle } from '../../shell/useDocumentTitle'
import { GitHubIntegrationsHost } from './GitHubIntegrations'
import { href } from '../../../href'

/** /org/{slug}/integrations: the organization's GitHub installations and project-to-repository connections. */
export function OrgIntegrationsPage({ slug }: { slug: string }) {
  useDocumentTitle('Integrations')
  const logic = useAppLogic()
  return (
    <div className="mx-auto w-full max-w-4xl px-6 py-8">
      <PageHeading title="Integrations" description="Connect the organization's GitHub repositories to its projects." />
      <GitHubIntegrationsHost logic={logic} slug={slug} />
    </div>
  )
}

/** /project/{ref}/settings/integrations: the same, with the project chosen when the panel opens and its toasts. */
export function ProjectIntegrationsPage() {
  const logic = useAppLogic()
  const project = useActorSelection()
  return (
    <div className="mx-auto w-full max-w-4xl px-6 py-8">
      <PageHeading title="Integrations" description="Link this project to a GitHub repository of its organization." />
      {project.data ? (
        <p className="-mt-4 mb-6 text-sm">
          <TextLink href={href.org(project.data.organization_slug, 'integrations')}>The organization's integrations</TextLink>
        </p>
      ) : null}
      {project.data ? (
        <GitHubIntegrationsHost
          key={project.data.organization_slug}
          logic={logic}
          slug={project.data.organization_slug}
          toasts={project.toasts}
          defaultProjectRef={project.data.ref}
        />
      ) : null}
    </div>
  )
}

function useActorSelection() {
  const actor = useProjectActor()
  const data = useSelector(actor, selectProject)
  const toasts = useSelector(actor, (snapshot) => snapshot.children.toasts)
  return { data, toasts }
}
