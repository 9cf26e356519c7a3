/**
 * A project's custom domain (GET /v1/projects/{ref}/custom-hostname), with the spec's mapping of the two refusals:
 * a message containing 'not allowed to set up custom domain' is the pseudo-status 0_not_allowed, one containing
 * 'custom hostname configuration' is 0_no_hostname_configured; any other failure is raised (the failed state).
 * The custom domain is active when the hostname's own status is 'active': the project's API is then reached at
 * https://{hostname}, the URL settings › API and the API docs show.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { CustomHostnameResponse } from '../src/contracts/settings'

export const NOT_ALLOWED = '0_not_allowed'
export const NO_HOSTNAME_CONFIGURED = '0_no_hostname_configured'

/** The spec's `customDomain`: a pseudo-status, or the hostname with its status. */
export type CustomDomain =
  | { status: typeof NOT_ALLOWED | typeof NO_HOSTNAME_CONFIGURED }
  | { status: string; hostname: string; setupStatus: CustomHostnameResponse['status'] }

interface Context {
  ref: string
  domain: CustomDomain | null
  error: string | null
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error ?? ''))

/** The pseudo-status of a refusal, or null when the failure is to be raised. */
export function pseudoStatusOf(error: unknown): CustomDomain | null {
  const message = messageOf(error)
  if (message.includes('not allowed to set up custom domain')) return { status: NOT_ALLOWED }
  if (message.includes('custom hostname configuration')) return { status: NO_HOSTNAME_CONFIGURED }
  return null
}

export const customDomainMachine = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    events: {} as { type: 'domain.retry' },
    children: {} as { fetchCustomHostname: 'fetchCustomHostname' },
  },
  actors: {
    fetchCustomHostname: fromPromise<CustomHostnameResponse, { ref: string }>(async () => {
      throw new Error('fetchCustomHostname not provided')
    }),
  },
  guards: {
    isPseudoStatus: (_, params: { error: unknown }) => pseudoStatusOf(params.error) !== null,
  },
  delays: {
    requestTimeout: 10_000,
  },
}).createMachine({
  id: 'customDomain',
  context: ({ input }) => ({ ref: input.ref, domain: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'fetchCustomHostname',
        src: 'fetchCustomHostname',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: {
          target: 'loaded',
          actions: assign(({ event }) => ({
            domain: { status: event.output.data.result.status, hostname: event.output.data.result.hostname, setupStatus: event.output.status },
            error: null,
          })),
        },
        onError: [
          {
            guard: { type: 'isPseudoStatus', params: ({ event }) => ({ error: event.error }) },
            target: 'loaded',
            actions: assign(({ event }) => ({ domain: pseudoStatusOf(event.error), error: null })),
          },
          { target: 'failed', actions: assign(({ event }) => ({ error: messageOf(event.error) || 'Failed to retrieve the custom domain' })) },
        ],
      },
      after: {
        requestTimeout: { target: 'failed', actions: assign({ error: 'The request timed out' }) },
      },
    },
    failed: { on: { 'domain.retry': 'loading' } },
    loaded: {},
  },
})

export type CustomDomainView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | { phase: 'notAllowed' }
  | { phase: 'none' }
  | { phase: 'configured'; hostname: string; active: boolean; setupStatus: string }

export function selectCustomDomainView(snapshot: SnapshotFrom<typeof customDomainMachine>): CustomDomainView {
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed')) return { phase: 'failed', error: snapshot.context.error ?? 'Failed to retrieve the custom domain' }
  const domain = snapshot.context.domain
  if (domain === null || domain.status === NO_HOSTNAME_CONFIGURED || !('hostname' in domain)) {
    return domain?.status === NOT_ALLOWED ? { phase: 'notAllowed' } : { phase: 'none' }
  }
  return { phase: 'configured', hostname: domain.hostname, active: domain.status === 'active', setupStatus: domain.setupStatus }
}

/** The project URL a custom domain gives (https://{hostname}) once active; null otherwise. */
export function selectCustomDomainUrl(snapshot: SnapshotFrom<typeof customDomainMachine>): string | null {
  const view = selectCustomDomainView(snapshot)
  return view.phase === 'configured' && view.active ? `https://${view.hostname}` : null
}
