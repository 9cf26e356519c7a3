/**
 * An Authentication page's machine, run with the project's ref and whether the person may manage its auth
 * (project_auth:all in the project's organization): a member without it sees the page read-only.
 */
import { useSelector } from '@xstate/react'
import type { ReactNode } from 'react'
import type { Actor, AnyStateMachine, InputFrom } from 'xstate'
import { selectOrgPermissions } from '../../../../machines/session.machine'
import { selectProject } from '../../../../machines/projectStatus.machine'
import { useShell } from '../../shell/contexts'
import type { Loader } from '../../shell/logic'
import { useProjectActor } from '../../shell/projectActor'
import { ProjectMachinePage } from '../ProjectMachinePage'

export function AuthMachinePage<M extends AnyStateMachine>(props: {
  machine: Loader<M>
  heading: { title: string; description: ReactNode }
  loadingLabel: string
  input: (ref: string, canManage: boolean) => InputFrom<M>
  render: (actor: Actor<M>) => ReactNode
}) {
  const project = useSelector(useProjectActor(), selectProject)
  const permissions = useSelector(useShell().session, selectOrgPermissions(project?.organization_slug ?? null))
  const canManage = permissions.includes('project_auth:all')
  return (
    <ProjectMachinePage
      key={String(canManage)}
      machine={props.machine}
      heading={props.heading}
      loadingLabel={props.loadingLabel}
      input={(ref) => props.input(ref, canManage)}
      render={props.render}
    />
  )
}

/** A date as the lists show it: the day and the time, in the person's locale; an em dash for never. */
export function whenLabel(iso: string | null | undefined): string {
  if (!iso) return '—'
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? '—' : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
}

/** A success line from a machine's notice, announced politely. */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950/40 dark:text-emerald-200">
      {children}
    </p>
  )
}
