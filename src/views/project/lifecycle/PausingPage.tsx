import { useSelector } from '@xstate/react'
import type { ActorRefFrom } from 'xstate'
import { type pausingMachine } from '../../../../machines/pausing.machine'
import { href } from '../../../href'
import { ElapsedNotice } from './ElapsedNotice'
import { LifecycleScreen } from './LifecycleScreen'

export function PausingPage({ actor, projectName }: { actor: ActorRefFrom<typeof pausingMachine>; projectName: string }) {
  const ref = useSelector(actor, (snapshot) => snapshot.context.ref)
  const elapsed = useSelector(actor, (snapshot) => snapshot.children.elapsed)
  return (
    <PausingScreen projectName={projectName}>
      {elapsed ? (
        <ElapsedNotice
          actor={elapsed}
          supportHref={href.support({
            category: 'Database_unresponsive',
            ref,
            subject: `Project ${projectName} is stuck pausing`,
            message: `My project ${ref} has been pausing for longer than expected.`,
          })}
        />
      ) : null}
    </PausingScreen>
  )
}

/** The pausing screen itself; also shown for the moment between INACTIVE and the refreshed project. */
export function PausingScreen({ projectName, children }: { projectName: string; children?: React.ReactNode }) {
  return (
    <LifecycleScreen titleId="pausing-title" title="Pausing project" projectName={projectName} tone="waiting">
      <p>
        The project is being paused: its database and services are shutting down. Your data stays safe, and you can
        restore the project at any time once it is paused.
      </p>
      {children}
    </LifecycleScreen>
  )
}
