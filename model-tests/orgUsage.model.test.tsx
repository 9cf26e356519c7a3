import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type SnapshotFrom } from 'xstate'
import { orgUsageMachine, type OrgUsageData } from '../machines/orgUsage.machine'
import { OrgUsage } from '../src/views/org/usage/OrgUsagePage'
import { REF } from '../tests/fixtures'
import { USAGE_DATA } from '../tests/fixtures.usage'
import { type ModelEvent, describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(orgUsageMachine)

const REQUEST_TIMEOUT = 10_000

const contextOf = (snapshot: SnapshotFrom<typeof orgUsageMachine>) => snapshot.context

const model = modelOf(orgUsageMachine, {
  input: { slug: 'demo-free' },
  events: (snapshot) => {
    const { projectRef, data } = contextOf(snapshot)
    const select: Array<ModelEvent<typeof orgUsageMachine>> = projectRef === '' ? [ev({ type: 'project.select', ref: REF })] : []
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.fetchOrgUsage', output: USAGE_DATA },
        { type: 'xstate.error.actor.fetchOrgUsage', error: apiError('Internal server error', 500) },
        { type: 'xstate.after.requestTimeout.orgUsage.loading' },
        // Choosing while loading: only once the projects are known (a first load has answered).
        ...(data ? select : []),
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'usage.retry' }, ...(data ? select : [])]
    if (snapshot.matches('loaded')) return select
    return []
  },
  serializeState: (snapshot, event) => {
    const { projectRef, data, error } = contextOf(snapshot)
    return keyByIncomingEdge(snapshot, event, JSON.stringify({ projectRef, loaded: data !== null, error }))
  },
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

describe('orgUsage model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(orgUsageMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const fetch = deferredActor<OrgUsageData, { slug: string; projectRef: string }>('fetchOrgUsage')
      const actor = runPath(createActor(orgUsageMachine.provide({ actors: { fetchOrgUsage: fetch.logic } }), { input: { slug: 'demo-free' } }).start())
      render(<OrgUsage actor={actor} />)
      const filter = () => screen.getByLabelText('Project')

      await path.test({
        states: {
          loading: (snapshot) => {
            const { projectRef } = contextOf(snapshot)
            expect(screen.getByRole('status')).toHaveTextContent('Loading usage…')
            expect(screen.queryByRole('table')).toBeNull()
            expect(filter()).toHaveValue(projectRef)
            expect(fetch.pending.at(-1)?.input).toEqual({ slug: 'demo-free', projectRef })
          },
          failed: (snapshot) => {
            const alert = screen.getByRole('alert')
            expect(within(alert).getByRole('heading')).toHaveTextContent('Failed to load usage')
            expect(alert).toHaveTextContent(contextOf(snapshot).error ?? '')
            expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled()
            expect(filter()).toHaveValue(contextOf(snapshot).projectRef)
          },
          loaded: (snapshot) => {
            const { projectRef } = contextOf(snapshot)
            expect(screen.queryByRole('status')).toBeNull()
            const rows = within(screen.getByRole('table', { name: 'Usage per metric' })).getAllByRole('row').slice(1)
            expect(rows).toHaveLength(7)
            expect(rows[0]).toHaveTextContent('Exceeded')
            expect(filter()).toHaveValue(projectRef)
            // The read-only banner: Weekend Hackathon's, shown for every project, gone when Recipe Box is chosen.
            if (projectRef === '') expect(screen.getByRole('alert')).toHaveTextContent('Weekend Hackathon: Your project is in read-only mode')
            else expect(screen.queryByRole('alert')).toBeNull()
          },
        },
        events: {
          'xstate.done.actor.fetchOrgUsage': async () => fetch.resolve(USAGE_DATA),
          'xstate.error.actor.fetchOrgUsage': async (step) => fetch.reject(errorOf(step)),
          'xstate.after.requestTimeout.orgUsage.loading': async () => {
            await act(() => vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT))
          },
          'usage.retry': async () => {
            fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))
          },
          'project.select': async (step) => {
            fireEvent.change(filter(), { target: { value: step.event.ref } })
          },
        },
      })
    })
  }
})
