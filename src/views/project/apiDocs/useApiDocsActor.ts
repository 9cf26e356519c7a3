/**
 * Runs the API docs machine for the open project: its input (the person's permissions in the project's organization,
 * the build's product switches, the URL's place) and the URL both ways — the URL's docs parameters are reported to
 * the machine on every change, and the URL writes it asks for are carried out here, keeping the page's other query
 * parameters.
 */
import { useActorRef, useSelector } from '@xstate/react'
import { useEffect, useMemo } from 'react'
import { useSearchParams } from 'wouter'
import type { ActorRefFrom } from 'xstate'
import type { apiDocsMachine, DocsUrl } from '../../../../machines/apiDocs.machine'
import { selectOrgPermissions } from '../../../../machines/session.machine'
import type { Project } from '../../../contracts/projects'
import { useBuildFlags, useShell } from '../../shell/contexts'
import { useLoaded } from '../../shell/lazy'
import { useAppLogic } from '../../shell/logic'

export type ApiDocsActorRef = ActorRefFrom<typeof apiDocsMachine>

const PARAMS = { docs: 'docs', docsItem: 'docsItem', docsLang: 'docsLang' } as const satisfies Record<keyof DocsUrl, string>

/** The panel's parameters of a query string. */
export function docsUrlOf(params: URLSearchParams): DocsUrl {
  return { docs: params.get(PARAMS.docs), docsItem: params.get(PARAMS.docsItem), docsLang: params.get(PARAMS.docsLang) }
}

/** A query string with the panel's parameters set to `url` (absent ones removed) and every other one kept. */
export function withDocsUrl(params: URLSearchParams, url: DocsUrl): URLSearchParams {
  const next = new URLSearchParams(params)
  for (const key of Object.keys(PARAMS) as Array<keyof DocsUrl>) {
    const value = url[key]
    if (value === null) next.delete(PARAMS[key])
    else next.set(PARAMS[key], value)
  }
  return next
}

/** The person's permissions in the project's organization (the machine's input decides the sections with them). */
export function useProjectPermissions(project: Project) {
  const { session } = useShell()
  return useSelector(session, selectOrgPermissions(project.organization_slug))
}

export function useApiDocsActor(project: Project, mode: 'dialog' | 'page'): ApiDocsActorRef {
  const logic = useAppLogic()
  const machine = useLoaded(logic.apiDocs)
  const { features } = useBuildFlags()
  const permissions = useProjectPermissions(project)
  const [params, setParams] = useSearchParams()
  const url = useMemo(() => docsUrlOf(params), [params])
  const actor = useActorRef(machine, { input: { ref: project.ref, mode, permissions, features, url } })

  // Subscribed before the URL is first reported, so the write that report may ask for is never missed.
  useEffect(() => {
    const subscription = actor.on('url.write', (event) => setParams((current) => withDocsUrl(current, event.url), { replace: event.replace }))
    return () => subscription.unsubscribe()
  }, [actor, setParams])
  useEffect(() => {
    actor.send({ type: 'url.changed', url: { docs: url.docs, docsItem: url.docsItem, docsLang: url.docsLang } })
  }, [actor, url.docs, url.docsItem, url.docsLang])
  return actor
}
