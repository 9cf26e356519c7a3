import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import {
  apiDocsMachine,
  availableSections,
  jwtSecretDocsChildMachine,
  NO_DOCS_URL,
  selectApiDocsPlace,
  selectBuckets,
  selectEdgeFunctions,
  selectKeyNotice,
  selectProjectKeys,
  selectRestDocs,
  selectSnippetKeys,
  type ApiDocsInput,
  type DocsUrl,
} from '../../machines/apiDocs.machine'
import { FAILED_TEXT, PERMISSION_TEXT, UPDATING_TEXT } from '../../machines/keyAccess'
import type { Permission } from '../../src/contracts/common'
import type { RestSchemaResponse } from '../../src/contracts/rest'
import type { FunctionResponse } from '../../src/contracts/functions'
import type { JwtSecretUpdateStatusResponse, ProjectApiInfo } from '../../src/contracts/keys'
import type { Bucket } from '../../src/contracts/storage'
import { ANON_KEY, SERVICE_KEY, makeApiInfo } from '../fixtures.keys'
import { REF } from '../fixtures'
import { BUCKETS, EDGE_FUNCTIONS, REST_SCHEMA, TENANT_CONFIG_NOT_FOUND } from '../fixtures.apiDocs'
import { deferredActor } from '../../model-tests/fakes'
import { PROJECT_DATABASE_TIMEOUT_MS } from '../../machines/projectDatabaseTimeout'

const OWNER: Permission[] = ['project_auth:all', 'project_storage:all', 'project_edge_function:all', 'realtime:all', 'service_api_keys:read']
const ALL_FEATURES = { auth: true, storage: true, edgeFunctions: true, realtime: true }

/** The JWT secret update status the server answers: null, never updated. */
type JwtAnswer = 'updating' | 'updated' | 'failed' | null
const jwtAnswer = (status: JwtAnswer): JwtSecretUpdateStatusResponse => ({
  jwtSecretUpdateStatus: status === null ? null : { meta: { change_tracking_id: 'c1', error: null, progress: '', status } },
})

function start(overrides: Partial<ApiDocsInput> = {}, jwt: { status: JwtAnswer; reads: number } = { status: null, reads: 0 }) {
  // Every run of each read, settled or not, in the order they started (the test settles them by index).
  const schema = deferredActor<RestSchemaResponse, { ref: string }>('fetchRestSchema')
  const settings = deferredActor<ProjectApiInfo, { ref: string }>('fetchApiKeyInfo')
  const buckets = deferredActor<Bucket[], { ref: string }>('fetchBuckets')
  const functions = deferredActor<FunctionResponse[], { ref: string }>('fetchFunctions')
  const reads = { schema: schema.runs, settings: settings.runs, buckets: buckets.runs, functions: functions.runs }
  const machine = apiDocsMachine.provide({
    actors: {
      fetchRestSchema: schema.logic,
      fetchApiKeyInfo: settings.logic,
      fetchBuckets: buckets.logic,
      fetchFunctions: functions.logic,
      // The JWT secret was never updated (null): the keys are usable once read.
      jwtSecret: jwtSecretDocsChildMachine.provide({
        actors: {
          fetchJwtStatus: fromPromise(async () => {
            jwt.reads++
            return jwtAnswer(jwt.status)
          }),
        },
      }),
    },
  })
  const input: ApiDocsInput = { ref: REF, mode: 'dialog', permissions: OWNER, features: ALL_FEATURES, url: NO_DOCS_URL, ...overrides }
  const actor = createActor(machine, { input })
  const writes: Array<{ url: DocsUrl; replace: boolean }> = []
  actor.on('url.write', (event) => writes.push({ url: event.url, replace: event.replace }))
  actor.start()
  return { actor, reads, writes, place: () => selectApiDocsPlace(actor.getSnapshot()) }
}

const settle = () => vi.advanceTimersByTimeAsync(0)

beforeEach(() => vi.useFakeTimers({ now: 0 }))
afterEach(() => vi.useRealTimers())

describe('API docs machine: sections', () => {
  it('shows every section to an Owner, and none of User Management, Storage, Edge Functions, Realtime without their permissions', () => {
    expect(availableSections(OWNER, ALL_FEATURES)).toEqual([
      'introduction',
      'user-management',
      'tables-and-views',
      'stored-procedures',
      'storage',
      'edge-functions',
      'realtime',
    ])
    expect(availableSections([], ALL_FEATURES)).toEqual(['introduction', 'tables-and-views', 'stored-procedures'])
  })

  it("hides a product the build switched off, whatever the person's permissions", () => {
    expect(availableSections(OWNER, { auth: false, storage: true, edgeFunctions: false, realtime: true })).toEqual([
      'introduction',
      'tables-and-views',
      'stored-procedures',
      'storage',
      'realtime',
    ])
  })
})

describe('API docs machine: reads', () => {
  it('reads the REST schema, settings, buckets and functions once each, in parallel, when it opens', () => {
    const { reads } = start()
    expect(reads.schema).toHaveLength(1)
    expect(reads.settings).toHaveLength(1)
    expect(reads.buckets).toHaveLength(1)
    expect(reads.functions).toHaveLength(1)
    expect(reads.schema[0].input).toEqual({ ref: REF })
  })

  it('derives the tables and functions from the one schema read (no request per table)', async () => {
    const { actor, reads } = start()
    reads.schema[0].resolve(REST_SCHEMA)
    await settle()
    const docs = selectRestDocs(actor.getSnapshot())
    expect(docs.phase).toBe('loaded')
    if (docs.phase !== 'loaded') return
    expect(docs.value.tables.map((table) => [table.name, table.kind])).toEqual([
      ['recipes', 'table'],
      ['published_recipes', 'view'],
    ])
    expect(docs.value.functions.map((fn) => fn.name)).toEqual(['add_rating', 'search_recipes'])
    expect(reads.schema).toHaveLength(1)
  })

  it('never reads the buckets or the functions for a person without Storage or Edge Functions', () => {
    const { actor, reads } = start({ permissions: [] })
    expect(reads.buckets).toHaveLength(0)
    expect(reads.functions).toHaveLength(0)
    expect(selectBuckets(actor.getSnapshot())).toEqual({ phase: 'notPermitted' })
    expect(selectEdgeFunctions(actor.getSnapshot())).toEqual({ phase: 'notPermitted' })
  })

  it('keeps each failure to its resource: the others load and show', async () => {
    const { actor, reads } = start()
    reads.schema[0].reject(new Error('Internal server error'))
    reads.settings[0].resolve(makeApiInfo())
    reads.functions[0].reject(new Error('Functions are down'))
    reads.buckets[0].resolve(BUCKETS)
    await settle()
    const snapshot = actor.getSnapshot()
    expect(selectRestDocs(snapshot)).toEqual({ phase: 'failed', error: 'Internal server error' })
    expect(selectProjectKeys(snapshot)).toMatchObject({ phase: 'loaded', value: { anon: ANON_KEY, serviceRole: SERVICE_KEY } })
    expect(selectBuckets(snapshot)).toEqual({ phase: 'loaded', value: BUCKETS })
    expect(selectEdgeFunctions(snapshot)).toEqual({ phase: 'failed', error: 'Functions are down' })
    // A retry reads only the failed resource again.
    actor.send({ type: 'schema.retry' })
    expect(reads.schema).toHaveLength(2)
    expect(reads.settings).toHaveLength(1)
    reads.schema[1].resolve(REST_SCHEMA)
    await settle()
    expect(selectRestDocs(actor.getSnapshot()).phase).toBe('loaded')
    expect(selectEdgeFunctions(actor.getSnapshot()).phase).toBe('failed')
  })

  it('abandons a read unanswered after its time-out (its signal aborted) and says it timed out', async () => {
    const { actor, reads } = start({ permissions: [] })
    // The keys come from the platform's store: 10 s.
    await vi.advanceTimersByTimeAsync(9_999)
    expect(reads.settings[0].signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(reads.settings[0].signal.aborted).toBe(true)
    expect(selectProjectKeys(actor.getSnapshot())).toEqual({ phase: 'failed', error: 'The request timed out' })
    // The REST schema comes from the project's database, which the platform may have to open first.
    await vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS - 10_000 - 1)
    expect(selectRestDocs(actor.getSnapshot())).toEqual({ phase: 'loading', retry: 0 })
    expect(reads.schema[0].signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(reads.schema[0].signal.aborted).toBe(true)
    expect(selectRestDocs(actor.getSnapshot())).toEqual({ phase: 'failed', error: 'The request timed out' })
  })

  it('a schema it cannot read is a failure with a clear message, not a crash', async () => {
    const { actor, reads } = start({ permissions: [] })
    const odd = {
      ...REST_SCHEMA,
      paths: { '/rpc/odd': { post: { parameters: [{ in: 'body', schema: { properties: {}, required: 5 } }] } } },
    }
    reads.schema[0].resolve(odd)
    await settle()
    expect(selectRestDocs(actor.getSnapshot())).toMatchObject({ phase: 'failed', error: expect.stringMatching(/^The REST schema could not be read: /) })
  })

  it('reads everything again on each opening, and hides the keys again', async () => {
    const { actor, reads } = start()
    reads.schema[0].resolve(REST_SCHEMA)
    reads.settings[0].resolve(makeApiInfo())
    reads.functions[0].resolve(EDGE_FUNCTIONS)
    await settle()
    expect(selectEdgeFunctions(actor.getSnapshot())).toEqual({ phase: 'loaded', value: EDGE_FUNCTIONS })
    actor.send({ type: 'keys.show' })
    expect(selectApiDocsPlace(actor.getSnapshot()).keysShown).toBe(true)
    actor.send({ type: 'panel.close' })
    expect(selectApiDocsPlace(actor.getSnapshot()).open).toBe(false)
    actor.send({ type: 'panel.open' })
    expect(reads.schema).toHaveLength(2)
    expect(reads.settings).toHaveLength(2)
    expect(reads.buckets).toHaveLength(2)
    expect(reads.functions).toHaveLength(2)
    expect(selectRestDocs(actor.getSnapshot()).phase).toBe('loading')
    expect(selectEdgeFunctions(actor.getSnapshot()).phase).toBe('loading')
    // After a JWT secret rotation the new keys come with the new read.
    reads.settings[1].resolve(makeApiInfo({ anon: 'new-anon-key' }))
    await settle()
    expect(selectApiDocsPlace(actor.getSnapshot()).keysShown).toBe(false)
    actor.send({ type: 'keys.show' })
    expect(selectSnippetKeys(actor.getSnapshot()).anonKey).toBe('new-anon-key')
  })
})

describe('API docs machine: buckets retry rule (spec 8)', () => {
  it('retries a failed read at most 3 times, after 1 s, 2 s and 4 s, then fails', async () => {
    const { actor, reads } = start()
    reads.buckets[0].reject(new Error('Internal server error'))
    await settle()
    expect(selectBuckets(actor.getSnapshot())).toEqual({ phase: 'loading', retry: 1 })
    await vi.advanceTimersByTimeAsync(999)
    expect(reads.buckets).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(reads.buckets).toHaveLength(2)
    reads.buckets[1].reject(new Error('Internal server error'))
    await vi.advanceTimersByTimeAsync(2_000)
    expect(reads.buckets).toHaveLength(3)
    reads.buckets[2].reject(new Error('Internal server error'))
    await vi.advanceTimersByTimeAsync(4_000)
    expect(reads.buckets).toHaveLength(4)
    reads.buckets[3].reject(new Error('Still failing'))
    await vi.advanceTimersByTimeAsync(60_000)
    expect(reads.buckets).toHaveLength(4)
    expect(selectBuckets(actor.getSnapshot())).toEqual({ phase: 'failed', error: 'Still failing' })
    // Retry by hand starts a new round.
    actor.send({ type: 'buckets.retry' })
    expect(reads.buckets).toHaveLength(5)
    reads.buckets[4].resolve(BUCKETS)
    await settle()
    expect(selectBuckets(actor.getSnapshot())).toEqual({ phase: 'loaded', value: BUCKETS })
  })

  it("never retries 'Tenant config … not found'", async () => {
    const { actor, reads } = start()
    reads.buckets[0].reject(new Error(TENANT_CONFIG_NOT_FOUND))
    await vi.advanceTimersByTimeAsync(60_000)
    expect(reads.buckets).toHaveLength(1)
    expect(selectBuckets(actor.getSnapshot())).toEqual({ phase: 'failed', error: TENANT_CONFIG_NOT_FOUND })
  })

  it('a timed-out read counts as a failure and is retried', async () => {
    const { actor, reads } = start()
    // The buckets are rows of the project's database: their read waits as long as the platform may take to open it.
    await vi.advanceTimersByTimeAsync(PROJECT_DATABASE_TIMEOUT_MS - 1)
    expect(reads.buckets[0].signal.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(reads.buckets[0].signal.aborted).toBe(true)
    expect(selectBuckets(actor.getSnapshot())).toEqual({ phase: 'loading', retry: 1 })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(reads.buckets).toHaveLength(2)
  })
})

describe('API docs machine: the URL', () => {
  it('opens where the URL says: section, item and language', () => {
    const { place } = start({ url: { docs: 'tables-and-views', docsItem: 'recipes', docsLang: 'bash' } })
    expect(place()).toMatchObject({ open: true, section: 'tables-and-views', item: 'recipes', language: 'bash' })
  })

  it('a dialog opened without docs in the URL adds it as a new history entry; a StrictMode double report writes once', () => {
    const { actor, writes } = start()
    actor.send({ type: 'url.changed', url: NO_DOCS_URL })
    actor.send({ type: 'url.changed', url: NO_DOCS_URL })
    expect(writes).toEqual([{ url: { docs: 'introduction', docsItem: null, docsLang: null }, replace: false }])
    // The written URL comes back as a report: nothing more to write.
    actor.send({ type: 'url.changed', url: { docs: 'introduction', docsItem: null, docsLang: null } })
    expect(writes).toHaveLength(1)
  })

  it('round trip: each move writes the URL, and the URL written opens the same place in a new panel', () => {
    const { actor, writes, place } = start()
    actor.send({ type: 'url.changed', url: NO_DOCS_URL })
    actor.send({ type: 'docs.show', section: 'stored-procedures', item: 'add_rating' })
    actor.send({ type: 'language.select', language: 'bash' })
    expect(writes.slice(1)).toEqual([
      { url: { docs: 'stored-procedures', docsItem: 'add_rating', docsLang: null }, replace: false },
      { url: { docs: 'stored-procedures', docsItem: 'add_rating', docsLang: 'bash' }, replace: true },
    ])
    const reloaded = start({ url: writes.at(-1)!.url })
    expect(reloaded.place()).toEqual({ ...place(), keysShown: false })
  })

  it('follows the URL when the browser goes back, and a dialog closes when the URL loses docs', () => {
    const { actor, writes, place } = start({ url: { docs: 'storage', docsItem: null, docsLang: null } })
    actor.send({ type: 'url.changed', url: { docs: 'storage', docsItem: null, docsLang: null } })
    actor.send({ type: 'url.changed', url: { docs: 'storage', docsItem: 'avatars', docsLang: null } })
    expect(place()).toMatchObject({ section: 'storage', item: 'avatars' })
    actor.send({ type: 'url.changed', url: NO_DOCS_URL })
    expect(place().open).toBe(false)
    expect(writes).toEqual([])
  })

  it('corrects a URL naming a section the person may not see, replacing it', () => {
    const { actor, writes, place } = start({ permissions: [], url: { docs: 'storage', docsItem: 'avatars', docsLang: 'python' } })
    actor.send({ type: 'url.changed', url: { docs: 'storage', docsItem: 'avatars', docsLang: 'python' } })
    expect(place()).toMatchObject({ section: 'introduction', item: null, language: 'js' })
    expect(writes).toEqual([{ url: { docs: 'introduction', docsItem: null, docsLang: null }, replace: true }])
  })

  it('on the /api page the Connect page has no docs parameter, and the page never closes', () => {
    const { actor, writes, place } = start({ mode: 'page' })
    actor.send({ type: 'url.changed', url: NO_DOCS_URL })
    expect(writes).toEqual([])
    actor.send({ type: 'docs.show', section: 'realtime', item: null })
    actor.send({ type: 'url.changed', url: { docs: 'realtime', docsItem: null, docsLang: null } })
    actor.send({ type: 'url.changed', url: NO_DOCS_URL })
    expect(place()).toMatchObject({ open: true, section: 'introduction' })
    actor.send({ type: 'panel.close' })
    expect(place().open).toBe(true)
  })

  it('closing a dialog clears its parameters; a closed panel opens again from the URL', () => {
    const { actor, writes, place } = start({ url: { docs: 'realtime', docsItem: null, docsLang: null } })
    actor.send({ type: 'url.changed', url: { docs: 'realtime', docsItem: null, docsLang: null } })
    actor.send({ type: 'panel.close' })
    expect(writes).toEqual([{ url: NO_DOCS_URL, replace: false }])
    actor.send({ type: 'url.changed', url: NO_DOCS_URL })
    expect(place().open).toBe(false)
    actor.send({ type: 'url.changed', url: { docs: 'tables-and-views', docsItem: 'recipes', docsLang: null } })
    expect(place()).toMatchObject({ open: true, section: 'tables-and-views', item: 'recipes' })
    expect(writes).toHaveLength(1)
  })

  it('refuses a section the person may not see and an item on a section without items', () => {
    const { actor, writes, place } = start({ permissions: [] })
    expect(actor.getSnapshot().can({ type: 'docs.show', section: 'storage', item: null })).toBe(false)
    expect(actor.getSnapshot().can({ type: 'docs.show', section: 'introduction', item: 'x' })).toBe(false)
    actor.send({ type: 'docs.show', section: 'realtime', item: null })
    expect(place().section).toBe('introduction')
    expect(writes).toEqual([])
  })
})

describe('API docs machine: keys', () => {
  it('snippets carry placeholders until keys are shown; then the anon key, and the service key only when the server sent it', async () => {
    const owner = start()
    expect(owner.actor.getSnapshot().can({ type: 'keys.show' })).toBe(false)
    owner.reads.settings[0].resolve(makeApiInfo())
    await settle()
    expect(selectSnippetKeys(owner.actor.getSnapshot())).toEqual({ projectUrl: `http://localhost/rest/${REF}`, anonKey: null, serviceKey: null })
    owner.actor.send({ type: 'keys.show' })
    expect(selectSnippetKeys(owner.actor.getSnapshot())).toMatchObject({ anonKey: ANON_KEY, serviceKey: SERVICE_KEY })
    owner.actor.send({ type: 'keys.hide' })
    expect(selectSnippetKeys(owner.actor.getSnapshot())).toMatchObject({ anonKey: null, serviceKey: null })

    expect(selectKeyNotice(owner.actor.getSnapshot())).toBeNull()
  })

  it('a member without service_api_keys:read is shown and copies no key, not even the anon key the server sends, and never reads the JWT status', async () => {
    const jwt = { status: null, reads: 0 }
    const developer = start({ permissions: OWNER.filter((p) => p !== 'service_api_keys:read') }, jwt)
    developer.reads.settings[0].resolve(makeApiInfo({ secrets: false }))
    await settle()
    expect(developer.actor.getSnapshot().can({ type: 'keys.show' })).toBe(false)
    developer.actor.send({ type: 'keys.show' })
    expect(selectSnippetKeys(developer.actor.getSnapshot())).toMatchObject({ anonKey: null, serviceKey: null })
    expect(developer.actor.getSnapshot().can({ type: 'key.copy', key: 'service_role' })).toBe(false)
    expect(developer.actor.getSnapshot().can({ type: 'key.copy', key: 'anon' })).toBe(false)
    expect(selectKeyNotice(developer.actor.getSnapshot())).toBe(PERMISSION_TEXT)
    await vi.advanceTimersByTimeAsync(5_000)
    expect(jwt.reads).toBe(0)
  })

  it('while the JWT secret updates no key shows or copies; when the update ends updated the schema and the keys are read again', async () => {
    const jwt: { status: JwtAnswer; reads: number } = { status: 'updating', reads: 0 }
    const owner = start({}, jwt)
    owner.reads.settings[0].resolve(makeApiInfo())
    owner.reads.schema[0].resolve(REST_SCHEMA)
    await settle()
    expect(selectKeyNotice(owner.actor.getSnapshot())).toBe(UPDATING_TEXT)
    expect(owner.actor.getSnapshot().can({ type: 'keys.show' })).toBe(false)
    expect(owner.actor.getSnapshot().can({ type: 'key.copy', key: 'anon' })).toBe(false)
    // Polled every second while it runs; nothing read again yet.
    await vi.advanceTimersByTimeAsync(1_000)
    expect(jwt.reads).toBe(2)
    expect([owner.reads.schema.length, owner.reads.settings.length]).toEqual([1, 1])

    jwt.status = 'updated'
    await vi.advanceTimersByTimeAsync(1_000)
    expect(selectKeyNotice(owner.actor.getSnapshot())).toBeNull()
    expect([owner.reads.schema.length, owner.reads.settings.length]).toEqual([2, 2])
    expect(selectProjectKeys(owner.actor.getSnapshot())).toEqual({ phase: 'loading', retry: 0 })
    owner.reads.settings[1].resolve(makeApiInfo({ anon: 'eyJ.new-anon' }))
    await settle()
    owner.actor.send({ type: 'keys.show' })
    expect(selectSnippetKeys(owner.actor.getSnapshot())).toMatchObject({ anonKey: 'eyJ.new-anon' })
    expect(owner.actor.getSnapshot().can({ type: 'key.copy', key: 'anon' })).toBe(true)

    // A status change hides shown keys again; a failed update keeps them hidden and says so.
    owner.actor.send({ type: 'jwt.status.changed', status: 'failed' })
    expect(selectApiDocsPlace(owner.actor.getSnapshot()).keysShown).toBe(false)
    expect(selectKeyNotice(owner.actor.getSnapshot())).toBe(FAILED_TEXT)
    expect(owner.actor.getSnapshot().can({ type: 'keys.show' })).toBe(false)
  })

  it('reads the JWT status again at each opening, and knows nothing of the last one meanwhile', async () => {
    const jwt: { status: JwtAnswer; reads: number } = { status: null, reads: 0 }
    const owner = start({}, jwt)
    await settle()
    expect(jwt.reads).toBe(1)
    owner.actor.send({ type: 'panel.close' })
    jwt.status = 'failed'
    owner.actor.send({ type: 'panel.open' })
    expect(selectKeyNotice(owner.actor.getSnapshot())).toBeNull()
    await settle()
    expect(jwt.reads).toBe(2)
    expect(selectKeyNotice(owner.actor.getSnapshot())).toBe(FAILED_TEXT)
  })
})
