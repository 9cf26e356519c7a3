import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor } from 'xstate'
import { customDomainMachine } from '../machines/customDomain.machine'
import type { CustomHostnameResponse } from '../src/contracts/settings'
import { CustomDomainPanel } from '../src/views/project/settings/CustomDomain'
import { REF } from '../tests/fixtures'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(customDomainMachine)

const REQUEST_TIMEOUT = 10_000

export function hostnameAnswer(hostname: string, active: boolean): CustomHostnameResponse {
  return {
    status: active ? '5_services_reconfigured' : '2_initiated',
    custom_hostname: hostname,
    data: {
      success: true,
      errors: [],
      messages: [],
      result: {
        id: 'e1',
        hostname,
        ssl: { status: active ? 'active' : 'pending_validation', validation_records: [] },
        ownership_verification: { type: 'txt', name: `_cf.${hostname}`, value: 'e1' },
        custom_origin_server: `${REF}.localhost`,
        status: active ? 'active' : 'pending',
      },
    },
  }
}

const ERRORS = {
  notAllowed: apiError('This project is on the free plan: it is not allowed to set up custom domain (Pro plan and above)', 400),
  none: apiError('The project has no custom hostname configuration', 400),
  other: apiError('Request failed with status 500', 500),
}

const model = modelOf(customDomainMachine, {
  input: { ref: REF },
  events: (snapshot) => {
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.fetchCustomHostname', output: hostnameAnswer('api.acme.test', true) },
        { type: 'xstate.done.actor.fetchCustomHostname', output: hostnameAnswer('api.acme.test', false) },
        ...Object.values(ERRORS).map((error) => (ev({ type: 'xstate.error.actor.fetchCustomHostname', error }))),
        { type: 'xstate.after.requestTimeout.customDomain.loading' },
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'domain.retry' }]
    return []
  },
  serializeState: (snapshot, event) => {
    const detail = event && 'output' in event ? outputOf<CustomHostnameResponse>({ event }).status : event && 'error' in event ? errorOf({ event }).message : ''
    return keyByIncomingEdge(snapshot, event, detail)
  },
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('custom domain model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(customDomainMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetch = deferredActor<CustomHostnameResponse, { ref: string }>('fetchCustomHostname')
      const actor = runPath(createActor(customDomainMachine.provide({ actors: { fetchCustomHostname: fetch.logic } }), { input: { ref: REF } }).start())
      render(<CustomDomainPanel actor={actor} />)
      const region = () => within(screen.getByRole('region', { name: 'Custom domains' }))

      await path.test({
        states: {
          loading: () => {
            expect(region().getByRole('status')).toHaveTextContent('Retrieving the custom domain…')
            expect(fetch.pending.at(-1)?.input).toEqual({ ref: REF })
          },
          failed: (snapshot) => {
            const alert = region().getByRole('alert')
            expect(alert).toHaveTextContent(`Failed to retrieve the custom domain: ${snapshot.context.error}`)
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
          },
          loaded: (snapshot) => {
            const domain = snapshot.context.domain!
            expect(region().queryByRole('alert')).toBeNull()
            if (domain.status === '0_not_allowed') expect(region().getByText(/not allowed to set one up/)).toBeInTheDocument()
            else if (domain.status === '0_no_hostname_configured') expect(region().getByText(/No custom domain/)).toBeInTheDocument()
            else if (domain.status === 'active') expect(region().getByText(/is active: the API URL and the API docs use it/)).toBeInTheDocument()
            else expect(region().getByText(/is being set up \(2_initiated\)/)).toBeInTheDocument()
          },
        },
        events: {
          'xstate.done.actor.fetchCustomHostname': async (step) => fetch.resolve(outputOf<CustomHostnameResponse>(step)),
          'xstate.error.actor.fetchCustomHostname': async (step) => fetch.reject(errorOf(step)),
          'xstate.after.requestTimeout.customDomain.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'domain.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
        },
      })
    })
  }
})
