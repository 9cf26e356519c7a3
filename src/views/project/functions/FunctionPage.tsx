/**
 * /project/{ref}/functions/{slug}[/code|/logs]: a function's page (its machine loads with it) and, on its overview,
 * its figures for a period and the Test panel (their own machines, loaded beside it; the figures' once the function,
 * whose id they are asked by, has loaded).
 */
import { useActorRef, useSelector } from '@xstate/react'
import { Suspense } from 'react'
import { useLocation } from 'wouter'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic } from '../../shell/logic'
import { Loading } from '../../shell/ui'
import { ProjectMachinePage } from '../ProjectMachinePage'
import { FunctionDetail, type FunctionDetailActorRef, type FunctionTab } from './FunctionDetail'
import { FunctionStats } from './FunctionStats'
import { FunctionTestPanel } from './FunctionTestPanel'

/** The page's address (the project's pages see the whole path: links inside stay absolute). */
const FUNCTION_PATH = /^\/project\/[^/]+\/functions\/(?<slug>[A-Za-z][A-Za-z0-9_-]*)(?:\/(?<tab>code|logs))?\/?$/

export function FunctionPage() {
  const logic = useAppLogic()
  const [location] = useLocation()
  const params = FUNCTION_PATH.exec(location)?.groups
  const slug = params?.slug ?? ''
  const tab: FunctionTab = params?.tab === 'code' ? 'code' : params?.tab === 'logs' ? 'logs' : 'overview'
  return (
    <ProjectMachinePage
      key={slug}
      machine={logic.functionDetail}
      heading={{ title: slug, description: 'Edge Function' }}
      loadingLabel="Loading function…"
      input={(ref) => ({ ref, slug })}
      render={(actor) => (
        <FunctionDetail
          actor={actor}
          tab={tab}
          stats={
            <Suspense fallback={<Loading label="Loading the figures…" />}>
              <StatsHost detail={actor} />
            </Suspense>
          }
          aside={
            <Suspense fallback={<Loading label="Loading the Test panel…" />}>
              <TestHost projectRef={actor.getSnapshot().context.ref} slug={slug} />
            </Suspense>
          }
        />
      )}
    />
  )
}

function TestHost({ projectRef, slug }: { projectRef: string; slug: string }) {
  const actor = useActorRef(useLoaded(useAppLogic().functionTest), { input: { ref: projectRef, slug } })
  return <FunctionTestPanel actor={actor} />
}

function StatsHost({ detail }: { detail: FunctionDetailActorRef }) {
  const ref = useSelector(detail, (s) => s.context.ref)
  const functionId = useSelector(detail, (s) => s.context.fn?.id)
  return functionId ? <StatsActor key={functionId} projectRef={ref} functionId={functionId} /> : null
}

function StatsActor({ projectRef, functionId }: { projectRef: string; functionId: string }) {
  const actor = useActorRef(useLoaded(useAppLogic().functionStats), { input: { ref: projectRef, functionId } })
  return <FunctionStats actor={actor} />
}
