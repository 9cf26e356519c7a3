import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { branchingEnablementMachine, selectBranchingModalView, type RepositoryFacts } from '../../machines/branchingEnablement.machine'
import { selectToast, toastMachine } from '../../machines/toast.machine'
import type { BranchingPlan, BranchResponse } from '../../src/contracts/branching'
import { BRANCHING_PROJECT, CONNECTED, NOT_CONNECTED, PASSED, PLAN } from '../fixtures.branching'

type Answer<T> = T | Error | 'never'

interface Script {
  repository?: Answer<RepositoryFacts>
  version?: Answer<string>
  plan?: Answer<string>
  pitr?: Answer<boolean>
  check?: (name: string) => Answer<void>
  dryRun?: Answer<BranchingPlan>
  create?: Answer<BranchResponse>
}

const httpError = (message: string, status: number) => Object.assign(new Error(message), { status })

function answer<T>(value: Answer<T>): Promise<T> {
  if (value === 'never') return new Promise<T>(() => {})
  return value instanceof Error ? Promise.reject(value) : Promise.resolve(value)
}

function start(script: Script = {}) {
  const checks: string[] = []
  const creates: Array<{ ref: string; gitBranch: string; region: string }> = []
  const told: BranchResponse[] = []
  const toasts = createActor(toastMachine).start()
  const machine = branchingEnablementMachine.provide({
    // Standalone, there is no page to tell: record what it would be told.
    actions: { tellBranchCreated: (_, params) => told.push(params.branch) },
    actors: {
      fetchRepository: fromPromise(() => answer(script.repository ?? CONNECTED)),
      fetchPostgresVersion: fromPromise(() => answer(script.version ?? '15.6')),
      fetchSubscription: fromPromise(() => answer(script.plan ?? 'pro')),
      fetchAddons: fromPromise(() => answer(script.pitr ?? false)),
      checkBranch: fromPromise(({ input }: { input: { connectionId: number; name: string } }) => {
        checks.push(input.name)
        return answer(script.check ? script.check(input.name) : input.name === 'main' ? undefined : httpError('Branch not found', 404))
      }),
      fetchDryRun: fromPromise(() => answer(script.dryRun ?? PLAN)),
      createBranch: fromPromise(({ input }: { input: { ref: string; gitBranch: string; region: string } }) => {
        creates.push(input)
        return answer(script.create ?? PASSED)
      }),
    },
  })
  const actor = createActor(machine, { input: { project: BRANCHING_PROJECT, toasts } }).start()
  const settle = () => vi.advanceTimersByTimeAsync(0)
  const type = async (name: string) => {
    actor.send({ type: 'branch.change', name })
    await settle()
  }
  return {
    actor,
    checks,
    creates,
    told,
    settle,
    type,
    view: () => selectBranchingModalView(actor.getSnapshot()),
    canEnable: () => actor.getSnapshot().can({ type: 'branching.enable' }),
    toast: () => selectToast(toasts.getSnapshot()),
    async open() {
      actor.send({ type: 'modal.open' })
      await settle()
    },
  }
}

beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => vi.useRealTimers())

describe('branching enablement: the Enable rule', () => {
  it('Pro plan, Postgres 15.6, a connected repository and a branch the check found: Enable', async () => {
    const m = start()
    await m.open()
    expect(m.view().repository).toEqual({ phase: 'connected', name: 'demo-pro/recipes' })
    await m.type('main')
    expect(m.canEnable()).toBe(false) // not yet left: nothing checked
    m.actor.send({ type: 'branch.blur' })
    await m.settle()
    expect(m.checks).toEqual(['main'])
    expect(m.view().branch).toMatchObject({ valid: true, error: null })
    expect(m.canEnable()).toBe(true)
  })

  it.each([
    ['the free plan', { plan: 'free' }],
    ['Postgres 14.1', { version: '14.1' }],
    ['a Postgres version that failed to load', { version: new Error('boom') }],
    ['repositories that failed to load', { repository: new Error('boom') }],
    ['a plan that failed to load', { plan: new Error('boom') }],
    ['a version still loading', { version: 'never' as const }],
  ])('%s: no Enable, even with a found branch', async (_, script: Script) => {
    const m = start(script)
    await m.open()
    await m.type('main')
    m.actor.send({ type: 'branch.blur' })
    await m.settle()
    expect(m.canEnable()).toBe(false)
  })

  it('notices: free plan with the upgrade link, Postgres below 15, PITR off, the preview cost is always said', async () => {
    const m = start({ plan: 'free', version: '14.1', pitr: false })
    await m.open()
    expect(m.view().notices).toEqual({
      freePlan: { upgradeHref: '/org/demo-pro/billing?panel=subscriptionPlan' },
      postgresVersion: true,
      pitr: { href: `/project/${BRANCHING_PROJECT.ref}/settings/addons?panel=pitr` },
      repositoriesFailed: false,
      versionFailed: false,
    })
  })

  it('PITR on hides its notice; an add-ons read that fails leaves PITR unknown and the notice shown', async () => {
    const on = start({ pitr: true })
    await on.open()
    expect(on.view().notices.pitr).toBeNull()
    const failed = start({ pitr: new Error('Not found') })
    await failed.open()
    expect(failed.view().notices.pitr).not.toBeNull()
  })

  it("failed reads say 'Failed to retrieve repositories' and 'Failed to retrieve Postgres version'", async () => {
    const m = start({ repository: new Error('x'), version: new Error('y') })
    await m.open()
    expect(m.view().notices).toMatchObject({ repositoriesFailed: true, versionFailed: true })
    expect(m.view().branch.editable).toBe(false)
  })

  it('a read unanswered for 10 s is given up as failed', async () => {
    const m = start({ repository: 'never', version: 'never' })
    await m.open()
    expect(m.view().repository.phase).toBe('loading')
    await vi.advanceTimersByTimeAsync(10_000)
    expect(m.view().notices).toMatchObject({ repositoriesFailed: true, versionFailed: true })
  })

  it('without a connection the branch cannot be typed and the integrations page is offered', async () => {
    const m = start({ repository: NOT_CONNECTED })
    await m.open()
    expect(m.view().repository).toEqual({ phase: 'none', integrationsHref: '/org/demo-pro/integrations' })
    await m.type('main')
    m.actor.send({ type: 'branch.blur' })
    await m.settle()
    expect(m.view().branch).toMatchObject({ value: '', editable: false })
    expect(m.checks).toEqual([])
  })
})

describe('branching enablement: the git branch', () => {
  it("validated on blur (longer than 1 character), then again on every change; the valid flag resets on each change", async () => {
    const m = start()
    await m.open()
    await m.type('m')
    expect(m.view().branch.error).toBeNull() // typing before the first blur says nothing
    m.actor.send({ type: 'branch.blur' })
    await m.settle()
    expect(m.view().branch.error).toBe('Please enter a branch name from demo-pro/recipes')
    expect(m.checks).toEqual([])
    await m.type('mai')
    expect(m.view().branch.error).toBe('Unable to find branch from demo-pro/recipes')
    await m.type('main')
    expect(m.view().branch.valid).toBe(true)
    expect(m.view().dryRun).toEqual({ phase: 'loaded', plan: PLAN })
    m.actor.send({ type: 'branch.change', name: 'main2' })
    expect(m.view().branch.valid).toBe(false)
    expect(m.view().dryRun).toBeNull()
    expect(m.canEnable()).toBe(false)
    await m.settle()
    expect(m.checks).toEqual(['mai', 'main', 'main2'])
  })

  it("a failing check says 'Failed to check Github branch: {message}'; a time-out too", async () => {
    const m = start({ check: (name) => (name === 'slow' ? 'never' : httpError('Internal server error', 500)) })
    await m.open()
    await m.type('main')
    m.actor.send({ type: 'branch.blur' })
    await m.settle()
    expect(m.view().branch.error).toBe('Failed to check Github branch: Internal server error')
    await m.type('slow')
    expect(m.view().branch.checking).toBe(true)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(m.view().branch.error).toBe('Failed to check Github branch: The request timed out')
  })

  it('a dry run that fails says why and keeps Enable to the rule', async () => {
    const m = start({ dryRun: new Error('Malformed response from /projects/x/branching/plan') })
    await m.open()
    await m.type('main')
    m.actor.send({ type: 'branch.blur' })
    await m.settle()
    expect(m.view().dryRun).toEqual({ phase: 'failed', error: 'Malformed response from /projects/x/branching/plan' })
    expect(m.canEnable()).toBe(true)
  })

  it('opening again resets the form and the valid flag and reads everything again', async () => {
    const m = start()
    await m.open()
    await m.type('main')
    m.actor.send({ type: 'branch.blur' })
    await m.settle()
    m.actor.send({ type: 'modal.close' })
    await m.open()
    expect(m.view().branch).toMatchObject({ value: '', valid: false, error: null })
    expect(m.canEnable()).toBe(false)
  })
})

describe('branching enablement: creating the branch', () => {
  async function ready(script: Script = {}) {
    const m = start(script)
    await m.open()
    await m.type('main')
    m.actor.send({ type: 'branch.blur' })
    await m.settle()
    return m
  }

  it("creates the branch from the git branch in the project's region, says 'Successfully created new branch' and closes", async () => {
    const m = await ready()
    m.actor.send({ type: 'branching.enable' })
    expect(m.view().creating).toBe(true)
    await m.settle()
    expect(m.creates).toEqual([{ ref: BRANCHING_PROJECT.ref, gitBranch: 'main', region: 'us-east-1' }])
    expect(m.toast()).toMatchObject({ tone: 'success', message: 'Successfully created new branch' })
    expect(m.view().open).toBe(false)
    expect(m.told).toEqual([PASSED])
  })

  it("a failed create says 'Failed to create branch: {message}' and keeps what was typed", async () => {
    const m = await ready({ create: httpError('A branch named main already exists', 409) })
    m.actor.send({ type: 'branching.enable' })
    await m.settle()
    expect(m.toast()).toMatchObject({ tone: 'error', message: 'Failed to create branch: A branch named main already exists' })
    expect(m.view()).toMatchObject({ open: true, creating: false, branch: { value: 'main', valid: true } })
  })

  it('a create unanswered for 10 s is reported as timed out; typing is refused while it runs', async () => {
    const m = await ready({ create: 'never' })
    m.actor.send({ type: 'branching.enable' })
    m.actor.send({ type: 'branch.change', name: 'other' })
    expect(m.view().branch.value).toBe('main')
    expect(m.actor.getSnapshot().can({ type: 'modal.close' })).toBe(false)
    await vi.advanceTimersByTimeAsync(10_000)
    expect(m.toast()).toMatchObject({ tone: 'error', message: 'Failed to create branch: The request timed out' })
    expect(m.view().creating).toBe(false)
  })
})
