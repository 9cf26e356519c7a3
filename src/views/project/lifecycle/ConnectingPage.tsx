import { useSelector } from '@xstate/react'
import type { ReactNode } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectConnectingView, type connectingMachine } from '../../../../machines/connecting.machine'
import { Card } from '../../shell/ui'
import { ElapsedNotice } from './ElapsedNotice'

/** The connecting page: the project's API server is offline; the connecting machine tests it until it answers. */
export function ConnectingPage({ actor, projectName }: { actor: ActorRefFrom<typeof connectingMachine>; projectName: string }) {
  const view = useSelector(actor, selectConnectingView)
  const elapsed = useSelector(actor, (snapshot) => snapshot.children.elapsed)
  return <ConnectingScreen projectName={projectName} notice={elapsed ? <ElapsedNotice actor={elapsed} supportHref={view.supportHref} /> : null} />
}

/** The screen itself; also shown for the moment between success and the refreshed project. */
export function ConnectingScreen({ projectName, notice }: { projectName: string; notice?: ReactNode }) {
  return (
    <section aria-labelledby="connecting-title" className="mx-auto max-w-2xl p-8">
      <Card className="space-y-4 p-6">
        <p className="text-sm text-neutral-500">{projectName}</p>
        <h1 id="connecting-title" className="flex items-center gap-3 text-2xl font-semibold">
          <span aria-hidden className="inline-block h-3 w-3 animate-pulse rounded-full bg-amber-500" />
          Connecting to project
        </h1>
        <p className="text-sm text-neutral-600 dark:text-neutral-300">
          We are trying to reach your project's API server. This usually resolves on its own: please wait 2 minutes
          before opening a support ticket.
        </p>
        {notice}
      </Card>
    </section>
  )
}
