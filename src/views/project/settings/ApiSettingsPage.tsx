import { useActorRef, useSelector } from '@xstate/react'
import { useContext, type ReactNode } from 'react'
import { selectOrgPermissions } from '../../../../machines/session.machine'
import { selectProject } from '../../../../machines/projectStatus.machine'
import type { Project } from '../../../contracts/projects'
import { ShellContext, type SessionActorRef } from '../../shell/contexts'
import { PageHeading } from '../../shell/ui'
import { ProjectActorContext, type ProjectActorRef } from '../projectActor'
import { ApiKeysPanel, ProjectConfigPanel } from './ApiKeysPanels'
import { ApiKeysMachineContext, type ApiKeysActorRef } from './apiKeysLogic'

/**
 * Runs one API keys actor for the open project, with the person's permissions in its organization, and renders
 * its children with it. Renders nothing outside a project route, without a session or without the live machine
 * (so the screens that mount the panel stay renderable on their own in tests).
 */
export function ApiKeysHost({ children }: { children: (actor: ApiKeysActorRef) => ReactNode }) {
  const projectActor = useContext(ProjectActorContext)
  const shell = useContext(ShellContext)
  if (!projectActor || !shell) return null
  return (
    <ProjectKeysHost projectActor={projectActor} session={shell.session}>
      {children}
    </ProjectKeysHost>
  )
}

function ProjectKeysHost({
  projectActor,
  session,
  children,
}: {
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
    <KeysActor key={`${project.ref}:${canReadKeys}:${canUpdateSecret}`} project={project} canReadKeys={canReadKeys} canUpdateSecret={canUpdateSecret}>
      {children}
    </KeysActor>
  )
}

function KeysActor(props: { project: Project; canReadKeys: boolean; canUpdateSecret: boolean; children: (actor: ApiKeysActorRef) => ReactNode }) {
  const machine = useContext(ApiKeysMachineContext)
  return machine ? <RunKeysActor machine={machine} {...props} /> : null
}

function RunKeysActor({
  machine,
  project,
  canReadKeys,
  canUpdateSecret,
  children,
}: {
  machine: NonNullable<React.ContextType<typeof ApiKeysMachineContext>>
  project: Project
  canReadKeys: boolean
  canUpdateSecret: boolean
  children: (actor: ApiKeysActorRef) => ReactNode
}) {
  const actor = useActorRef(machine, { input: { ref: project.ref, canReadKeys, canUpdateSecret } })
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
            <ApiKeysPanel actor={actor} />
            <ProjectConfigPanel actor={actor} />
          </>
        )}
      </ApiKeysHost>
    </div>
  )
}

/** The 'Project API keys' panel as the building screen shows it, while the project is being set up. */
export function BuildingApiKeys() {
  return <ApiKeysHost>{(actor) => <ApiKeysPanel actor={actor} />}</ApiKeysHost>
}
