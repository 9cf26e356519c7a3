import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type EventObject, type SnapshotFrom, type StateValue } from 'xstate'
import { branchingEnablementMachine } from '../machines/branchingEnablement.machine'
import { branchDeletedMessage, branchMergedMessage, branchResetMessage } from '../machines/branchActionsRegion'
import { branchStatusLabel, branchStatusMachine, type BranchDetail } from '../machines/branchStatus.machine'
import { selectToast, toastMachine } from '../machines/toast.machine'
import type { BranchResponse, MergePlan, MergeResponse } from '../src/contracts/branching'
import { Branches } from '../src/views/project/branches/BranchesPage'
import { BRANCHING_PROJECT, BUILDING, DETAIL, EMPTY_MERGE_PLAN, FAILED, MERGE_PLAN, PASSED, makeBranch } from '../tests/fixtures.branching'
import { type InternalEvent, type ModelEvent, coveringWalks, describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(branchStatusMachine)

const M = 'branchStatus'
const REQUEST_TIMEOUT = 10_000
const POLL_INTERVAL = 4_000
const POLL_TIMEOUT = 2_000

/** The first read's two answers: every branch settled (nothing polled), or one being built (watched). */
const SETTLED = [PASSED, FAILED]
const WATCHED = [PASSED, BUILDING]
const BUILT: BranchResponse = { ...BUILDING, status: 'MIGRATIONS_PASSED', preview_project_status: 'ACTIVE_HEALTHY', updated_at: '2026-11-24T10:09:00.000Z' }
/** What the enablement modal tells the page when it created a branch. */
const CREATED = makeBranch({ id: '5d0c8f0e-2c55-4c2a-9a5e-0f0f5b0b0b04', name: 'tags', project_ref: 'eeeeeeeeeeeeeeeeeeee', git_branch: 'feature/tags', status: 'CREATING_PROJECT', preview_project_status: 'COMING_UP' })
const MERGED: MergeResponse = { workflow_run_id: 'w', message: 'ok', applied: MERGE_PLAN.migrations }
const FAILURE = apiError('Internal server error', 500)

const contextOf = (snapshot: SnapshotFrom<typeof branchStatusMachine>) => snapshot.context
const at = (snapshot: AnyMachineSnapshot, value: StateValue) => snapshot.matches(value)
const sameBranches = (branches: BranchResponse[], expected: BranchResponse[]) =>
  branches.length === expected.length && branches.every((b, i) => b.id === expected[i].id && b.status === expected[i].status)

const done = (id: string, output: unknown): InternalEvent => ({ type: `xstate.done.actor.${id}`, output })
const failed = (id: string, error: unknown): InternalEvent => ({ type: `xstate.error.actor.${id}`, error })
const after = (delay: string, path: string): InternalEvent => ({ type: `xstate.after.${delay}.${M}.${path}` })

/** The states of the open branch that wait for a request (each with its time-out), with that request's actor. */
const BUSY: Array<[state: string, actor: string]> = [
  ['loading', 'fetchBranchDetail'],
  ['shown.planningMerge', 'fetchMergePlan'],
  ['shown.merging', 'mergeBranch'],
  ['shown.resetting', 'resetBranch'],
  ['shown.deleting', 'deleteBranch'],
]
// A reset and a delete answer nothing (null here: a path's name prints each output).
const OUTPUTS: Record<string, unknown> = { fetchBranchDetail: DETAIL, mergeBranch: MERGED, resetBranch: null, deleteBranch: null }
const openAt = (state: string) => ({ loaded: { detail: { open: state.includes('.') ? { shown: state.split('.')[1] } : state } } })

// The toast region belongs to the project page: in the walk its action is inert (the paths check the toasts).
const model = modelOf(branchStatusMachine.provide({ actions: { showToast: () => {} } }), {
  input: { project: BRANCHING_PROJECT, toasts: createActor(toastMachine) },
  events: (snapshot) => {
    const c = contextOf(snapshot)
    if (at(snapshot, 'loading')) return [done('listBranches', SETTLED), done('listBranches', WATCHED), failed('listBranches', FAILURE), after('requestTimeout', 'loading')]
    if (at(snapshot, 'failed')) return [{ type: 'branches.retry' }]

    const still = at(snapshot, { loaded: { list: 'still' } })
    const home = still && sameBranches(c.branches, SETTLED)
    // The open branch: one request at a time; its time-out only while no beat is running (the beat's timers would
    // fire first). The other branch is only read, then closed: the actions are explored on FAILED.
    const busy = BUSY.find(([state]) => at(snapshot, openAt(state)))
    if (busy) {
      const [state, id] = busy
      const answers = id === 'fetchMergePlan' ? [done(id, MERGE_PLAN), done(id, EMPTY_MERGE_PLAN)] : [done(id, OUTPUTS[id])]
      if (!home || c.selectedId !== FAILED.id) return answers.slice(0, 1)
      return [...answers, failed(id, FAILURE), after('requestTimeout', `loaded.detail.open.${state}`)]
    }
    if (at(snapshot, { loaded: { detail: 'open' } })) {
      if (!home || c.selectedId !== FAILED.id) return [{ type: 'branch.close' }]
      const events: Array<ModelEvent<typeof branchStatusMachine>> = []
      if (at(snapshot, openAt('failed'))) events.push({ type: 'detail.retry' })
      if (at(snapshot, openAt('shown.idle'))) {
        // detail.changed: what the machine raises when a poll's answer moves the open branch (tests/machines has the
        // poll that does it); sent here as the event it is, so the walk reaches its transition.
        events.push({ type: 'merge.start' }, { type: 'reset.start' }, { type: 'delete.start' }, { type: 'detail.changed' })
      }
      for (const confirming of ['confirmingMerge', 'confirmingReset', 'confirmingDelete']) {
        if (!at(snapshot, openAt(`shown.${confirming}`))) continue
        if (confirming !== 'confirmingMerge' || (c.mergePlan?.migrations.length ?? 0) > 0) events.push({ type: 'action.confirm' })
        // Named by what it cancels (the machine reads only the type): each cancel is its own edge of the walk.
        const cancel = Object.assign(ev({ type: 'action.cancel' }), { from: confirming })
        events.push(cancel)
      }
      if (at(snapshot, openAt('failed')) || at(snapshot, openAt('shown.idle'))) events.push({ type: 'branch.open', id: PASSED.id }, { type: 'branch.close' })
      return events
    }

    // The detail is closed: the list's events.
    if (home) return [{ type: 'branch.open', id: FAILED.id }, { type: 'branch.created', branch: CREATED }, { type: 'branches.refresh' }]
    if (!at(snapshot, { loaded: { list: 'watching' } })) return []
    const events: Array<ModelEvent<typeof branchStatusMachine>> = []
    if (!c.branches.some((b) => b.id === CREATED.id)) events.push({ type: 'branch.created', branch: CREATED })
    if (at(snapshot, { loaded: { list: { watching: 'settled' } } })) events.push(after('pollInterval', 'loaded.list.watching'))
    else {
      const settledNow = c.branches.map((b) => (b.id === BUILDING.id ? BUILT : b.id === CREATED.id ? { ...CREATED, status: 'MIGRATIONS_PASSED' as const } : b))
      events.push(done('pollBranches', settledNow), done('pollBranches', c.branches), failed('pollBranches', FAILURE), after('pollTimeout', 'loaded.list.watching.requesting'))
    }
    return events
  },
  serializeState: (snapshot, event) => {
    const { branches, selectedId, mergePlan, loadError, detailError, actionError } = contextOf(snapshot)
    return keyByIncomingEdge(
      snapshot,
      event,
      JSON.stringify({
        branches: branches.map((b) => `${b.id}:${b.status}`),
        selectedId,
        plan: mergePlan?.migrations.length ?? null,
        errors: [loadError !== null, detailError !== null, actionError !== null],
      }),
    )
  },
})
const paths = coveringWalks(model)
const runPath = usePathClock()

describe('branch status model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(branchStatusMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const list = deferredActor<BranchResponse[], { ref: string }>('listBranches')
      const detail = deferredActor<BranchDetail, { id: string }>('fetchBranchDetail')
      const plan = deferredActor<MergePlan, { id: string }>('fetchMergePlan')
      const merge = deferredActor<MergeResponse, { id: string }>('mergeBranch')
      const reset = deferredActor<void, { id: string }>('resetBranch')
      const remove = deferredActor<void, { id: string }>('deleteBranch')
      const actors: Record<string, ReturnType<typeof deferredActor<any, any>>> = {
        listBranches: list,
        pollBranches: list,
        fetchBranchDetail: detail,
        fetchMergePlan: plan,
        mergeBranch: merge,
        resetBranch: reset,
        deleteBranch: remove,
      }
      const toasts = runPath(createActor(toastMachine).start())
      const actor = runPath(
        createActor(
          branchStatusMachine.provide({
            actors: {
              // The real modal's machine: it stays closed on these paths, so none of its reads runs.
              enablement: branchingEnablementMachine,
              listBranches: list.logic,
              fetchBranchDetail: detail.logic,
              fetchMergePlan: plan.logic,
              mergeBranch: merge.logic,
              resetBranch: reset.logic,
              deleteBranch: remove.logic,
            },
          }),
          { input: { project: BRANCHING_PROJECT, toasts } },
        ),
      )
      // The beat: when the list's watch began or its last read went out (its timers count from then).
      let beatStart = 0
      let wasWatching = false
      let wasRequesting = false
      actor.subscribe((snapshot) => {
        const watching = snapshot.matches({ loaded: { list: 'watching' } })
        const requesting = snapshot.matches({ loaded: { list: { watching: 'requesting' } } })
        if ((watching && !wasWatching) || (requesting && !wasRequesting)) beatStart = Date.now()
        wasWatching = watching
        wasRequesting = requesting
      })
      actor.start()
      render(<Branches actor={actor} />)

      const section = () => screen.getByRole('region', { name: /^Branch / })
      const dialog = () => screen.getByRole('dialog')
      const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
      const selected = (snapshot: AnyMachineSnapshot) => contextOf(snapshot).branches.find((b) => b.id === contextOf(snapshot).selectedId)!
      const confirmButton = () => within(dialog()).getAllByRole('button').at(-1)!

      const expectConfirming = (snapshot: AnyMachineSnapshot, title: string, running: string | null) => {
        expect(within(dialog()).getByRole('heading', { name: title })).toBeInTheDocument()
        expect(confirmButton()).toHaveTextContent(running ?? title)
        const error = contextOf(snapshot).actionError
        if (error) expect(within(dialog()).getByRole('alert')).toHaveTextContent(error)
        else expect(within(dialog()).queryByRole('alert')).toBeNull()
        expect(within(dialog()).getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', running !== null)
      }

      await path.test({
        states: {
          loading: () => {
            expect(screen.getByText('Loading branches…')).toBeInTheDocument()
            expect(list.pending.map((run) => run.input)).toEqual([{ ref: BRANCHING_PROJECT.ref }])
          },
          failed: (snapshot) => {
            const panel = screen.getByRole('alert')
            expect(panel).toHaveTextContent('Failed to load branches')
            expect(panel).toHaveTextContent(contextOf(snapshot).loadError!)
          },
          loaded: (snapshot) => {
            const c = contextOf(snapshot)
            const rows = within(screen.getByRole('table', { name: 'Branches', hidden: true })).getAllByRole('row', { hidden: true }).slice(1)
            expect(rows.map((row) => row.textContent)).toEqual(c.branches.map((b) => expect.stringContaining(`${b.name}${b.git_branch}${branchStatusLabel(b)}`)))
            expect(screen.queryByText('Watching the branches being built…') !== null).toBe(at(snapshot, { loaded: { list: 'watching' } }))
          },
          'loaded.list.watching.requesting': () => {
            expect(list.pending.map((run) => run.input)).toEqual([{ ref: BRANCHING_PROJECT.ref }])
          },
          'loaded.list.watching.settled': () => {
            expect(list.pending).toEqual([])
          },
          'loaded.list.still': () => {
            expect(list.pending).toEqual([])
          },
          'loaded.detail.closed': () => {
            expect(screen.queryByRole('region', { name: /^Branch /, hidden: true })).toBeNull()
            expect(screen.queryByRole('dialog')).toBeNull()
          },
          'loaded.detail.open': (snapshot) => {
            const region = screen.getByRole('region', { name: `Branch ${selected(snapshot).name}`, hidden: true })
            expect(within(region).getByRole('link', { name: "Open the branch's project", hidden: true })).toHaveAttribute('href', `/project/${selected(snapshot).project_ref}`)
          },
          'loaded.detail.open.loading': (snapshot) => {
            expect(within(section()).getByText("Loading the branch's results…")).toBeInTheDocument()
            expect(detail.pending.map((run) => run.input)).toEqual([{ id: contextOf(snapshot).selectedId }])
          },
          'loaded.detail.open.failed': (snapshot) => {
            const panel = within(section()).getByRole('alert')
            expect(panel).toHaveTextContent('Failed to load the branch')
            expect(panel).toHaveTextContent(contextOf(snapshot).detailError!)
          },
          'loaded.detail.open.shown': () => {
            const region = within(screen.getByRole('region', { name: /^Branch /, hidden: true }))
            const rows = within(region.getByRole('table', { name: 'Migrations', hidden: true })).getAllByRole('row', { hidden: true }).slice(1)
            expect(rows.map((row) => row.querySelector('th')?.textContent)).toEqual(['0001_create_recipes.sql', '0002_bad.sql', 'supabase/seed.sql (seed)'])
            expect(region.getByText('42P01: relation "missing_table" does not exist')).toBeInTheDocument()
            expect(region.getByText('added column public.recipes.rating')).toBeInTheDocument()
          },
          'loaded.detail.open.shown.idle': (snapshot) => {
            expect(screen.queryByRole('dialog')).toBeNull()
            for (const name of ['Merge into parent', 'Reset branch', 'Delete branch']) expect(within(section()).getByRole('button', { name })).toBeEnabled()
            const error = contextOf(snapshot).actionError
            if (error) expect(within(section()).getByRole('alert')).toHaveTextContent(error)
            else expect(within(section()).queryByRole('alert')).toBeNull()
          },
          'loaded.detail.open.shown.planningMerge': () => {
            expect(within(section()).getByText('Reading what a merge would run…')).toBeInTheDocument()
            expect(within(section()).getByRole('button', { name: 'Merge into parent' })).toBeDisabled()
            expect(plan.pending.map((run) => run.input)).toEqual([{ id: FAILED.id }])
          },
          'loaded.detail.open.shown.confirmingMerge': (snapshot) => {
            expectConfirming(snapshot, 'Merge branch', null)
            const migrations = contextOf(snapshot).mergePlan!.migrations
            if (migrations.length > 0) {
              expect(within(within(dialog()).getByRole('list', { name: 'Migrations to merge' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['0001_create_recipes'])
              expect(confirmButton()).toBeEnabled()
            } else {
              expect(within(dialog()).getByText(`Nothing to merge: the parent has run every migration of ${FAILED.name}.`)).toBeInTheDocument()
              expect(confirmButton()).toBeDisabled()
            }
          },
          'loaded.detail.open.shown.merging': (snapshot) => {
            expectConfirming(snapshot, 'Merge branch', 'Merging…')
            expect(merge.pending.map((run) => run.input)).toEqual([{ id: FAILED.id }])
          },
          'loaded.detail.open.shown.confirmingReset': (snapshot) => {
            expectConfirming(snapshot, 'Reset branch', null)
            expect(within(dialog()).getByText(/^Reset broken\? Its database is rebuilt/)).toBeInTheDocument()
          },
          'loaded.detail.open.shown.resetting': (snapshot) => {
            expectConfirming(snapshot, 'Reset branch', 'Resetting…')
            expect(reset.pending.map((run) => run.input)).toEqual([{ id: FAILED.id }])
          },
          'loaded.detail.open.shown.confirmingDelete': (snapshot) => {
            expectConfirming(snapshot, 'Delete branch', null)
            expect(within(dialog()).getByText(/^Delete broken\? Its project and database are deleted/)).toBeInTheDocument()
          },
          'loaded.detail.open.shown.deleting': (snapshot) => {
            expectConfirming(snapshot, 'Delete branch', 'Deleting…')
            expect(remove.pending.map((run) => run.input)).toEqual([{ id: FAILED.id }])
          },
        },
        events: {
          'branches.retry': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
          },
          'branch.open': async (step) => {
            const id = step.event.id
            const name = contextOf(actor.getSnapshot()).branches.find((b) => b.id === id)!.name
            fireEvent.click(screen.getByRole('button', { name: `Open branch ${name}` }))
          },
          'branch.close': async () => {
            fireEvent.click(within(section()).getByRole('button', { name: 'Close' }))
          },
          'detail.retry': async () => {
            fireEvent.click(within(section()).getByRole('button', { name: 'Try again' }))
          },
          'merge.start': async () => {
            fireEvent.click(within(section()).getByRole('button', { name: 'Merge into parent' }))
          },
          'reset.start': async () => {
            fireEvent.click(within(section()).getByRole('button', { name: 'Reset branch' }))
          },
          'delete.start': async () => {
            fireEvent.click(within(section()).getByRole('button', { name: 'Delete branch' }))
          },
          'action.confirm': async () => {
            fireEvent.click(confirmButton())
          },
          'action.cancel': async () => {
            fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }))
          },
          // What the enablement modal (its own model test drives it) sends when it created a branch.
          'branch.created': async (step) => {
            await act(async () => actor.send(step.event))
          },
          // Raised by the machine itself (after a reset; after a poll that moves the open branch): sent as such.
          'branches.refresh': async () => {
            await act(async () => actor.send({ type: 'branches.refresh' }))
          },
          'detail.changed': async () => {
            await act(async () => actor.send({ type: 'detail.changed' }))
          },
          ...Object.fromEntries(
            Object.keys(actors).flatMap((id) => [
              [
                `xstate.done.actor.${id}`,
                async (step: { event: EventObject }) => {
                  const name = selected(actor.getSnapshot())?.name
                  const output = outputOf<unknown>(step)
                  await actors[id].resolve(output)
                  const toast = selectToast(toasts.getSnapshot())
                  if (id === 'mergeBranch') expect(toast).toMatchObject({ tone: 'success', message: branchMergedMessage(MERGED.applied) })
                  if (id === 'resetBranch') expect(toast).toMatchObject({ tone: 'success', message: branchResetMessage(name) })
                  if (id === 'deleteBranch') expect(toast).toMatchObject({ tone: 'success', message: branchDeletedMessage(name) })
                },
              ],
              [`xstate.error.actor.${id}`, async (step: { event: EventObject }) => actors[id].reject(errorOf(step))],
            ]),
          ),
          [`xstate.after.requestTimeout.${M}.loading`]: async () => {
            await advance(REQUEST_TIMEOUT)
          },
          ...Object.fromEntries(
            BUSY.map(([state, id]) => [
              `xstate.after.requestTimeout.${M}.loaded.detail.open.${state}`,
              async () => {
                // Only this request is out and no beat runs (the model offers the time-out then only).
                for (const [other, run] of Object.entries(actors)) if (run !== actors[id] && run.pending.length > 0) throw new Error(`${other} is pending`)
                await advance(REQUEST_TIMEOUT)
                expect(actors[id].pending).toHaveLength(0) // the read given up was abandoned (its signal aborted)
              },
            ]),
          ),
          [`xstate.after.pollInterval.${M}.loaded.list.watching`]: async () => {
            await advance(beatStart + POLL_INTERVAL - Date.now())
          },
          [`xstate.after.pollTimeout.${M}.loaded.list.watching.requesting`]: async () => {
            await advance(beatStart + POLL_TIMEOUT - Date.now())
          },
        },
      })
    })
  }
})
