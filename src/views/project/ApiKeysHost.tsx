import { useActorRef, useSelector } from '@xstate/react'
import { Suspense, useContext, type ReactNode } from 'react'
import { selectOrgPermissions } from '../../../machines/session.machine'
import { selectProject } from '../../../machines/projectStatus.machine'
import type { Project } from '../../contracts/projects'
import { ShellContext, type SessionActorRef } from '../shell/contexts'
import { useLoaded } from '../shell/lazy'
import { Loading } from '../shell/ui'
import { ProjectActorContext, type ProjectActorRef } from '../shell/projectActor'
import { AppLogicContext, type AppLogic } from '../shell/logic'
import type { ApiKeysActorRef } from './ApiKeysPanels'

/**
 * Runs one API keys actor for the open project, with the person's permissions in its organization, and renders
 * its children with it: settings › API and the building page both show the keys through it. Renders nothing outside
 * a project route inside the app (no project actor, session or machines), so the screens that mount the panel stay
 * renderable on their own in tests.
 */
export function ApiKeysHost({ children }: { children: (actor: ApiKeysActorRef) => ReactNode }) {
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
