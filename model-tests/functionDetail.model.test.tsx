import { fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Router } from 'wouter'
import { memoryLocation } from 'wouter/memory-location'
import { createActor, type SnapshotFrom } from 'xstate'
import { filterLogs, functionDetailMachine, type FunctionDetail as Detail, type LogEntry } from '../machines/functionDetail.machine'
import type { FunctionFile } from '../src/contracts/functionRuntime'
import type { FunctionResponse } from '../src/contracts/functions'
import { FunctionDetail } from '../src/views/project/functions/FunctionDetail'
import { REF } from '../tests/fixtures'
import { HELLO_DETAIL, LOGS } from '../tests/fixtures.functionRuntime'
import { HELLO_WORLD } from '../tests/fixtures.storage'
import { describePath, errorOf, eventFor, keyByIncomingEdge, missingCoverage, modelOf, outputOf, sendEdge, type ModelEvent } from './harness'
import { apiError, deferredActor, usePathClock } from './fakes'

const ev = eventFor(functionDetailMachine)
const contextOf = (snapshot: SnapshotFrom<typeof functionDetailMachine>) => snapshot.context
const SLUG = HELLO_WORLD.slug
const EDITED = "import { word } from './word.ts'\nDeno.serve(() => new Response(`${word}!`))\n"
const VERSION_4: FunctionResponse = { ...HELLO_WORLD, version: 4 }
const JWT_OFF: FunctionResponse = { ...HELLO_WORLD, verify_jwt: false }

/** The page as it first settles: nothing changed, nothing failed, the entrypoint shown, no filter. */
function untouched(snapshot: SnapshotFrom<typeof functionDetailMachine>) {
  const c = contextOf(snapshot)
  return (
    snapshot.matches({ ready: { settings: 'idle', code: 'viewing' } }) &&
    c.fn?.verify_jwt === true &&
    c.files?.version === 3 &&
    c.selected === 'index.ts' &&
    c.filter.level === 'all' &&
    c.filter.text === '' &&
    c.settingsError === null &&
    c.deleteError === null &&
    c.deployError === null
  )
}

const model = modelOf(functionDetailMachine, {
  input: { ref: REF, slug: SLUG },
  events: (snapshot) => {
    const c = contextOf(snapshot)
    if (snapshot.matches('loading')) {
      return [
        { type: 'xstate.done.actor.loadFunction', output: HELLO_DETAIL },
        { type: 'xstate.error.actor.loadFunction', error: apiError("No edge function 'hello-world' in this project", 404) },
        { type: 'xstate.after.requestTimeout.functionDetail.loading' },
      ]
    }
    if (snapshot.matches('failed')) return [{ type: 'function.retry' }]
    const events: Array<ModelEvent<typeof functionDetailMachine>> = []
    if (snapshot.matches({ ready: { logs: { live: 'requesting' } } }) && untouched(snapshot) && c.logs.length === 0 && c.logsError === null) {
      events.push(
        { type: 'xstate.done.actor.fetchLogs', output: LOGS },
        { type: 'xstate.error.actor.fetchLogs', error: apiError('Internal server error', 500) },
        { type: 'xstate.after.logRequestTimeout.functionDetail.ready.logs.live.requesting' },
      )
    }
    if (snapshot.matches({ ready: { logs: { live: 'settled' } } }) && untouched(snapshot) && c.logs.length > 0 && c.logsError === null) {
      events.push(
        { type: 'xstate.after.logPollInterval.functionDetail.ready.logs.live' },
        ev({ type: 'logs.refresh' }),
        ev({ type: 'logs.pause' }),
        ev({ type: 'logs.filter', level: 'error' }),
        ev({ type: 'logs.filter', text: 'GREETING' }),
        ev({ type: 'verifyJwt.set', value: false }),
        ev({ type: 'function.delete' }),
        ev({ type: 'code.edit' }),
        ev({ type: 'code.select', name: 'word.ts' }),
      )
    }
    if (snapshot.matches({ ready: { logs: 'paused' } }) && untouched(snapshot) && c.logs.length > 0 && c.logsError === null) {
      events.push(ev({ type: 'logs.resume' }))
    }
    if (snapshot.matches({ ready: { settings: 'saving' } })) {
      events.push(
        { type: 'xstate.done.actor.setVerifyJwt', output: JWT_OFF },
        { type: 'xstate.error.actor.setVerifyJwt', error: apiError("You need the project_edge_function:all permission to change this project's edge functions", 403) },
        { type: 'xstate.after.requestTimeout.functionDetail.ready.settings.saving' },
      )
    }
    if (snapshot.matches({ ready: { settings: 'confirmingDelete' } }) && c.deleteError === null) events.push(ev({ type: 'delete.confirm' }), ev({ type: 'delete.cancel' }))
    if (snapshot.matches({ ready: { settings: 'deleting' } })) {
      events.push(
        { type: 'xstate.done.actor.deleteFunction' },
        { type: 'xstate.error.actor.deleteFunction', error: apiError('The project is not active', 409) },
        { type: 'xstate.after.requestTimeout.functionDetail.ready.settings.deleting' },
      )
    }
    if (snapshot.matches({ ready: { code: 'editing' } }) && c.deployError === null) {
      const changed = c.draft[0]?.content === EDITED
      events.push(...(changed ? [ev({ type: 'code.deploy' })] : [ev({ type: 'code.change', name: 'index.ts', content: EDITED }), ev({ type: 'code.cancel' })]))
    }
    if (snapshot.matches({ ready: { code: 'deploying' } })) {
      events.push(
        { type: 'xstate.done.actor.deployFunction', output: VERSION_4 },
        { type: 'xstate.error.actor.deployFunction', error: apiError('entrypoint_path must be one of the files sent, and no file may lie outside the function folder', 400) },
        { type: 'xstate.after.deployTimeout.functionDetail.ready.code.deploying' },
      )
    }
    return events
  },
  serializeState: (snapshot, event) => {
    const { fn, files, draft, logs, ...rest } = contextOf(snapshot)
    const summary = { ...rest, jwt: fn?.verify_jwt, version: files?.version, draft: draft.map((f) => f.content.length), logs: logs.length }
    return keyByIncomingEdge(snapshot, event, JSON.stringify(summary))
  },
})
const paths = model.getShortestPaths()
const runPath = usePathClock()

const region = (name: string) => within(screen.getByRole('region', { name }))

describe('function page model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(functionDetailMachine, paths)).toEqual({ states: [], transitions: [] })
  })

  for (const path of paths) {
    it(describePath(path), async () => {
      const load = deferredActor<Detail, { ref: string; slug: string }>('loadFunction')
      const setJwt = deferredActor<FunctionResponse, { ref: string; slug: string; value: boolean }>('setVerifyJwt')
      const remove = deferredActor<void, { ref: string; slug: string }>('deleteFunction')
      const deploy = deferredActor<FunctionResponse, { ref: string; slug: string; entrypoint_path: string; files: FunctionFile[] }>('deployFunction')
      const logs = deferredActor<LogEntry[], { ref: string; slug: string }>('fetchLogs')
      const actor = runPath(
        createActor(functionDetailMachine.provide({ actors: { loadFunction: load.logic, setVerifyJwt: setJwt.logic, deleteFunction: remove.logic, deployFunction: deploy.logic, fetchLogs: logs.logic } }), {
          input: { ref: REF, slug: SLUG },
        }).start(),
      )
      // Each tab of the page at once, so every region's screen can be checked in every state.
      const location = memoryLocation({ path: `/project/${REF}/functions/${SLUG}`, record: true })
      render(
        <Router hook={location.hook}>
          <section aria-label="Overview tab"><FunctionDetail actor={actor} tab="overview" /></section>
          <section aria-label="Code tab"><FunctionDetail actor={actor} tab="code" /></section>
          <section aria-label="Logs tab"><FunctionDetail actor={actor} tab="logs" /></section>
        </Router>,
      )

      await path.test({
        states: {
          loading: () => {
            expect(region('Overview tab').getByRole('status')).toHaveTextContent('Loading function…')
            expect(region('Overview tab').getByRole('link', { name: 'Code' })).toHaveAttribute('href', `/project/${REF}/functions/${SLUG}/code`)
            expect(load.pending.at(-1)?.input).toEqual({ ref: REF, slug: SLUG })
          },
          failed: (snapshot) => {
            const alert = region('Overview tab').getByRole('alert')
            expect(alert).toHaveTextContent('Failed to load the function')
            expect(alert).toHaveTextContent(contextOf(snapshot).loadError!)
          },
          ready: (snapshot) => {
            const { fn } = contextOf(snapshot)
            expect(region('Overview tab').getByRole('heading', { level: 1, name: fn!.name })).toBeInTheDocument()
            expect(region('Overview tab').getByText(`${HELLO_DETAIL.projectUrl}/functions/v1/${SLUG}`)).toBeInTheDocument()
            expect(region('Overview tab').getByText(String(fn!.version))).toBeInTheDocument()
            expect(region('Code tab').getByRole('link', { name: 'Code' })).toHaveAttribute('aria-current', 'page')
          },
          'ready.settings.idle': (snapshot) => {
            const { fn, settingsError } = contextOf(snapshot)
            expect(region('Overview tab').getByRole('switch', { name: 'Enforce JWT verification' })).toHaveAttribute('aria-checked', String(fn!.verify_jwt))
            expect(region('Overview tab').getByRole('button', { name: `Delete ${SLUG}` })).toBeEnabled()
            expect(region('Overview tab').queryByRole('alertdialog')).toBeNull()
            if (settingsError) expect(region('Overview tab').getByRole('alert')).toHaveTextContent(settingsError)
            else expect(region('Overview tab').queryByRole('alert')).toBeNull()
          },
          'ready.settings.saving': () => {
            expect(region('Overview tab').getByText('Saving…')).toBeInTheDocument()
            expect(setJwt.pending.at(-1)?.input).toEqual({ ref: REF, slug: SLUG, value: false })
          },
          'ready.settings.confirmingDelete': (snapshot) => {
            const dialog = within(region('Overview tab').getByRole('alertdialog', { name: `Delete the function ${SLUG}?` }))
            expect(dialog.getByRole('button', { name: 'Delete function' })).toBeEnabled()
            expect(region('Overview tab').getByRole('switch', { name: 'Enforce JWT verification' })).toBeDisabled()
            const { deleteError } = contextOf(snapshot)
            if (deleteError) expect(dialog.getByRole('alert')).toHaveTextContent(deleteError)
            else expect(dialog.queryByRole('alert')).toBeNull()
          },
          'ready.settings.deleting': () => {
            expect(within(region('Overview tab').getByRole('alertdialog')).getByRole('button', { name: 'Deleting…' })).toBeDisabled()
            expect(remove.pending.at(-1)?.input).toEqual({ ref: REF, slug: SLUG })
          },
          deleted: () => {
            expect(location.history.at(-1)).toBe(`/project/${REF}/functions`)
          },
          'ready.code.viewing': (snapshot) => {
            const { files, selected } = contextOf(snapshot)
            const code = region('Code tab')
            expect(code.getByRole('heading', { name: `Files of version ${files!.version}` })).toBeInTheDocument()
            const editor = code.getByLabelText(`Code of ${selected}`)
            expect(editor).toHaveValue(files!.files.find((f) => f.name === selected)!.content)
            expect(editor).toHaveAttribute('readonly')
            expect(code.getByRole('button', { name: selected === 'index.ts' ? 'index.ts (entrypoint)' : selected! })).toHaveAttribute('aria-pressed', 'true')
            expect(code.getByRole('button', { name: 'Edit' })).toBeEnabled()
          },
          'ready.code.editing': (snapshot) => {
            const { draft, deployError } = contextOf(snapshot)
            const code = region('Code tab')
            const editor = code.getByLabelText('Code of index.ts')
            expect(editor).toHaveValue(draft[0].content)
            expect(editor).not.toHaveAttribute('readonly')
            expect(code.getByRole('button', { name: 'Deploy new version' })).toBeEnabled()
            if (deployError) expect(code.getByRole('alert')).toHaveTextContent(deployError)
            else expect(code.queryByRole('alert')).toBeNull()
          },
          'ready.code.deploying': () => {
            expect(region('Code tab').getByRole('button', { name: 'Deploying…' })).toBeDisabled()
            expect(deploy.pending.at(-1)?.input).toEqual({ ref: REF, slug: SLUG, entrypoint_path: 'index.ts', files: [{ name: 'index.ts', content: EDITED }, HELLO_DETAIL.files.files[1]] })
          },
          'ready.logs.live.requesting': () => {
            expect(region('Logs tab').getByText('Refreshing…')).toBeInTheDocument()
            expect(logs.pending.at(-1)?.input).toEqual({ ref: REF, slug: SLUG })
          },
          'ready.logs.paused': (snapshot) => {
            const { logs: entries, filter } = contextOf(snapshot)
            const panel = region('Logs tab')
            expect(panel.getByText(`${filterLogs(entries, filter).length} of ${entries.length} entries · paused: resume to refresh`)).toBeInTheDocument()
            expect(panel.getByRole('button', { name: 'Refresh' })).toBeDisabled()
            expect(panel.getByRole('button', { name: 'Resume' })).toBeEnabled()
            expect(panel.queryByRole('button', { name: 'Pause' })).toBeNull()
            expect(logs.pending).toHaveLength(0)
          },
          'ready.logs.live.settled': (snapshot) => {
            const { logs: entries, filter, logsError } = contextOf(snapshot)
            const shown = filterLogs(entries, filter)
            const panel = region('Logs tab')
            expect(panel.getByText(`${shown.length} of ${entries.length} entries · refreshed every 3 seconds`)).toBeInTheDocument()
            if (shown.length > 0) {
              const rows = within(panel.getByRole('table', { name: 'Log entries' })).getAllByRole('row').slice(1)
              expect(rows.map((row) => row.lastElementChild?.textContent)).toEqual(shown.map((e) => e.event_message))
            } else expect(panel.getByText('No log entries yet: invoke the function to see its calls here.')).toBeInTheDocument()
            const invocations = entries.filter((e) => e.kind === 'invocation').length
            expect(region('Overview tab').getByText(`${invocations} (of the last ${entries.length} log entries)`)).toBeInTheDocument()
            if (logsError) expect(panel.getByRole('alert')).toHaveTextContent(`The logs could not be refreshed: ${logsError}`)
            else expect(panel.queryByRole('alert')).toBeNull()
          },
        },
        events: {
          'xstate.done.actor.loadFunction': (step) => load.resolve(outputOf<Detail>(step)),
          'xstate.error.actor.loadFunction': (step) => load.reject(errorOf(step)),
          'xstate.after.requestTimeout.functionDetail.loading': () => sendEdge(actor, { type: 'xstate.after.requestTimeout.functionDetail.loading' }),
          'function.retry': () => fireEvent.click(region('Overview tab').getByRole('button', { name: 'Try again' })),
          'xstate.done.actor.fetchLogs': (step) => logs.resolve(outputOf<LogEntry[]>(step)),
          'xstate.error.actor.fetchLogs': (step) => logs.reject(errorOf(step)),
          'xstate.after.logRequestTimeout.functionDetail.ready.logs.live.requesting': () => {
            sendEdge(actor, { type: 'xstate.after.logRequestTimeout.functionDetail.ready.logs.live.requesting' })
          },
          'xstate.after.logPollInterval.functionDetail.ready.logs.live': () => sendEdge(actor, { type: 'xstate.after.logPollInterval.functionDetail.ready.logs.live' }),
          'logs.refresh': () => fireEvent.click(region('Logs tab').getByRole('button', { name: 'Refresh' })),
          'logs.pause': () => fireEvent.click(region('Logs tab').getByRole('button', { name: 'Pause' })),
          'logs.resume': () => fireEvent.click(region('Logs tab').getByRole('button', { name: 'Resume' })),
          'logs.filter': ({ event }) => {
            if (event.level !== undefined) fireEvent.change(region('Logs tab').getByLabelText('Level'), { target: { value: event.level } })
            if (event.text !== undefined) fireEvent.change(region('Logs tab').getByLabelText('Search messages'), { target: { value: event.text } })
          },
          'verifyJwt.set': () => fireEvent.click(region('Overview tab').getByRole('switch', { name: 'Enforce JWT verification' })),
          'xstate.done.actor.setVerifyJwt': (step) => setJwt.resolve(outputOf<FunctionResponse>(step)),
          'xstate.error.actor.setVerifyJwt': (step) => setJwt.reject(errorOf(step)),
          'xstate.after.requestTimeout.functionDetail.ready.settings.saving': () => sendEdge(actor, { type: 'xstate.after.requestTimeout.functionDetail.ready.settings.saving' }),
          'function.delete': () => fireEvent.click(region('Overview tab').getByRole('button', { name: `Delete ${SLUG}` })),
          'delete.confirm': () => fireEvent.click(region('Overview tab').getByRole('button', { name: 'Delete function' })),
          'delete.cancel': () => fireEvent.click(within(region('Overview tab').getByRole('alertdialog')).getByRole('button', { name: 'Cancel' })),
          'xstate.done.actor.deleteFunction': () => remove.resolve(undefined),
          'xstate.error.actor.deleteFunction': (step) => remove.reject(errorOf(step)),
          'xstate.after.requestTimeout.functionDetail.ready.settings.deleting': () => sendEdge(actor, { type: 'xstate.after.requestTimeout.functionDetail.ready.settings.deleting' }),
          'code.edit': () => fireEvent.click(region('Code tab').getByRole('button', { name: 'Edit' })),
          'code.select': ({ event }) => fireEvent.click(region('Code tab').getByRole('button', { name: event.name })),
          'code.change': ({ event }) => fireEvent.change(region('Code tab').getByLabelText(`Code of ${event.name}`), { target: { value: event.content } }),
          'code.cancel': () => fireEvent.click(region('Code tab').getByRole('button', { name: 'Cancel' })),
          'code.deploy': () => fireEvent.click(region('Code tab').getByRole('button', { name: 'Deploy new version' })),
          'xstate.done.actor.deployFunction': (step) => deploy.resolve(outputOf<FunctionResponse>(step)),
          'xstate.error.actor.deployFunction': (step) => deploy.reject(errorOf(step)),
          'xstate.after.deployTimeout.functionDetail.ready.code.deploying': () => sendEdge(actor, { type: 'xstate.after.deployTimeout.functionDetail.ready.code.deploying' }),
        },
      })
    })
  }
})
