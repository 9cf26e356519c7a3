import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { branchStatusMachine, selectBranchesView, type BranchDetail } from '../../machines/branchStatus.machine'
import { selectToast, toastMachine } from '../../machines/toast.machine'
import type { BranchResponse, MergePlan, MergeResponse } from '../../src/contracts/branching'
import { BRANCHING_PROJECT, BUILDING, DETAIL, EMPTY_MERGE_PLAN, FAILED, MERGE_PLAN, PASSED } from '../fixtures.branching'

type Answer<T> = T | Error | 'never'
const answer = <T,>(value: Answer<T>): Promise<T> =>
  value === 'never' ? new Promise<T>(() => {}) : value instanceof Error ? Promise.reject(value) : Promise.resolve(value)

interface Script {
  lists: Array<Answer<BranchResponse[]>>
  detail?: Answer<BranchDetail>
  mergePlan?: Answer<MergePlan>
  merge?: Answer<MergeResponse>
  reset?: Answer<void>
  remove?: Answer<void>
}

function start(script: Script) {
  const listCalls: number[] = []
  const detailCalls: string[] = []
  const calls: string[] = []
  const toasts = createActor(toastMachine).start()
  const machine = branchStatusMachine.provide({
    actors: {
      listBranches: fromPromise(() => {
        listCalls.push(Date.now())
        return answer(script.lists.length > 1 ? script.lists.shift()! : script.lists[0])
      }),
      fetchBranchDetail: fromPromise(({ input }: { input: { id: string } }) => {
        detailCalls.push(input.id)
        return answer(script.detail ?? DETAIL)
      }),
      fetchMergePlan: fromPromise(() => answer(script.mergePlan ?? MERGE_PLAN)),
      mergeBranch: fromPromise(({ input }: { input: { id: string } }) => {
        calls.push(`merge ${input.id}`)
        return answer(script.merge ?? { workflow_run_id: 'w', message: 'ok' as const, applied: MERGE_PLAN.migrations })
      }),
      resetBranch: fromPromise(async ({ input }: { input: { id: string } }): Promise<void> => {
        calls.push(`reset ${input.id}`)
        await answer(script.reset ?? undefined)
      }),
      deleteBranch: fromPromise(async ({ input }: { input: { id: string } }): Promise<void> => {
        calls.push(`delete ${input.id}`)
        await answer(script.remove ?? undefined)
      }),
    },
  })
  const actor = createActor(machine, { input: { project: BRANCHING_PROJECT, toasts } }).start()
  return {
    actor,
    listCalls,
    detailCalls,
    calls,
    view: () => selectBranchesView(actor.getSnapshot()),
    toast: () => selectToast(toasts.getSnapshot()),
    settle: () => vi.advanceTimersByTimeAsync(0),
  }
}

const loaded = (view: ReturnType<typeof selectBranchesView>) => {
  if (view.phase !== 'loaded') throw new Error(`expected loaded, got ${view.phase}`)
  return view
}

beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => vi.useRealTimers())

describe('branch status: the list', () => {
  it('settled branches are read once and never polled', async () => {
    const m = start({ lists: [[PASSED, FAILED]] })
    await m.settle()
    expect(loaded(m.view())).toMatchObject({ branches: [PASSED, FAILED], watching: false })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(m.listCalls).toEqual([0])
  })

  it('a branch being built is polled every 4 s until none is, then polling stops', async () => {
    const done = { ...BUILDING, status: 'MIGRATIONS_PASSED' as const, preview_project_status: 'ACTIVE_HEALTHY' as const, updated_at: 'later' }
    const m = start({ lists: [[PASSED, BUILDING], [PASSED, BUILDING], [PASSED, done], [PASSED, done]] })
    await m.settle()
    expect(loaded(m.view()).watching).toBe(true)
    await vi.advanceTimersByTimeAsync(20_000)
    expect(m.listCalls).toEqual([0, 4000, 8000])
    expect(loaded(m.view())).toMatchObject({ watching: false, branches: [PASSED, done] })
  })

  it('a poll unanswered for 2 s is abandoned; the next goes out on the beat', async () => {
    const m = start({ lists: [[BUILDING], 'never', [BUILDING]] })
    await m.settle()
    await vi.advanceTimersByTimeAsync(8_000)
    expect(m.listCalls).toEqual([0, 4000, 8000])
  })

  it('a failed first read says why; Try again reads again', async () => {
    const m = start({ lists: [new Error('Internal server error'), [PASSED]] })
    await m.settle()
    expect(m.view()).toEqual({ phase: 'failed', error: 'Internal server error' })
    m.actor.send({ type: 'branches.retry' })
    await m.settle()
    expect(loaded(m.view()).branches).toEqual([PASSED])
  })

  it('a first read unanswered for 10 s is reported as timed out', async () => {
    const m = start({ lists: ['never'] })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(m.view()).toEqual({ phase: 'failed', error: 'The request timed out' })
  })

  it('a branch the modal created joins the list and is watched', async () => {
    const m = start({ lists: [[PASSED], [PASSED, BUILDING]] })
    await m.settle()
    m.actor.send({ type: 'branch.created', branch: BUILDING })
    expect(loaded(m.view())).toMatchObject({ watching: true, branches: [PASSED, BUILDING] })
    await vi.advanceTimersByTimeAsync(4_000)
    expect(m.listCalls).toEqual([0, 4000])
  })
})

describe('branch status: a branch', () => {
  async function opened(script: Omit<Script, 'lists'> & { lists?: Script['lists'] } = {}) {
    const m = start({ lists: [[PASSED, FAILED]], ...script })
    await m.settle()
    m.actor.send({ type: 'branch.open', id: FAILED.id })
    await m.settle()
    return m
  }

  it("shows each migration's result and the seed's, and the schema changes", async () => {
    const m = await opened()
    expect(m.detailCalls).toEqual([FAILED.id])
    expect(loaded(m.view()).selected).toEqual({ phase: 'shown', branch: FAILED, detail: DETAIL, action: null, error: null })
  })

  it('a failed read of the results says why; Try again reads them again', async () => {
    const m = await opened({ detail: new Error('Branch not found') })
    expect(loaded(m.view()).selected).toEqual({ phase: 'failed', branch: FAILED, error: 'Branch not found' })
  })

  it('the open branch is read again when the poll sees its status move', async () => {
    const built = { ...BUILDING, status: 'MIGRATIONS_FAILED' as const, updated_at: 'later' }
    const m = start({ lists: [[BUILDING], [built]] })
    await m.settle()
    m.actor.send({ type: 'branch.open', id: BUILDING.id })
    await m.settle()
    await vi.advanceTimersByTimeAsync(4_000)
    expect(m.detailCalls).toEqual([BUILDING.id, BUILDING.id])
  })

  it('merge shows its plan for confirmation, then runs and says how many ran', async () => {
    const m = await opened()
    m.actor.send({ type: 'merge.start' })
    await m.settle()
    expect(loaded(m.view()).selected).toMatchObject({ action: { kind: 'merge', plan: MERGE_PLAN, running: false } })
    m.actor.send({ type: 'action.confirm' })
    await m.settle()
    expect(m.calls).toEqual([`merge ${FAILED.id}`])
    expect(m.toast()).toMatchObject({ tone: 'success', message: 'Merged 1 migration into the parent' })
    expect(m.detailCalls).toHaveLength(2)
  })

  it('nothing to merge: the confirmation cannot be confirmed', async () => {
    const m = await opened({ mergePlan: EMPTY_MERGE_PLAN })
    m.actor.send({ type: 'merge.start' })
    await m.settle()
    expect(m.actor.getSnapshot().can({ type: 'action.confirm' })).toBe(false)
  })

  it('a failing merge keeps its confirmation with the message', async () => {
    const m = await opened({ merge: new Error('Migration 0001_create_recipes failed on the parent: relation "x" already exists') })
    m.actor.send({ type: 'merge.start' })
    await m.settle()
    m.actor.send({ type: 'action.confirm' })
    await m.settle()
    expect(loaded(m.view()).selected).toMatchObject({ action: { kind: 'merge', running: false }, error: 'Migration 0001_create_recipes failed on the parent: relation "x" already exists' })
  })

  it('reset after confirmation: the branch is read again and the list watches it', async () => {
    const m = await opened({ lists: [[PASSED, FAILED], [PASSED, { ...FAILED, status: 'RUNNING_MIGRATIONS' }]] })
    m.actor.send({ type: 'reset.start' })
    m.actor.send({ type: 'action.confirm' })
    await m.settle()
    expect(m.calls).toEqual([`reset ${FAILED.id}`])
    expect(m.toast()).toMatchObject({ message: 'Resetting branch broken: its migrations run again' })
    expect(loaded(m.view()).watching).toBe(true)
  })

  it('delete after confirmation removes the branch; cancel does nothing', async () => {
    const m = await opened()
    m.actor.send({ type: 'delete.start' })
    m.actor.send({ type: 'action.cancel' })
    expect(m.calls).toEqual([])
    m.actor.send({ type: 'delete.start' })
    m.actor.send({ type: 'action.confirm' })
    await m.settle()
    expect(m.calls).toEqual([`delete ${FAILED.id}`])
    expect(loaded(m.view())).toMatchObject({ branches: [PASSED], selected: null })
    expect(m.toast()).toMatchObject({ message: 'Deleted branch broken' })
  })

  it('a delete unanswered for 10 s keeps its confirmation, timed out', async () => {
    const m = await opened({ remove: 'never' })
    m.actor.send({ type: 'delete.start' })
    m.actor.send({ type: 'action.confirm' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(loaded(m.view()).selected).toMatchObject({ action: { kind: 'delete', running: false }, error: 'The request timed out' })
  })
})
