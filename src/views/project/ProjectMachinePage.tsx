/**
 * A project page whose machine loads with it (an AppLogic loader) and takes the project's ref as its input: the page's
 * heading and a loading line while the machine's code loads, then the page itself with one actor per project.
 * (The Database, Storage and Edge Functions pages.)
 */
import { useActorRef, useSelector } from '@xstate/react'
import { Suspense, type ReactNode } from 'react'
import type { Actor, AnyStateMachine, InputFrom } from 'xstate'
import { selectProject } from '../../../machines/projectStatus.machine'
import { useLoaded } from '../shell/lazy'
import type { Loader } from '../shell/logic'
import { Loading, PageHeading } from '../shell/ui'
import { useProjectActor } from '../shell/projectActor'

export const PAGE_CLASS = 'mx-auto w-full max-w-6xl px-6 py-8'

export interface ProjectMachinePageProps<M extends AnyStateMachine> {
  machine: Loader<M>
  heading: { title: string; description: ReactNode }
  loadingLabel: string
  /** The machine's input for the project (its ref). */
  input: (ref: string) => InputFrom<M>
  render: (actor: Actor<M>) => ReactNode
  /** What shows while the machine's code loads, for a machine of one section of a page (default: the page's heading). */
  fallback?: ReactNode
}

export function ProjectMachinePage<M extends AnyStateMachine>(props: ProjectMachinePageProps<M>) {
  const project = useSelector(useProjectActor(), selectProject)
  return project ? (
    <Suspense
      fallback={
        props.fallback ?? (
          <div className={PAGE_CLASS}>
            <PageHeading {...props.heading} />
            <Loading label={props.loadingLabel} />
          </div>
        )
      }
    >
      <Host key={project.ref} {...props} projectRef={project.ref} />
    </Suspense>
  ) : null
}

function Host<M extends AnyStateMachine>({ machine, input, render, projectRef }: ProjectMachinePageProps<M> & { projectRef: string }) {
  const actor = useActorRef(useLoaded(machine), { input: input(projectRef) })
  return <>{render(actor)}</>
}
