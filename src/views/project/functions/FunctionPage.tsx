/**
 * /project/{ref}/functions/{slug}[/code|/logs]: a function's page (its machine loads with it) and, on its overview,
 * its figures for a period (a child of the page's machine) and the Test panel (its own machine, loaded beside it).
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
          stats={<StatsHost detail={actor} />}
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

/** The figures' machine runs as a child of the page's (started once the function is here). */
function StatsHost({ detail }: { detail: FunctionDetailActorRef }) {
  const stats = useSelector(detail, (s) => s.children.functionStats)
  return stats ? <FunctionStats actor={stats} /> : null
}
