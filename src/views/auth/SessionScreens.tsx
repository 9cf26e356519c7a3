import { useSelector } from '@xstate/react'
import { selectCheckError } from '../../../machines/session.machine'
import type { SessionActorRef } from '../shell/contexts'
import { ErrorPanel, Loading } from '../shell/ui'

export function SessionChecking() {
  return (
    <main className="flex min-h-screen items-center justify-center">
      <Loading label="Loading your session…" />
    </main>
  )
}

export function SessionCheckFailed({ session }: { session: SessionActorRef }) {
  const error = useSelector(session, selectCheckError)
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <ErrorPanel
        title="Unable to load your session"
        message={error ?? 'Unable to reach the server'}
        onRetry={() => session.send({ type: 'session.retry' })}
      />
    </main>
  )
}
