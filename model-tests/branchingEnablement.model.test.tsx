import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { createActor, type AnyMachineSnapshot, type EventObject, type SnapshotFrom } from 'xstate'
import {
  BRANCH_CREATED,
  branchingEnablementMachine,
  FREE_PLAN_NOTICE,
  PITR_NOTICE,
  POSTGRES_VERSION_FAILED,
  POSTGRES_VERSION_NOTICE,
  PREVIEW_BRANCH_COST,
  REPOSITORIES_FAILED,
  type RepositoryFacts,
} from '../machines/branchingEnablement.machine'
import { selectToast, toastMachine } from '../machines/toast.machine'
import type { BranchingPlan, BranchResponse } from '../src/contracts/branching'
import { BranchingModal } from '../src/views/project/branches/BranchingModal'
import { BRANCHING_PROJECT, CONNECTED, NOT_CONNECTED, PASSED, PLAN, REPO_NAME } from '../tests/fixtures.branching'
import { type InternalEvent, type ModelEvent, coveringWalks, describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../machines/projectDatabaseTimeout'

/** The model's events, typed by the machine. */
const ev = eventFor(branchingEnablementMachine)

const REQUEST_TIMEOUT = 10_000
const M = 'branchingEnablement'

interface Context {
  connection: RepositoryFacts['connection']
  postgresVersion: string | null
  planId: string | null
  pitrEnabled: boolean | null
  gitBranch: string
  checkError: string | null
  dryRunError: string | null
}
const contextOf = (snapshot: SnapshotFrom<typeof branchingEnablementMachine>) => snapshot.context
const inOpen = (snapshot: AnyMachineSnapshot, region: string, state: string) => snapshot.matches({ open: { [region]: state } })

/** The happy facts: connected, Postgres 15.6, Pro, PITR off. Form events are explored on them only. */
const happy = (c: Context) => c.connection !== null && c.postgresVersion === '15.6' && c.planId === 'pro' && c.pitrEnabled === false

const done = (id: string, output: unknown): InternalEvent => ({ type: `xstate.done.actor.${id}`, output })
const failed = (id: string, error: unknown): InternalEvent => ({ type: `xstate.error.actor.${id}`, error })
const timeout = (path: string): InternalEvent => ({ type: `xstate.after.requestTimeout.${M}.${path}` })
const dryRunTimeout: InternalEvent = { type: `xstate.after.projectDatabaseTimeout.${M}.open.branch.found.planning` }

// The graph is walked without a page to tell nor a toast region: those two actions are inert here (the paths' actor
// has them; the test checks what they did).
const model = modelOf(branchingEnablementMachine.provide({ actions: { tellBranchCreated: () => {}, showToast: () => {} } }), {
  input: { project: BRANCHING_PROJECT, toasts: createActor(toastMachine) },
  events: (snapshot) => {
    const c = contextOf(snapshot)
    if (snapshot.matches('closed')) return c.planId === null && c.connection === null ? [ev({ type: 'modal.open' })] : []
    // The four reads start together. Any of them may answer happily first; a read's other answers are explored when
    // every settled read was happy and it is the first still loading (in this order), and its time-out only when it is
    // the last one still loading (all four would time out at once otherwise).
    const regions: Array<{ region: string; id: string; happy: unknown; others: Array<ModelEvent<typeof branchingEnablementMachine>>; isHappy: boolean }> = [
      { region: 'repository', id: 'fetchRepository', happy: CONNECTED, others: [done('fetchRepository', NOT_CONNECTED), failed('fetchRepository', apiError('Internal server error', 500))], isHappy: c.connection !== null },
      { region: 'version', id: 'fetchPostgresVersion', happy: '15.6', others: [done('fetchPostgresVersion', '14.1'), failed('fetchPostgresVersion', apiError('Internal server error', 500))], isHappy: c.postgresVersion === '15.6' },
      { region: 'subscription', id: 'fetchSubscription', happy: 'pro', others: [done('fetchSubscription', 'free'), failed('fetchSubscription', apiError('Forbidden', 403))], isHappy: c.planId === 'pro' },
      { region: 'pitr', id: 'fetchAddons', happy: false, others: [done('fetchAddons', true), failed('fetchAddons', apiError('Not found', 404))], isHappy: c.pitrEnabled === false },
    ]
    const loading = regions.filter((r) => inOpen(snapshot, r.region, 'loading'))
    if (loading.length > 0) {
      const settledHappy = regions.every((r) => inOpen(snapshot, r.region, 'loading') || (r.isHappy && (r.region !== 'repository' || inOpen(snapshot, 'repository', 'loaded'))))
      if (!settledHappy) return [done(loading[0].id, loading[0].happy)]
      return [
        ...loading.map((r) => done(r.id, r.happy)),
        ...loading[0].others,
        ...(loading.length === 1 ? [timeout(`open.${loading[0].region}.loading`)] : []),
      ]
    }
    if (!happy(c)) return []
    if (inOpen(snapshot, 'submission', 'creating'))
      return [
        done('createBranch', PASSED),
        failed('createBranch', apiError('A branch named main already exists', 409)),
        // With the dry run still out, both would time out together.
        ...(snapshot.matches({ open: { branch: { found: 'planning' } } }) ? [] : [timeout('open.submission.creating')]),
      ]
    const events: Array<ModelEvent<typeof branchingEnablementMachine>> = []
    if (inOpen(snapshot, 'branch', 'pristine')) {
      if (c.gitBranch === '') events.push({ type: 'branch.change', name: 'main' })
      events.push({ type: 'branch.blur' })
    } else if (snapshot.matches({ open: { branch: 'checking' } })) {
      events.push(done('checkBranch', null), failed('checkBranch', apiError('Branch not found', 404)), failed('checkBranch', apiError('Internal server error', 500)), timeout('open.branch.checking'))
    } else if (snapshot.matches({ open: { branch: { found: 'planning' } } })) {
      events.push(done('fetchDryRun', PLAN), failed('fetchDryRun', apiError('Internal server error', 500)), dryRunTimeout)
    } else if (c.gitBranch === '') {
      events.push({ type: 'branch.change', name: 'main' })
    }
    events.push({ type: 'branching.enable' }, { type: 'modal.close' })
    return events
  },
  serializeState: (snapshot, event) => {
    const { connection, postgresVersion, planId, pitrEnabled, gitBranch, checkError, dryRunError } = contextOf(snapshot)
    return keyByIncomingEdge(
      snapshot,
      event,
      JSON.stringify({ connection: connection !== null, postgresVersion, planId, pitrEnabled, gitBranch, checkError, dryRunError }),
    )
  },
})
const paths = coveringWalks(model)
const runPath = usePathClock()

const dialog = () => screen.getByRole('dialog', { name: 'Enable database branching' })
const notes = () => within(dialog()).queryAllByRole('note').map((n) => n.textContent ?? '')
const alerts = () => within(dialog()).queryAllByRole('alert').map((n) => n.textContent ?? '')

describe('branching enablement model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(branchingEnablementMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const repository = deferredActor<RepositoryFacts, { project: typeof BRANCHING_PROJECT }>('fetchRepository')
      const version = deferredActor<string, { ref: string }>('fetchPostgresVersion')
      const subscription = deferredActor<string, { slug: string }>('fetchSubscription')
      const addons = deferredActor<boolean, { ref: string }>('fetchAddons')
      const check = deferredActor<void, { connectionId: number; name: string }>('checkBranch')
      const dryRun = deferredActor<BranchingPlan, { ref: string; gitBranch: string }>('fetchDryRun')
      const create = deferredActor<BranchResponse, { ref: string; gitBranch: string; region: string }>('createBranch')
      const told: BranchResponse[] = []
      const toasts = runPath(createActor(toastMachine).start())
      const actor = runPath(
        createActor(
          branchingEnablementMachine.provide({
            actions: { tellBranchCreated: (_, params) => told.push(params.branch) },
            actors: {
              fetchRepository: repository.logic,
              fetchPostgresVersion: version.logic,
              fetchSubscription: subscription.logic,
              fetchAddons: addons.logic,
              checkBranch: check.logic,
              fetchDryRun: dryRun.logic,
              createBranch: create.logic,
            },
          }),
          { input: { project: BRANCHING_PROJECT, toasts } },
        ).start(),
      )
      render(<BranchingModal actor={actor} />)
      const actors: Record<string, ReturnType<typeof deferredActor<any, any>>> = {
        fetchRepository: repository,
        fetchPostgresVersion: version,
        fetchSubscription: subscription,
        fetchAddons: addons,
        checkBranch: check,
        fetchDryRun: dryRun,
        createBranch: create,
      }
      const branchInput = () => within(dialog()).getByLabelText('Git branch')
      const enableButton = () => within(dialog()).getByRole('button', { name: /^(Enable branching|Creating branch…)$/ })

      /** Every open state: the notices follow the facts read so far, the cost is always said, Enable follows the rule. */
      const openShown = (snapshot: AnyMachineSnapshot) => {
        const c = contextOf(snapshot)
        const texts = notes()
        expect(texts).toContain(PREVIEW_BRANCH_COST)
        expect(texts.some((t) => t.startsWith(FREE_PLAN_NOTICE))).toBe(inOpen(snapshot, 'subscription', 'loaded') && c.planId === 'free')
        expect(texts.some((t) => t.startsWith(POSTGRES_VERSION_NOTICE))).toBe(inOpen(snapshot, 'version', 'loaded') && c.postgresVersion === '14.1')
        expect(texts.some((t) => t.startsWith(PITR_NOTICE))).toBe(!inOpen(snapshot, 'pitr', 'loading') && c.pitrEnabled !== true)
        expect(alerts().includes(REPOSITORIES_FAILED)).toBe(inOpen(snapshot, 'repository', 'failed'))
        expect(alerts().includes(POSTGRES_VERSION_FAILED)).toBe(inOpen(snapshot, 'version', 'failed'))
        if (texts.some((t) => t.startsWith(FREE_PLAN_NOTICE)))
          expect(within(dialog()).getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/org/demo-pro/billing?panel=subscriptionPlan')
        if (texts.some((t) => t.startsWith(PITR_NOTICE)))
          expect(within(dialog()).getByRole('link', { name: 'Enable PITR' })).toHaveAttribute('href', `/project/${BRANCHING_PROJECT.ref}/settings/addons?panel=pitr`)
        const canEnable =
          inOpen(snapshot, 'repository', 'loaded') &&
          inOpen(snapshot, 'version', 'loaded') &&
          inOpen(snapshot, 'subscription', 'loaded') &&
          c.planId !== 'free' &&
          c.postgresVersion === '15.6' &&
          snapshot.matches({ open: { branch: 'found' } }) &&
          inOpen(snapshot, 'submission', 'idle')
        expect(enableButton()).toHaveProperty('disabled', !canEnable)
        expect(branchInput()).toHaveValue(c.gitBranch)
      }

      await path.test({
        states: {
          closed: () => {
            expect(screen.queryByRole('dialog')).toBeNull()
          },
          open: (snapshot) => openShown(snapshot),
          'open.repository.loading': () => {
            expect(within(dialog()).getByText('Loading repository…')).toBeInTheDocument()
          },
          'open.repository.loaded': (snapshot) => {
            if (contextOf(snapshot).connection) expect(within(dialog()).getByText(REPO_NAME)).toBeInTheDocument()
            else expect(within(dialog()).getByRole('link', { name: 'Connect a GitHub repository' })).toHaveAttribute('href', '/org/demo-pro/integrations')
            expect(branchInput()).toHaveProperty('disabled', contextOf(snapshot).connection === null)
          },
          'open.repository.failed': () => {
            expect(branchInput()).toBeDisabled()
          },
          'open.subscription.failed': () => expect(alerts().some((t) => t.startsWith("Failed to retrieve the organization's plan"))).toBe(true),
          'open.branch.pristine': () => {
            expect(within(dialog()).queryByText(/^(Please enter|Unable to find|Failed to check)/)).toBeNull()
          },
          'open.branch.tooShort': () => {
            expect(within(dialog()).getByText(`Please enter a branch name from ${REPO_NAME}`)).toBeInTheDocument()
          },
          'open.branch.checking': (snapshot) => {
            expect(within(dialog()).getByText('Checking branch…')).toBeInTheDocument()
            expect(check.pending.map((run) => run.input)).toEqual([{ connectionId: 7, name: contextOf(snapshot).gitBranch }])
          },
          'open.branch.notFound': () => {
            expect(within(dialog()).getByText(`Unable to find branch from ${REPO_NAME}`)).toBeInTheDocument()
          },
          'open.branch.checkFailed': (snapshot) => {
            expect(within(dialog()).getByText(`Failed to check Github branch: ${contextOf(snapshot).checkError}`)).toBeInTheDocument()
          },
          'open.branch.found.planning': () => {
            expect(within(dialog()).getByText(`Branch main found in ${REPO_NAME}`)).toBeInTheDocument()
            expect(within(dialog()).getByText("Reading the branch's migrations…")).toBeInTheDocument()
            expect(dryRun.pending.map((run) => run.input)).toEqual([{ ref: BRANCHING_PROJECT.ref, gitBranch: 'main' }])
          },
          'open.branch.found.planned': () => {
            const plan = within(within(dialog()).getByRole('region', { name: 'What will run' }))
            expect(plan.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
              '0001_create_recipes.sql',
              '0003_add_ratings.sqlnew',
              'Version 0002 is missing between 0001 and 0003',
              'notes.sql is not named <version>_<name>.sql: it is skipped',
            ])
            expect(plan.getByText('Then the seed supabase/seed.sql runs once.')).toBeInTheDocument()
          },
          'open.branch.found.planFailed': (snapshot) => {
            expect(alerts()).toContain(`Failed to read the branch's migrations: ${contextOf(snapshot).dryRunError}`)
          },
          'open.submission.creating': () => {
            expect(enableButton()).toHaveTextContent('Creating branch…')
            expect(within(dialog()).getByRole('button', { name: 'Cancel' })).toBeDisabled()
            expect(create.pending.map((run) => run.input)).toEqual([{ ref: BRANCHING_PROJECT.ref, gitBranch: 'main', region: 'us-east-1' }])
          },
        },
        events: {
          'modal.open': async () => {
            await act(async () => actor.send({ type: 'modal.open' }))
          },
          'modal.close': async () => {
            fireEvent.click(within(dialog()).getByRole('button', { name: 'Cancel' }))
          },
          'branch.change': async (step) => {
            fireEvent.change(branchInput(), { target: { value: step.event.name } })
          },
          'branch.blur': async () => {
            fireEvent.blur(branchInput())
          },
          'branching.enable': async () => {
            fireEvent.click(enableButton())
          },
          ...Object.fromEntries(
            Object.keys(actors).flatMap((id) => [
              [`xstate.done.actor.${id}`, async (step: { event: EventObject }) => actors[id].resolve(outputOf<unknown>(step))],
              [`xstate.error.actor.${id}`, async (step: { event: EventObject }) => actors[id].reject(errorOf(step))],
            ]),
          ),
          ...Object.fromEntries(
            [
              ['open.repository.loading', 'fetchRepository'],
              ['open.version.loading', 'fetchPostgresVersion'],
              ['open.subscription.loading', 'fetchSubscription'],
              ['open.pitr.loading', 'fetchAddons'],
              ['open.branch.checking', 'checkBranch'],
              ['open.branch.found.planning', 'fetchDryRun', PROJECT_DATABASE_TIMEOUT_MS, 'projectDatabaseTimeout'],
              ['open.submission.creating', 'createBranch'],
            ].map(([state, id, wait = REQUEST_TIMEOUT, delay = 'requestTimeout']) => [
              `xstate.after.${delay}.${M}.${state}`,
              async () => {
                // Only this request is still out (the model offers a time-out then only), so only it times out.
                for (const other of Object.values(actors)) if (other !== actors[id] && other.pending.length > 0) throw new Error('another request is pending')
                await act(() => vi.advanceTimersByTimeAsync(wait as number))
                expect(actors[id].pending).toHaveLength(0) // the read given up was abandoned (its signal aborted)
              },
            ]),
          ),
        },
      })
      if (actor.getSnapshot().matches('closed') && told.length > 0) {
        expect(told).toEqual([PASSED])
        expect(selectToast(toasts.getSnapshot())).toMatchObject({ tone: 'success', message: BRANCH_CREATED })
      }
    })
  }
})
