/**
 * The API docs panel's machine as a model: paths of its graph, each driving the real panel view (ApiDocsPanel).
 * The four reads run in parallel; the model answers them one at a time, each while its section is on screen (the
 * person opens Tables & Views, Connect, Storage, Edge Functions), so every state of every read is seen where it
 * shows. Time-outs and the buckets' retry delay are sent as the timer events they are: the four reads' timers run
 * side by side, which a one-event-at-a-time walk cannot advance separately (tests/machines/apiDocs.machine.test.ts
 * pins their timings with fake timers).
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { useSelector } from '@xstate/react'
import { describe, expect, it } from 'vitest'
import { createActor, fromPromise, type EventFrom, type EventObject, type SnapshotFrom } from 'xstate'
import { apiDocsMachine, jwtSecretDocsChildMachine, NO_DOCS_URL, selectApiDocsPlace, type ApiDocsInput, type DocsSection, type DocsUrl } from '../machines/apiDocs.machine'
import { copyButtonMachine } from '../machines/copyButton.machine'
import type { JwtPhase } from '../machines/jwtSecret.machine'
import { FAILED_TEXT, PERMISSION_TEXT, UPDATING_TEXT } from '../machines/keyAccess'
import type { RestSchemaResponse } from '../src/contracts/rest'
import type { FunctionResponse } from '../src/contracts/functions'
import type { JwtSecretUpdateAccepted, JwtSecretUpdateBody, JwtSecretUpdateStatusResponse, ProjectApiInfo } from '../src/contracts/keys'
import type { Bucket } from '../src/contracts/storage'
import { ApiDocsPanel } from '../src/views/project/apiDocs/ApiDocsPanel'
import type { ApiDocsActorRef } from '../src/views/project/apiDocs/useApiDocsActor'
import { REF } from '../tests/fixtures'
import { BUCKETS, EDGE_FUNCTIONS, REST_SCHEMA, TENANT_CONFIG_NOT_FOUND } from '../tests/fixtures.apiDocs'
import { ANON_KEY, makeApiInfo } from '../tests/fixtures.keys'
import { type InternalEvent, type ModelEvent, coveringWalks, describePath, errorOf, eventFor, missingCoverage, modelOf, outputOf, sendEdge } from './harness'
import { deferredActor, usePathClock } from './fakes'

/** The model's events, typed by the machine. */
const ev = eventFor(apiDocsMachine)

type Region = 'schema' | 'settings' | 'buckets' | 'functions'
const REGIONS: Region[] = ['schema', 'settings', 'buckets', 'functions']
const SECTION_OF: Record<Region, DocsSection> = { schema: 'tables-and-views', settings: 'introduction', buckets: 'storage', functions: 'edge-functions' }
const LABEL_OF: Partial<Record<DocsSection, string>> = { 'tables-and-views': 'Tables & Views', introduction: 'Connect', storage: 'Storage', 'edge-functions': 'Edge Functions' }
const FETCH: Record<Region, string> = { schema: 'fetchRestSchema', settings: 'fetchApiKeyInfo', buckets: 'fetchBuckets', functions: 'fetchFunctions' }
const OUTPUT: Record<Region, unknown> = { schema: REST_SCHEMA, settings: makeApiInfo(), buckets: BUCKETS, functions: EDGE_FUNCTIONS }
const FAILED_TITLE: Record<Region, string> = {
  schema: 'Failed to load the REST schema',
  settings: 'Failed to retrieve API keys',
  buckets: 'Failed to retrieve buckets',
  functions: 'Failed to retrieve edge functions',
}
const LOADING_LABEL: Record<Region, string> = { schema: 'Loading tables and views…', settings: 'Loading API keys…', buckets: 'Loading buckets…', functions: 'Loading edge functions…' }

const OWNER: ApiDocsInput = {
  ref: REF,
  mode: 'dialog',
  permissions: ['project_auth:all', 'project_storage:all', 'project_edge_function:all', 'realtime:all', 'service_api_keys:read'],
  features: { auth: true, storage: true, edgeFunctions: true, realtime: true },
  url: NO_DOCS_URL,
}
const READ_ONLY: ApiDocsInput = { ...OWNER, permissions: [] }

interface Ctx {
  jwtStatus: 'unknown' | 'updating' | 'updated' | 'failed'
  customUrl: string | null
  section: DocsSection
  item: string | null
  language: 'js' | 'bash'
  url: DocsUrl | null
  bucketRetries: number
}
type Snap = SnapshotFrom<typeof apiDocsMachine>
type Ev = ModelEvent<typeof apiDocsMachine>
type MachineEvent = EventFrom<typeof apiDocsMachine>
/** A move the person makes (one `snapshot.can()` is asked about). */
const move = (event: MachineEvent) => event
const ctxOf = (snapshot: Snap): Ctx => snapshot.context
const regionState = (snapshot: Snap, region: Region) => (typeof snapshot.value === 'object' ? snapshot.value.open[region] : undefined)
const placeUrl = (c: Ctx): DocsUrl => ({ docs: c.section, docsItem: c.item, docsLang: c.language === 'bash' ? 'bash' : null })
const sameUrl = (a: DocsUrl | null, b: DocsUrl) => a !== null && a.docs === b.docs && a.docsItem === b.docsItem && a.docsLang === b.docsLang
const urlStatus = (c: Ctx) => (c.url === null ? 'none' : sameUrl(c.url, placeUrl(c)) ? 'same' : c.url.docs === null ? 'noDocs' : 'other')

/** Valid by the contract, but not a document the docs can be read from (a `required` that is not a list). */
const UNREADABLE_SCHEMA = { ...REST_SCHEMA, paths: { '/rpc/odd': { post: { parameters: [{ in: 'body', schema: { properties: {}, required: 5 } }] } } } }

const url = (u: DocsUrl): Ev => ({ type: 'url.changed', url: u })
const done = (id: string, output: unknown): InternalEvent => ({ type: `xstate.done.actor.${id}`, output })
const failed = (id: string, error: Error): InternalEvent => ({ type: `xstate.error.actor.${id}`, error })
/** The delay each read gives up after: the reads of the project's database wait longer (machines/projectDatabaseTimeout.ts). */
const TIMEOUT_OF = { schema: 'projectDatabaseTimeout', settings: 'requestTimeout', buckets: 'projectDatabaseTimeout', functions: 'requestTimeout' } as const
const timeoutType = (region: Region) => `xstate.after.${TIMEOUT_OF[region]}.apiDocs.open.${region}.loading` as const
const timeout = (region: Region): InternalEvent => ({ type: timeoutType(region) })
const RETRY = { schema: 'schema.retry', settings: 'settings.retry', buckets: 'buckets.retry', functions: 'functions.retry' } as const
/** The project URL of an active custom domain, as the host tells it once the custom domain answers. */
const CUSTOM_URL = 'https://api.acme.test'
const CORRECTED_URL: DocsUrl = { docs: 'storage', docsItem: null, docsLang: 'python' }

function events(snapshot: Snap): Ev[] {
  const c = ctxOf(snapshot)
  if (snapshot.matches('closed')) return [{ type: 'panel.open' }, url(NO_DOCS_URL), url({ docs: 'tables-and-views', docsItem: null, docsLang: null }), url(CORRECTED_URL)]
  // The reads, one at a time, each with its section on screen.
  for (const region of REGIONS) {
    const state = regionState(snapshot, region)
    if (state === 'loaded' || state === 'notPermitted') continue
    if (c.section !== SECTION_OF[region] || c.item !== null) return [{ type: 'docs.show', section: SECTION_OF[region], item: null }]
    if (state === 'loading') {
      return [
        done(FETCH[region], OUTPUT[region]),
        ...(region === 'schema' ? [done(FETCH[region], UNREADABLE_SCHEMA)] : []),
        failed(FETCH[region], new Error('Internal server error')),
        ...(region === 'buckets' ? [failed(FETCH[region], new Error(TENANT_CONFIG_NOT_FOUND))] : []),
        timeout(region),
      ]
    }
    if (state === 'waitingToRetry') return [{ type: 'xstate.after.bucketRetryDelay.apiDocs.open.buckets.waitingToRetry' }]
    if (state === 'failed') return [{ type: RETRY[region] }]
  }
  // The JWT secret status as the child reports it (on Connect, where the keys show): an update starts; it ends
  // updated (the child first asks for the schema and keys again) or failed.
  if (onConnectWatching(snapshot)) {
    if (c.jwtStatus === 'unknown') return [...otherMoves(snapshot), jwtStatus('updated')]
    if (c.jwtStatus === 'updated') return [...otherMoves(snapshot), jwtStatus('updating')]
    if (c.jwtStatus === 'updating') return [jwtStatus('failed'), { type: 'docs.refresh' }, jwtStatus('updated')]
    if (c.jwtStatus === 'failed') return [jwtStatus('updated')]
  }
  // Anywhere else, an update under way or failed walks no further (the moves from there are those of 'updated').
  if (c.jwtStatus === 'updating' || c.jwtStatus === 'failed') return []
  return otherMoves(snapshot)
}

const jwtStatus = (status: JwtPhase): Ev => ({ type: 'jwt.status.changed', status })
// Only from one resting place (Connect in JavaScript, the URL as written, the keys hidden): the status changes the
// same from any, and each other place would multiply the walk.
const onConnectWatching = (snapshot: Snap) => {
  const c = ctxOf(snapshot)
  return (
    c.section === 'introduction' &&
    c.item === null &&
    c.language === 'js' &&
    urlStatus(c) === 'same' &&
    c.customUrl === null &&
    snapshot.matches({ open: { jwt: 'watching', keys: 'hidden' } })
  )
}

function otherMoves(snapshot: Snap): Ev[] {
  const c = ctxOf(snapshot)
  // The custom domain told (from any state where everything was read): its URL replaces the settings' in the panel.
  // The walk ends there; the moves before it are the same with either URL.
  if (c.customUrl !== null) return []
  // (The keys, the language and copying on the Connect page, where they show; the Storage page and a table's page
  // are where the URL leads.)
  const onConnect = c.section === 'introduction'
  const moves: MachineEvent[] = [
    c.section === 'tables-and-views' && c.item === null
      ? ({ type: 'docs.show', section: 'tables-and-views', item: 'recipes' })
      : ({ type: 'docs.show', section: 'introduction', item: null }),
    ...(onConnect
      ? [
          snapshot.matches({ open: { keys: 'shown' } }) ? move({ type: 'keys.hide' }) : move({ type: 'keys.show' }),
          move({ type: 'language.select', language: c.language === 'js' ? 'bash' : 'js' }),
          move({ type: 'snippet.copy', id: 'initializing', text: 'the snippet' }),
          move({ type: 'key.copy', key: 'anon' }),
        ]
      : []),
    { type: 'panel.close' },
  ]
  // The URL reported again is a transition that changes nothing: snapshot.can() says no, but it is one.
  const custom: Ev[] = snapshot.matches('open') ? [ev({ type: 'customUrl.changed', customUrl: CUSTOM_URL })] : []
  return [...moves.filter((event) => snapshot.can(event)), url(placeUrl(c)), url(NO_DOCS_URL), url(CORRECTED_URL), ...custom]
}

/**
 * A state by its value, the context its guards read, and the edge that led to it with the state it left (so every
 * edge ends some path). The buckets' retry count matters only while they are being read.
 */
const serializeState = (snapshot: Snap, event: EventObject | undefined, previous: Snap | undefined) => {
  const c = ctxOf(snapshot)
  const { output, error, ...rest }: { type?: string; output?: unknown; error?: unknown } = event ?? {}
  const incoming = { ...rest, ...(error ? { error: String(error) } : {}), ...(output === UNREADABLE_SCHEMA ? { unreadable: true } : {}) }
  const reading = ['loading', 'waitingToRetry'].includes(regionState(snapshot, 'buckets') ?? '')
  const from = previous ? [previous.value, urlStatus(ctxOf(previous))] : null
  return JSON.stringify([snapshot.value, c.section, c.item, c.language, reading ? c.bucketRetries : null, urlStatus(c), c.customUrl, c.jwtStatus, incoming, from])
}

/** Events told apart by their error's message too (an Error serializes to {}). */
const serializeEvent = (event: Ev) => JSON.stringify(event, (key, value) => (key === 'error' ? String(value) : value))

const ownerModel = modelOf(apiDocsMachine, {
  input: OWNER,
  serializeEvent: (e) => serializeEvent(e),
  events: (snapshot) => events(snapshot),
  serializeState: (s, e, p) => serializeState(s, e, p),
})
// A Read-only member: no Storage or Edge Functions section, so the buckets and functions are never read.
const readOnlyModel = modelOf(apiDocsMachine, { input: READ_ONLY, events: () => [], serializeState: (s, e, p) => serializeState(s, e, p) })
const paths = [...coveringWalks(ownerModel).map((path) => ({ path, input: OWNER })), ...coveringWalks(readOnlyModel).map((path) => ({ path, input: READ_ONLY }))]

const runPath = usePathClock()

/** The panel as the dialog shows it: gone once the machine has closed it. */
function Host({ actor }: { actor: ApiDocsActorRef }) {
  const open = useSelector(actor, (snapshot) => selectApiDocsPlace(snapshot).open)
  if (!open) return <p>The API docs panel is closed.</p>
  return (
    <ApiDocsPanel
      actor={actor}
      projectRef={REF}
      fallbackUrl={null}
      title={<h1>API Docs</h1>}
      close={
        <button type="button" onClick={() => actor.send({ type: 'panel.close' })}>
          Close
        </button>
      }
    />
  )
}

describe('API docs panel model', () => {
  it('the paths reach every state and every transition', () => {
    expect(missingCoverage(apiDocsMachine, paths.map((p) => p.path))).toEqual({ states: [], transitions: [] })
  })

  for (const { path, input } of paths) {
    it(`${input === READ_ONLY ? '[read-only] ' : ''}${describePath(path)}`, async () => {
      const reads = {
        schema: deferredActor<RestSchemaResponse, { ref: string }>('fetchRestSchema'),
        settings: deferredActor<ProjectApiInfo, { ref: string }>('fetchApiKeyInfo'),
        buckets: deferredActor<Bucket[], { ref: string }>('fetchBuckets'),
        functions: deferredActor<FunctionResponse[], { ref: string }>('fetchFunctions'),
      }
      const clipboard: string[] = []
      const writes: DocsUrl[] = []
      const machine = apiDocsMachine.provide({
        actors: {
          fetchRestSchema: reads.schema.logic,
          fetchApiKeyInfo: reads.settings.logic,
          fetchBuckets: reads.buckets.logic,
          fetchFunctions: reads.functions.logic,
          // The JWT secret flow kept quiet (its reads never answer): its reports are the path's own events
          // ('jwt.status.changed', 'docs.refresh').
          jwtSecret: jwtSecretDocsChildMachine.provide({
            actors: {
              fetchJwtStatus: deferredActor<JwtSecretUpdateStatusResponse, { ref: string }>('fetchJwtStatus').logic,
              updateJwtSecret: deferredActor<JwtSecretUpdateAccepted, { ref: string; body: JwtSecretUpdateBody }>('updateJwtSecret').logic,
            },
          }),
          copyButton: copyButtonMachine.provide({
            actors: {
              writeClipboard: fromPromise<void, { text: string }>(async ({ input }) => {
                clipboard.push(input.text)
              }),
            },
          }),
        },
      })
      const actor = runPath(createActor(machine, { input }))
      actor.on('url.write', (event) => writes.push(event.url))
      actor.start()
      render(<Host actor={actor} />)
      const nav = () => within(screen.getByRole('navigation', { name: 'API docs' }))
      const regionShown = (snapshot: Snap, region: Region) => ctxOf(snapshot).section === SECTION_OF[region] && (region === 'settings' || ctxOf(snapshot).item === null)
      /** The assertions of one read's state, where its section is on screen. */
      const readState = (region: Region, state: 'loading' | 'failed' | 'loaded' | 'waitingToRetry') => (snapshot: Snap) => {
        if (!regionShown(snapshot, region)) return
        if (state === 'loading') expect(screen.getByRole('status')).toHaveTextContent(LOADING_LABEL[region])
        if (state === 'waitingToRetry') expect(screen.getByRole('status')).toHaveTextContent(`${LOADING_LABEL[region]} (retry ${ctxOf(snapshot).bucketRetries} of 3)`)
        if (state === 'failed') {
          const alert = screen.getByRole('alert')
          expect(alert).toHaveTextContent(FAILED_TITLE[region])
          const { schemaError, settingsError, bucketsError, functionsError } = snapshot.context
          expect(alert).toHaveTextContent({ schema: schemaError, settings: settingsError, buckets: bucketsError, functions: functionsError }[region]!)
          expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument()
        }
        if (state === 'loaded') {
          expect(screen.queryByRole('alert')).toBeNull()
          if (region === 'schema') expect(screen.getByRole('list', { name: 'Tables and views' })).toBeInTheDocument()
          if (region === 'settings') expect(screen.getByRole('group', { name: 'anon (public)' })).toBeInTheDocument()
          if (region === 'buckets') expect(screen.getByRole('list', { name: 'Buckets' })).toBeInTheDocument()
          if (region === 'functions') expect(screen.getByRole('list', { name: 'Edge functions' })).toBeInTheDocument()
        }
      }
      const answer = (region: Region) => async (step: { event: EventObject }) => {
        if (step.event.type.startsWith('xstate.done')) await reads[region].resolve(outputOf(step))
        else await reads[region].reject(errorOf(step))
      }
      const timer = (region: Region) => async (step: { event: EventObject }) => {
        await act(async () => sendEdge(actor, step.event))
        // The read given up was abandoned (its signal aborted), so the next answer is its retry's.
        expect(reads[region].pending).toHaveLength(0)
      }

      await path.test({
        states: {
          closed: () => {
            expect(screen.getByText('The API docs panel is closed.')).toBeInTheDocument()
            expect(screen.queryByRole('navigation', { name: 'API docs' })).toBeNull()
          },
          open: (snapshot) => {
            const sections = nav().getAllByRole('button').map((b) => b.textContent)
            expect(sections).toEqual(
              input === READ_ONLY
                ? ['Connect', 'Tables & Views', 'Stored Procedures']
                : ['Connect', 'User Management', 'Tables & Views', 'Stored Procedures', 'Storage', 'Edge Functions', 'Realtime'],
            )
            const c = ctxOf(snapshot)
            // The panel renders the running actor; the model's state is what the walk expects of it: they agree.
            const running = ctxOf(actor.getSnapshot())
            expect({ section: running.section, item: running.item, language: running.language, url: running.url }).toEqual({ section: c.section, item: c.item, language: c.language, url: c.url })
            expect(nav().getByRole('button', { name: LABEL_OF[c.section] ?? '' })).toHaveAttribute('aria-current', 'page')
            expect(screen.getByRole('combobox', { name: 'Language' })).toHaveValue(c.language)
            if (c.item !== null) expect(screen.getByRole('button', { name: `Back to ${LABEL_OF[c.section]}` })).toBeInTheDocument()
          },
          'open.keys.hidden': () => {
            expect(screen.getByRole('button', { name: 'Show keys' })).toBeInTheDocument()
            expect(document.body).not.toHaveTextContent(ANON_KEY)
          },
          'open.keys.shown': (snapshot) => {
            expect(screen.getByRole('button', { name: 'Hide keys' })).toBeEnabled()
            if (ctxOf(snapshot).section === 'introduction') expect(screen.getByRole('group', { name: 'anon (public)' })).toHaveTextContent(ANON_KEY)
          },
          ...Object.fromEntries(
            REGIONS.flatMap((region) =>
              (['loading', 'failed', 'loaded', ...(region === 'buckets' ? (['waitingToRetry'] as const) : [])] as const).map((state) => [`open.${region}.${state}`, readState(region, state)]),
            ),
          ),
          // What the keys' places say (spec 6, as settings/api), where they show.
          'open.jwt.watching': (snapshot) => {
            const c = ctxOf(snapshot)
            if (c.section !== 'introduction' || !snapshot.matches({ open: { settings: 'loaded' } })) return
            const anon = screen.getByRole('group', { name: 'anon (public)' })
            const notice = c.jwtStatus === 'updating' ? UPDATING_TEXT : c.jwtStatus === 'failed' ? FAILED_TEXT : null
            if (notice === null) {
              expect(within(anon).getByRole('button', { name: /^Cop/ })).toBeInTheDocument()
              expect(within(anon).getByRole('button', { name: /^Cop/ })).toHaveProperty('disabled', c.jwtStatus !== 'updated')
            } else {
              expect(anon).toHaveTextContent(notice)
              expect(within(anon).queryByRole('button')).toBeNull()
              expect(screen.getByRole('group', { name: 'service_role (secret)' })).toHaveTextContent(notice)
            }
            expect(screen.getByRole('button', { name: snapshot.matches({ open: { keys: 'shown' } }) ? 'Hide keys' : 'Show keys' })).toHaveProperty(
              'disabled',
              !snapshot.matches({ open: { keys: 'shown' } }) && c.jwtStatus !== 'updated',
            )
          },
          'open.jwt.notPermitted': (snapshot) => {
            if (ctxOf(snapshot).section !== 'introduction' || !snapshot.matches({ open: { settings: 'loaded' } })) return
            expect(screen.getByRole('group', { name: 'anon (public)' })).toHaveTextContent(PERMISSION_TEXT)
            expect(screen.getByRole('button', { name: 'Show keys' })).toBeDisabled()
          },
          'open.buckets.notPermitted': () => {
            expect(reads.buckets.pending).toHaveLength(0)
            expect(nav().queryByRole('button', { name: 'Storage' })).toBeNull()
          },
          'open.functions.notPermitted': () => {
            expect(reads.functions.pending).toHaveLength(0)
            expect(nav().queryByRole('button', { name: 'Edge Functions' })).toBeNull()
          },
        },
        events: {
          ...Object.fromEntries(
            REGIONS.flatMap((region) => [
              [`xstate.done.actor.${FETCH[region]}`, answer(region)],
              [`xstate.error.actor.${FETCH[region]}`, answer(region)],
              [timeoutType(region), timer(region)],
              [`${region}.retry`, async () => fireEvent.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }))],
            ]),
          ),
          'xstate.after.bucketRetryDelay.apiDocs.open.buckets.waitingToRetry': async (step) => {
            await act(async () => sendEdge(actor, step.event))
          },
          'docs.show': async (step) => {
            const { section, item } = step.event
            if (item === null) fireEvent.click(nav().getByRole('button', { name: LABEL_OF[section] }))
            else fireEvent.click(within(screen.getByRole('list', { name: 'Tables and views' })).getByRole('button', { name: new RegExp(`^${item}`) }))
          },
          'keys.show': async () => fireEvent.click(screen.getByRole('button', { name: 'Show keys' })),
          'keys.hide': async () => fireEvent.click(screen.getByRole('button', { name: 'Hide keys' })),
          'language.select': async (step) => {
            fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: step.event.language } })
          },
          'snippet.copy': async () => {
            fireEvent.click(within(screen.getByRole('region', { name: 'Initializing' })).getByRole('button', { name: 'Copy' }))
            await act(() => Promise.resolve())
            expect(within(screen.getByRole('region', { name: 'Initializing' })).getByRole('button', { name: 'Copied' })).toBeInTheDocument()
            expect(clipboard.at(-1)).toContain(ctxOf(actor.getSnapshot()).language === 'js' ? "createClient(supabaseUrl, supabaseKey)" : 'curl ')
          },
          'key.copy': async () => {
            fireEvent.click(within(screen.getByRole('group', { name: 'anon (public)' })).getByRole('button', { name: /^Cop/ }))
            await act(() => Promise.resolve())
            expect(clipboard.at(-1)).toBe(ANON_KEY)
          },
          // The URL is the host's (tests/web/apiDocs.test.tsx runs it through the router): reported as it would be.
          'url.changed': async (step) => {
            const before = writes.length
            const wasOpen = actor.getSnapshot().matches('open')
            const known = ctxOf(actor.getSnapshot()).url
            await act(async () => actor.send(step.event))
            const reported = step.event.url
            const after = actor.getSnapshot()
            // The URL last reported again, while open: nothing to do. Another one: the panel goes there, and a URL
            // that does not say exactly where it is is written back.
            if (wasOpen && known !== null && sameUrl(known, reported)) expect(writes.slice(before)).toEqual([])
            else if (after.matches('open') && !sameUrl(reported, placeUrl(ctxOf(after)))) expect(writes.slice(before)).toEqual([placeUrl(ctxOf(after))])
            else expect(writes.slice(before)).toEqual([])
            // Closed by the URL (Back): the reads under way were abandoned, as when Close is clicked.
            if (wasOpen && after.matches('closed')) for (const region of REGIONS) expect(reads[region].pending).toHaveLength(0)
          },
          'panel.close': async () => {
            fireEvent.click(screen.getByRole('button', { name: 'Close' }))
            expect(writes.at(-1)).toEqual(NO_DOCS_URL)
            // The reads under way were abandoned (their signals aborted).
            for (const region of REGIONS) expect(reads[region].pending).toHaveLength(0)
          },
          'jwt.status.changed': async (step) => {
            await act(async () => actor.send(step.event))
          },
          // An update ended updated: the schema and the keys are read again.
          'docs.refresh': async (step) => {
            const pending = [reads.schema.pending.length, reads.settings.pending.length]
            await act(async () => actor.send(step.event))
            expect([reads.schema.pending.length, reads.settings.pending.length]).toEqual([pending[0] + 1, pending[1] + 1])
          },
          'panel.open': async () => {
            await act(async () => actor.send({ type: 'panel.open' }))
          },
          // The host's custom domain lookup answering: the running panel takes the URL (no read goes out again).
          'customUrl.changed': async (step) => {
            const pending = REGIONS.map((region) => reads[region].pending.length)
            await act(async () => actor.send(step.event))
            expect(REGIONS.map((region) => reads[region].pending.length)).toEqual(pending)
            if (ctxOf(actor.getSnapshot()).section === 'introduction') {
              expect(screen.getByRole('group', { name: 'Project URL' })).toHaveTextContent(CUSTOM_URL)
              expect(screen.getByRole('region', { name: 'Initializing' })).toHaveTextContent(CUSTOM_URL)
            }
          },
        },
      })
    }, 30_000) // the longest paths (a JWT secret update, then both reads again) drive the panel through dozens of steps
  }
})
