/**
 * The project's custom domain: its section on settings › General, and the project URL it gives settings › API and
 * the API docs once active (https://{hostname}). Each place runs its own custom domain actor for the open project.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { Suspense, type ReactNode } from 'react'
import type { ActorRefFrom } from 'xstate'
import { selectCustomDomainUrl, selectCustomDomainView, type customDomainMachine } from '../../../../machines/customDomain.machine'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic } from '../../shell/logic'
import { Button, Card, Loading } from '../../shell/ui'

export type CustomDomainActorRef = ActorRefFrom<typeof customDomainMachine>

function useCustomDomainActor(projectRef: string): CustomDomainActorRef {
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

/** Settings › General: 'Custom domains'. */
export function CustomDomainSection({ projectRef }: { projectRef: string }) {
  return (
    <Suspense fallback={<Loading label="Retrieving the custom domain…" />}>
      <CustomDomainHost key={projectRef} projectRef={projectRef} />
    </Suspense>
  )
}

function CustomDomainHost({ projectRef }: { projectRef: string }) {
  return <CustomDomainPanel actor={useCustomDomainActor(projectRef)} />
}

export function CustomDomainPanel({ actor }: { actor: CustomDomainActorRef }) {
  const view = useSelector(actor, selectCustomDomainView)
  return (
    <Card>
      <section aria-labelledby="custom-domain-heading" className="space-y-2 px-5 py-4">
        <h2 id="custom-domain-heading" className="font-semibold">
          Custom domains
        </h2>
        {view.phase === 'loading' ? <Loading label="Retrieving the custom domain…" /> : null}
        {view.phase === 'failed' ? (
          <div role="alert" className="space-y-2 text-sm">
            <p className="text-red-700 dark:text-red-300">Failed to retrieve the custom domain: {view.error}</p>
            <Button onClick={() => actor.send({ type: 'domain.retry' })}>Try again</Button>
          </div>
        ) : null}
        {view.phase === 'notAllowed' ? (
          <p className="text-sm text-neutral-600 dark:text-neutral-300">
            Custom domains are available on the Pro plan and above: this project's organization is not allowed to set one up.
          </p>
        ) : null}
        {view.phase === 'none' ? (
          <p className="text-sm text-neutral-600 dark:text-neutral-300">
            No custom domain: the project's API is reached at its project URL (settings › API).
          </p>
        ) : null}
        {view.phase === 'configured' ? (
          <p className="text-sm text-neutral-600 dark:text-neutral-300">
            <span className="font-mono font-medium text-neutral-900 dark:text-neutral-100">{view.hostname}</span>{' '}
            {view.active ? 'is active: the API URL and the API docs use it.' : `is being set up (${view.setupStatus}): the API URL stays the project URL until it is active.`}
          </p>
        ) : null}
      </section>
    </Card>
  )
}
