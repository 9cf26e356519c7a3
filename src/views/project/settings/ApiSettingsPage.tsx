import { useSelector } from '@xstate/react'
import { useContext, useEffect, type ReactNode } from 'react'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { Card, PageHeading } from '../../shell/ui'
import { ProjectActorContext, type ProjectActorRef } from '../../shell/projectActor'
import { AppLogicContext } from '../../shell/logic'
import { ApiKeysHost } from '../ApiKeysHost'
import { ApiKeysPanel, ProjectConfigPanel, type ApiKeysActorRef } from '../ApiKeysPanels'
import { GenerateTypesButton } from '../GenerateTypesButton'
import { WithCustomDomainUrl } from '../CustomDomainUrl'
import { DataApiSection } from './DataApiSettings'

/** /project/{ref}/settings/api */
export function ApiSettingsPage() {
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6 px-6 py-8">
      <PageHeading title="API settings" description="The keys and configuration your apps use to reach this project's API." />
      <ApiKeysHost>
        {(actor) => (
          <>
            <ProjectCustomDomainUrl>{(customUrl) => <CustomUrlOfKeys actor={actor} customUrl={customUrl} />}</ProjectCustomDomainUrl>
            <ApiKeysPanel actor={actor} />
            <ProjectConfigPanel actor={actor} />
          </>
        )}
      </ApiKeysHost>
      <DataApiSection />
      <TypesSection />
    </div>
  )
}

/** 'Generate types': the project's TypeScript types as supabase.ts (nothing outside a project route). */
function TypesSection() {
  const projectActor = useContext(ProjectActorContext)
  return projectActor ? <ProjectTypesSection projectActor={projectActor} /> : null
}

function ProjectTypesSection({ projectActor }: { projectActor: ProjectActorRef }) {
  const project = useSelector(projectActor, selectProject)
  if (!project) return null
  return (
    <Card>
      <section aria-labelledby="generate-types-heading" className="flex flex-wrap items-center justify-between gap-4 px-5 py-4">
        <div>
          <h2 id="generate-types-heading" className="font-semibold">
            TypeScript types
          </h2>
          <p className="mt-1 text-sm text-neutral-500 dark:text-neutral-400">
            The types of your database's tables, views and functions, downloaded as <span className="font-mono">supabase.ts</span>.
          </p>
        </div>
        <GenerateTypesButton projectRef={project.ref} />
      </section>
    </Card>
  )
}

/**
 * Tells the running keys actor the custom domain's URL when it answers (it comes after the panel started): a new actor
 * would read the settings again and drop a JWT secret update under way. Renders nothing.
 */
function CustomUrlOfKeys({ actor, customUrl }: { actor: ApiKeysActorRef; customUrl: string | null }) {
  useEffect(() => actor.send({ type: 'customUrl.changed', customUrl }), [actor, customUrl])
  return null
}

/** The custom domain's project URL of the open project, when it has an active one (nothing else outside a project). */
function ProjectCustomDomainUrl({ children }: { children: (url: string | null) => ReactNode }) {
  const projectActor = useContext(ProjectActorContext)
  const logic = useContext(AppLogicContext)
  return projectActor && logic ? <ProjectUrlOf projectActor={projectActor}>{children}</ProjectUrlOf> : <>{children(null)}</>
}

function ProjectUrlOf({ projectActor, children }: { projectActor: ProjectActorRef; children: (url: string | null) => ReactNode }) {
  const project = useSelector(projectActor, selectProject)
  return project ? <WithCustomDomainUrl projectRef={project.ref}>{children}</WithCustomDomainUrl> : <>{children(null)}</>
}
