import { useActorRef, useSelector } from '@xstate/react'
import { Suspense, useContext, useEffect, type ReactNode } from 'react'
import { selectOrgPermissions } from '../../../../machines/session.machine'
import { selectProject } from '../../../../machines/projectStatus.machine'
import type { Project } from '../../../contracts/projects'
import { ShellContext, type SessionActorRef } from '../../shell/contexts'
import { useLoaded } from '../../shell/lazy'
import { Card, Loading, PageHeading } from '../../shell/ui'
import { ProjectActorContext, type ProjectActorRef } from '../../shell/projectActor'
import { AppLogicContext, type AppLogic } from '../../shell/logic'
import { ApiKeysPanel, ProjectConfigPanel, type ApiKeysActorRef } from './ApiKeysPanels'
import { GenerateTypesButton } from './GenerateTypesButton'
import { WithCustomDomainUrl } from './CustomDomain'

/**
 * Runs one API keys actor for the open project, with the person's permissions in its organization, and renders
 * its children with it. Renders nothing outside a project route inside the app (no project actor, session or
 * machines), so the screens that mount the panel (the building page) stay renderable on their own in tests.
 */
function ApiKeysHost({ children }: { children: (actor: ApiKeysActorRef) => ReactNode }) {
  const projectActor = useContext(ProjectActorContext)
  const shell = useContext(ShellContext)
  const logic = useContext(AppLogicContext)
  if (!projectActor || !shell || !logic) return null
  return (
    <ProjectKeysHost machine={logic.apiKeys} projectActor={projectActor} session={shell.session}>
      {children}
    </ProjectKeysHost>
  )
}

function ProjectKeysHost({
  machine,
  projectActor,
  session,
  children,
}: {
  machine: AppLogic['apiKeys']
  projectActor: ProjectActorRef
  session: SessionActorRef
  children: (actor: ApiKeysActorRef) => ReactNode
}) {
  const project = useSelector(projectActor, selectProject)
  const permissions = useSelector(session, selectOrgPermissions(project?.organization_slug ?? null))
  if (!project) return null
  const canReadKeys = permissions.includes('service_api_keys:read')
  const canUpdateSecret = canReadKeys && permissions.includes('projects:write')
  return (
    <Suspense fallback={<Loading label="Retrieving API keys…" />}>
      <KeysActor
        key={`${project.ref}:${canReadKeys}:${canUpdateSecret}`}
        machine={machine}
        project={project}
        canReadKeys={canReadKeys}
        canUpdateSecret={canUpdateSecret}
      >
        {children}
      </KeysActor>
    </Suspense>
  )
}

function KeysActor({
  machine,
  project,
  canReadKeys,
  canUpdateSecret,
  children,
}: {
  machine: AppLogic['apiKeys']
  project: Project
  canReadKeys: boolean
  canUpdateSecret: boolean
  children: (actor: ApiKeysActorRef) => ReactNode
}) {
  const actor = useActorRef(useLoaded(machine), { input: { ref: project.ref, canReadKeys, canUpdateSecret } })
  return <>{children(actor)}</>
}

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

/** The 'Project API keys' panel as the building screen shows it, while the project is being set up. */
export function BuildingApiKeys() {
  return <ApiKeysHost>{(actor) => <ApiKeysPanel actor={actor} />}</ApiKeysHost>
}
