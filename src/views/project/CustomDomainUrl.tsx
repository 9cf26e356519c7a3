/**
 * The project URL a project's custom domain gives (https://{hostname} once active), for the pages that show the
 * project's URL: settings › API, settings › General and the API docs. Each place runs its own custom domain actor for
 * the open project.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { Suspense, type ReactNode } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectCustomDomainUrl, type customDomainMachine } from '../../../machines/customDomain.machine'
import { useLoaded } from '../shell/lazy'
import { useAppLogic } from '../shell/logic'

export type CustomDomainActorRef = ActorRefFrom<typeof customDomainMachine>

export function useCustomDomainActor(projectRef: string): CustomDomainActorRef {
  return useActorRef(useLoaded(useAppLogic().customDomain), { input: { ref: projectRef } })
}

/** Renders its children with the custom domain's project URL (null until known, and when there is none). */
export function WithCustomDomainUrl({ projectRef, children }: { projectRef: string; children: (url: string | null) => ReactNode }) {
  return (
    <Suspense fallback={children(null)}>
      <CustomDomainUrl key={projectRef} projectRef={projectRef}>
        {children}
      </CustomDomainUrl>
    </Suspense>
  )
}

function CustomDomainUrl({ projectRef, children }: { projectRef: string; children: (url: string | null) => ReactNode }) {
  const url = useSelector(useCustomDomainActor(projectRef), selectCustomDomainUrl)
  return <>{children(url)}</>
}
