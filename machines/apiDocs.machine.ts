/**
 * The API docs panel (spec 2 'API Docs panel', spec 4 'API Docs state'): where the person is — [section] or
 * [section, item] —, the language of the snippets (js or bash) and whether they carry the real keys.
 * Opening it reads, in parallel and once each, the REST schema (the docs of every table and function are derived
 * from it here, once per schema: never a request per table), the API key info (spec 3: `autoApiService` with the
 * endpoint, the anon key as defaultApiKey, and serviceApiKey only when the server sends it), the buckets and the edge functions (each only with its permission). Each has
 * its own loading / failed state with a retry: one failing never blanks the others. Every opening reads them all
 * again (new keys after a JWT secret rotation) and hides the keys. The keys follow settings/api's rule (./keyAccess.ts):
 * shown and copied only with service_api_keys:read and the JWT secret updated — the JWT secret flow runs as the child
 * 'jwtSecret' (read only) for a member who may read keys, reports each status (which hides the keys again) and, when an
 * update it watched ends updated, has the REST schema and the keys read again. Buckets follow spec 8 (./bucketRetries.ts): at most
 * 3 retries, after a delay, none for 'Tenant config … not found'.
 * The URL holds the place (docs, docsItem, docsLang): the view reports it ('url.changed'), the machine applies it and
 * asks for URL writes with its `writeUrl` action (emitted as 'url.write'; the view does the writing).
 */
import { assign, emit, fromPromise, sendParent, sendTo, setup, type SnapshotFrom } from 'xstate'
import type { Permission } from '../src/contracts/common'
import type { FunctionResponse } from '../src/contracts/functions'
import type { ProjectApiInfo } from '../src/contracts/keys'
import type { RestSchemaResponse } from '../src/contracts/rest'
import type { Bucket } from '../src/contracts/storage'
import { bucketRetryDelay, shouldRetryBuckets } from './bucketRetries'
import { copyButtonMachine } from './copyButton.machine'
import { jwtSecretMachine, type JwtPhase } from './jwtSecret.machine'
import { keyAccess, type JwtStatus } from './keyAccess'
import { loaderRegions } from './loaderRegion'
import { PROJECT_DATABASE_TIMEOUT_MS } from './projectDatabaseTimeout'
import { docsFromRestSchema, type RestDocs } from './restDocs'

export const DOCS_SECTIONS = ['introduction', 'user-management', 'tables-and-views', 'stored-procedures', 'storage', 'edge-functions', 'realtime'] as const
export type DocsSection = (typeof DOCS_SECTIONS)[number]
export type DocsLanguage = 'js' | 'bash'

export const SECTION_LABELS: Record<DocsSection, string> = {
  introduction: 'Connect',
  'user-management': 'User Management',
  'tables-and-views': 'Tables & Views',
  'stored-procedures': 'Stored Procedures',
  storage: 'Storage',
  'edge-functions': 'Edge Functions',
  realtime: 'Realtime',
}

interface Features {
  auth: boolean
  storage: boolean
  edgeFunctions: boolean
  realtime: boolean
}

/** Spec 6: the permission (in the project's organization) and the build's product switch each section needs. */
const SECTION_RULES: Partial<Record<DocsSection, { permission: Permission; feature: keyof Features }>> = {
  'user-management': { permission: 'project_auth:all', feature: 'auth' },
  storage: { permission: 'project_storage:all', feature: 'storage' },
  'edge-functions': { permission: 'project_edge_function:all', feature: 'edgeFunctions' },
  realtime: { permission: 'realtime:all', feature: 'realtime' },
}

/** The sections whose pages list items, each opening an entity page. */
const SECTIONS_WITH_ITEMS = new Set<DocsSection>(['tables-and-views', 'stored-procedures', 'storage', 'edge-functions'])

export function availableSections(permissions: readonly Permission[], features: Features): DocsSection[] {
  return DOCS_SECTIONS.filter((section) => {
    const rule = SECTION_RULES[section]
    return rule === undefined || (features[rule.feature] && permissions.includes(rule.permission))
  })
}

/** The panel's query parameters as the URL has them (null: absent). */
export interface DocsUrl {
  docs: string | null
  docsItem: string | null
  docsLang: string | null
}

export const NO_DOCS_URL: DocsUrl = { docs: null, docsItem: null, docsLang: null }

export interface ApiDocsInput {
  ref: string
  /** In a dialog the `docs` parameter marks the panel open; on the /api page its absence is the Connect page. */
  mode: 'dialog' | 'page'
  permissions: readonly Permission[]
  features: Features
  url: DocsUrl
}

export interface ProjectKeys {
  /** `{protocol}://{endpoint}` of the API key info: the client's supabaseUrl. */
  projectUrl: string | null
  anon: string | null
  /** Only when the server sent it (the person may read service_api_keys). */
  serviceRole: string | null
}

interface Context {
  ref: string
  mode: ApiDocsInput['mode']
  sections: DocsSection[]
  section: DocsSection
  item: string | null
  language: DocsLanguage
  /** The URL as last reported by the view (null before the first report). */
  url: DocsUrl | null
  docs: RestDocs | null
  schemaError: string | null
  keys: ProjectKeys | null
  settingsError: string | null
  buckets: Bucket[] | null
  bucketsError: string | null
  bucketRetries: number
  functions: FunctionResponse[] | null
  functionsError: string | null
  /** The snippet whose copy button the shared snippet copier stands for. */
  copiedSnippet: string | null
  /**
   * The project URL of the project's active custom domain (https://{hostname}), told by the view when the custom
   * domain answers ('customUrl.changed'); null until then, and when there is none. The snippets use it first.
   */
  customUrl: string | null
  /** service_api_keys:read in the project's organization. */
  canReadKeys: boolean
  /** The JWT secret update status as the child last read it ('unknown' until then, and without canReadKeys). */
  jwtStatus: JwtStatus
}

type ApiDocsEvent =
  | { type: 'url.changed'; url: DocsUrl }
  | { type: 'docs.show'; section: DocsSection; item: string | null }
  | { type: 'language.select'; language: DocsLanguage }
  | { type: 'keys.show' }
  | { type: 'keys.hide' }
  | { type: 'schema.retry' }
  | { type: 'settings.retry' }
  | { type: 'buckets.retry' }
  | { type: 'functions.retry' }
  | { type: 'snippet.copy'; id: string; text: string }
  | { type: 'key.copy'; key: 'anon' | 'service_role' }
  | { type: 'panel.open' }
  | { type: 'panel.close' }
  | { type: 'customUrl.changed'; customUrl: string | null }
  | { type: 'jwt.status.changed'; status: JwtPhase }
  | { type: 'docs.refresh' }

type ApiDocsEmitted = { type: 'url.write'; url: DocsUrl; replace: boolean }

const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

/** Where a URL puts the panel: an unknown or forbidden section is Connect; only sections with items keep an item. */
function placeOf(url: DocsUrl, sections: readonly DocsSection[]) {
  const section = sections.find((s) => s === url.docs) ?? 'introduction'
  const item = SECTIONS_WITH_ITEMS.has(section) && url.docsItem ? url.docsItem : null
  const language: DocsLanguage = url.docsLang === 'bash' ? 'bash' : 'js'
  return { section, item, language }
}

/** The URL of a place. */
function urlOf(place: { mode: Context['mode']; section: DocsSection; item: string | null; language: DocsLanguage }): DocsUrl {
  const onPageHome = place.mode === 'page' && place.section === 'introduction' && place.item === null
  return { docs: onPageHome ? null : place.section, docsItem: place.item, docsLang: place.language === 'bash' ? 'bash' : null }
}

/**
 * The URL a reported one becomes: the place it names, written back. A dialog opened without `docs` adds it with a new
 * history entry (so Back closes the panel); any other correction replaces the URL.
 */
function correctedUrl(context: Pick<Context, 'mode' | 'sections'>, url: DocsUrl) {
  return { url: urlOf({ mode: context.mode, ...placeOf(url, context.sections) }), replace: context.mode === 'page' || url.docs !== null }
}

const sameUrl = (a: DocsUrl | null, b: DocsUrl | null) =>
  a !== null && b !== null && a.docs === b.docs && a.docsItem === b.docsItem && a.docsLang === b.docsLang

function keysOf(info: ProjectApiInfo): ProjectKeys {
  const service = info.autoApiService
  return {
    projectUrl: `${service.protocol}://${service.endpoint}`,
    anon: service.defaultApiKey,
    serviceRole: service.serviceApiKey ?? null,
  }
}

// The docs of a schema, derived once per schema object (the guard that checks it can be read and the action that
// stores it share the one derivation).
const derived = new WeakMap<RestSchemaResponse, RestDocs | Error>()
function docsOf(schema: RestSchemaResponse): RestDocs | Error {
  let docs = derived.get(schema)
  if (docs === undefined) {
    try {
      docs = docsFromRestSchema(schema)
    } catch (error) {
      docs = new Error(`The REST schema could not be read: ${messageOf(error, 'unexpected content')}`)
    }
    derived.set(schema, docs)
  }
  return docs
}

const readable = (docs: RestDocs | Error) => (docs instanceof Error ? null : docs)
const unreadable = (docs: RestDocs | Error) => (docs instanceof Error ? docs.message : null)

/** The panel's reads, each a region of the open panel (./loaderRegion.ts). */
const { read, readRetrying, onlyPermitted } = loaderRegions<ApiDocsEvent['type'], 'requestTimeout' | 'projectDatabaseTimeout' | 'bucketRetryDelay'>()

const COPIERS = { anon: 'copyAnonKey', service_role: 'copyServiceKey' } as const

/** The JWT secret flow as the panel's child: it only watches (never updates), and its reports come up here. */
export const jwtSecretDocsChildMachine = jwtSecretMachine.provide({
  actions: {
    reportStatus: sendParent((_, params: { status: JwtPhase }) => ({ type: 'jwt.status.changed', status: params.status })),
    refreshSettings: sendParent({ type: 'docs.refresh' }),
  },
})

export const apiDocsMachine = setup({
  types: {
    input: {} as ApiDocsInput,
    context: {} as Context,
    events: {} as ApiDocsEvent,
    emitted: {} as ApiDocsEmitted,
    children: {} as {
      fetchRestSchema: 'fetchRestSchema'
      fetchApiKeyInfo: 'fetchApiKeyInfo'
      fetchBuckets: 'fetchBuckets'
      fetchFunctions: 'fetchFunctions'
      copySnippet: 'copyButton'
      copyAnonKey: 'copyButton'
      copyServiceKey: 'copyButton'
      jwtSecret: 'jwtSecret'
    },
  },
  actors: {
    fetchRestSchema: fromPromise<RestSchemaResponse, { ref: string }>(async () => {
      throw new Error('fetchRestSchema not provided')
    }),
    fetchApiKeyInfo: fromPromise<ProjectApiInfo, { ref: string }>(async () => {
      throw new Error('fetchApiKeyInfo not provided')
    }),
    fetchBuckets: fromPromise<Bucket[], { ref: string }>(async () => {
      throw new Error('fetchBuckets not provided')
    }),
    fetchFunctions: fromPromise<FunctionResponse[], { ref: string }>(async () => {
      throw new Error('fetchFunctions not provided')
    }),
    copyButton: copyButtonMachine,
    jwtSecret: jwtSecretDocsChildMachine,
  },
  guards: {
    isReportedUrl: ({ context }, params: { url: DocsUrl }) => sameUrl(context.url, params.url),
    /** In a dialog, a URL that lost `docs` (the browser went back) closes the panel. */
    closesPanel: ({ context }, params: { url: DocsUrl }) => context.mode === 'dialog' && params.url.docs === null && context.url?.docs != null,
    isDialog: ({ context }) => context.mode === 'dialog',
    opensPanel: (_, params: { url: DocsUrl }) => params.url.docs !== null,
    opensPanelExactly: ({ context }, params: { url: DocsUrl }) => params.url.docs !== null && sameUrl(correctedUrl(context, params.url).url, params.url),
    /** The URL says exactly where the panel is (nothing to correct, nothing to add). */
    isExactUrl: ({ context }, params: { url: DocsUrl }) => sameUrl(correctedUrl(context, params.url).url, params.url),
    isAvailable: ({ context }, params: { section: DocsSection; item: string | null }) =>
      context.sections.includes(params.section) && (params.item === null || SECTIONS_WITH_ITEMS.has(params.section)),
    isReadableSchema: (_, params: { output: RestSchemaResponse }) => !(docsOf(params.output) instanceof Error),
    mayReadBuckets: ({ context }) => context.sections.includes('storage'),
    mayReadFunctions: ({ context }) => context.sections.includes('edge-functions'),
    shouldRetryBuckets: ({ context }, params: { error: unknown }) => shouldRetryBuckets(context.bucketRetries, params.error),
    mayReadKeys: ({ context }) => context.canReadKeys,
    mayShowKeys: ({ context }) => keyAccess(context.canReadKeys, context.jwtStatus).usable && context.keys?.anon != null,
    mayCopyKey: ({ context }, params: { key: 'anon' | 'service_role' }) =>
      keyAccess(context.canReadKeys, context.jwtStatus).usable && (params.key === 'anon' ? context.keys?.anon : context.keys?.serviceRole) != null,
  },
  actions: {
    storeUrl: assign({ url: (_, params: { url: DocsUrl }) => params.url }),
    applyUrl: assign(({ context }, params: { url: DocsUrl }) => ({ ...placeOf(params.url, context.sections), url: params.url })),
    writeUrl: emit((_, params: { url: DocsUrl; replace: boolean }) => ({ type: 'url.write' as const, url: params.url, replace: params.replace })),
    storePlace: assign((_, params: { section: DocsSection; item: string | null }) => ({ section: params.section, item: params.item })),
    storeLanguage: assign({ language: (_, params: { language: DocsLanguage }) => params.language }),
    forgetResources: assign({
      docs: null,
      schemaError: null,
      keys: null,
      settingsError: null,
      buckets: null,
      bucketsError: null,
      bucketRetries: 0,
      functions: null,
      functionsError: null,
      copiedSnippet: null,
      jwtStatus: 'unknown',
    }),
    // Both follow isReadableSchema, which has derived the schema's docs (or found it unreadable).
    storeDocs: assign({ docs: (_, params: { output: RestSchemaResponse }) => readable(docsOf(params.output)), schemaError: null }),
    storeUnreadableSchema: assign({ schemaError: (_, params: { output: RestSchemaResponse }) => unreadable(docsOf(params.output)) }),
    storeSchemaError: assign({ schemaError: (_, params: { error: unknown }) => messageOf(params.error, 'Failed to load the REST schema') }),
    storeKeys: assign({ keys: (_, params: { output: ProjectApiInfo }) => keysOf(params.output), settingsError: null }),
    storeSettingsError: assign({ settingsError: (_, params: { error: unknown }) => messageOf(params.error, 'Failed to retrieve API keys') }),
    storeBuckets: assign({ buckets: (_, params: { output: Bucket[] }) => params.output, bucketsError: null }),
    storeBucketsError: assign({ bucketsError: (_, params: { error: unknown }) => messageOf(params.error, 'Failed to retrieve buckets') }),
    countBucketRetry: assign({ bucketRetries: ({ context }) => context.bucketRetries + 1 }),
    resetBucketRetries: assign({ bucketRetries: 0 }),
    storeFunctions: assign({ functions: (_, params: { output: FunctionResponse[] }) => params.output, functionsError: null }),
    storeFunctionsError: assign({ functionsError: (_, params: { error: unknown }) => messageOf(params.error, 'Failed to retrieve edge functions') }),
    storeJwtStatus: assign({ jwtStatus: (_, params: { status: JwtPhase }) => params.status }),
    storeCopiedSnippet: assign({ copiedSnippet: (_, params: { id: string }) => params.id }),
    copySnippet: sendTo('copySnippet', (_, params: { text: string }) => ({ type: 'clipboard.copy' as const, text: params.text })),
    copyKey: sendTo(
      (_, params: { key: 'anon' | 'service_role'; text: string }) => COPIERS[params.key],
      (_, params: { key: 'anon' | 'service_role'; text: string }) => ({ type: 'clipboard.copy' as const, text: params.text }),
    ),
  },
  delays: {
    /** The time-out of the reads the platform answers from its own store (the keys, the functions). */
    requestTimeout: 10_000,
    /**
     * The time-out of the reads the platform answers from the project's own database (the REST schema, the buckets),
     * which it may have to open first (./projectDatabaseTimeout.ts).
     */
    projectDatabaseTimeout: PROJECT_DATABASE_TIMEOUT_MS,
    /** Spec 8: the buckets are read again after 1 s, 2 s, 4 s (./bucketRetries.ts). */
    bucketRetryDelay: ({ context }) => bucketRetryDelay(context.bucketRetries),
  },
}).createMachine({
  id: 'apiDocs',
  context: ({ input }) => {
    const sections = availableSections(input.permissions, input.features)
    return {
      ref: input.ref,
      mode: input.mode,
      sections,
      ...placeOf(input.url, sections),
      url: null,
      docs: null,
      schemaError: null,
      keys: null,
      settingsError: null,
      buckets: null,
      bucketsError: null,
      bucketRetries: 0,
      functions: null,
      functionsError: null,
      copiedSnippet: null,
      customUrl: null,
      canReadKeys: input.permissions.includes('service_api_keys:read'),
      jwtStatus: 'unknown',
    }
  },
  on: {
    'customUrl.changed': { actions: assign({ customUrl: ({ event }) => event.customUrl }) },
  },
  initial: 'open',
  states: {
    closed: {
      on: {
        'panel.open': {
          target: 'open',
          actions: { type: 'writeUrl', params: ({ context }) => ({ url: urlOf(context), replace: false }) },
        },
        'url.changed': [
          {
            guard: { type: 'opensPanelExactly', params: ({ event }) => ({ url: event.url }) },
            target: 'open',
            actions: { type: 'applyUrl', params: ({ event }) => ({ url: event.url }) },
          },
          {
            guard: { type: 'opensPanel', params: ({ event }) => ({ url: event.url }) },
            target: 'open',
            actions: [
              { type: 'applyUrl', params: ({ event }) => ({ url: event.url }) },
              { type: 'writeUrl', params: ({ context, event }) => correctedUrl(context, event.url) },
            ],
          },
          { actions: { type: 'storeUrl', params: ({ event }) => ({ url: event.url }) } },
        ],
      },
    },
    open: {
      type: 'parallel',
      entry: 'forgetResources',
      invoke: [
        { id: 'copySnippet', src: 'copyButton' },
        { id: COPIERS.anon, src: 'copyButton' },
        { id: COPIERS.service_role, src: 'copyButton' },
      ],
      on: {
        'url.changed': [
          { guard: { type: 'isReportedUrl', params: ({ event }) => ({ url: event.url }) } },
          {
            guard: { type: 'closesPanel', params: ({ event }) => ({ url: event.url }) },
            target: 'closed',
            actions: { type: 'storeUrl', params: ({ event }) => ({ url: event.url }) },
          },
          {
            guard: { type: 'isExactUrl', params: ({ event }) => ({ url: event.url }) },
            actions: { type: 'applyUrl', params: ({ event }) => ({ url: event.url }) },
          },
          {
            actions: [
              { type: 'applyUrl', params: ({ event }) => ({ url: event.url }) },
              { type: 'writeUrl', params: ({ context, event }) => correctedUrl(context, event.url) },
            ],
          },
        ],
        'docs.show': {
          guard: { type: 'isAvailable', params: ({ event }) => ({ section: event.section, item: event.item }) },
          actions: [
            { type: 'storePlace', params: ({ event }) => ({ section: event.section, item: event.item }) },
            { type: 'writeUrl', params: ({ context, event }) => ({ url: urlOf({ ...context, section: event.section, item: event.item }), replace: false }) },
          ],
        },
        'language.select': {
          actions: [
            { type: 'storeLanguage', params: ({ event }) => ({ language: event.language }) },
            { type: 'writeUrl', params: ({ context, event }) => ({ url: urlOf({ ...context, language: event.language }), replace: true }) },
          ],
        },
        'snippet.copy': {
          actions: [
            { type: 'storeCopiedSnippet', params: ({ event }) => ({ id: event.id }) },
            { type: 'copySnippet', params: ({ event }) => ({ text: event.text }) },
          ],
        },
        'key.copy': {
          guard: { type: 'mayCopyKey', params: ({ event }) => ({ key: event.key }) },
          actions: {
            type: 'copyKey',
            params: ({ context, event }) => ({ key: event.key, text: (event.key === 'anon' ? context.keys?.anon : context.keys?.serviceRole) ?? '' }),
          },
        },
        'panel.close': {
          guard: 'isDialog',
          target: 'closed',
          actions: { type: 'writeUrl', params: { url: NO_DOCS_URL, replace: false } },
        },
      },
      states: {
        keys: {
          initial: 'hidden',
          // Whatever the new status, shown keys are hidden again (as settings/api masks them).
          on: { 'jwt.status.changed': { target: '.hidden', actions: { type: 'storeJwtStatus', params: ({ event }) => ({ status: event.status }) } } },
          states: {
            hidden: { on: { 'keys.show': { guard: 'mayShowKeys', target: 'shown' } } },
            shown: { on: { 'keys.hide': 'hidden' } },
          },
        },
        jwt: {
          initial: 'checking',
          states: {
            checking: { always: [{ guard: 'mayReadKeys', target: 'watching' }, { target: 'notPermitted' }] },
            /** No service_api_keys:read: the keys are never usable here, so the status is never read. */
            notPermitted: {},
            watching: {
              invoke: { id: 'jwtSecret', src: 'jwtSecret', input: ({ context }) => ({ ref: context.ref, canUpdate: false }) },
            },
          },
        },
        // A JWT secret update ended updated: the REST schema is read again (a read under way is abandoned).
        schema: {
          ...read({ src: 'fetchRestSchema', store: 'storeDocs', accepts: 'isReadableSchema', reject: 'storeUnreadableSchema', storeError: 'storeSchemaError', retryEvent: 'schema.retry', timeout: 'projectDatabaseTimeout' }),
          on: { 'docs.refresh': { target: '.loading', reenter: true } },
        },
        // A JWT secret update ended updated: its new keys are read.
        settings: {
          ...read({ src: 'fetchApiKeyInfo', store: 'storeKeys', storeError: 'storeSettingsError', retryEvent: 'settings.retry', timeout: 'requestTimeout' }),
          on: { 'docs.refresh': { target: '.loading', reenter: true } },
        },
        // Only with the Storage section; a failure is retried by the buckets' rule.
        buckets: onlyPermitted(
          'mayReadBuckets',
          readRetrying({
            src: 'fetchBuckets',
            store: 'storeBuckets',
            storeError: 'storeBucketsError',
            retryEvent: 'buckets.retry',
            timeout: 'projectDatabaseTimeout',
            retry: { guard: 'shouldRetryBuckets', count: 'countBucketRetry', reset: 'resetBucketRetries', delay: 'bucketRetryDelay' },
          }),
        ),
        // Only with the Edge Functions section.
        functions: onlyPermitted('mayReadFunctions', read({ src: 'fetchFunctions', store: 'storeFunctions', storeError: 'storeFunctionsError', retryEvent: 'functions.retry', timeout: 'requestTimeout' })),
      },
    },
  },
})

type ApiDocsSnapshot = SnapshotFrom<typeof apiDocsMachine>

/** A resource of the panel as the views show it. */
export type ResourceView<T> =
  | { phase: 'loading'; retry: number }
  | { phase: 'failed'; error: string }
  | { phase: 'loaded'; value: T }
  /** The person has no section that shows it: never read. */
  | { phase: 'notPermitted' }

export interface ApiDocsPlaceView {
  open: boolean
  mode: ApiDocsInput['mode']
  sections: ReadonlyArray<{ id: DocsSection; label: string }>
  section: DocsSection
  item: string | null
  language: DocsLanguage
  keysShown: boolean
}

const sectionEntries = new WeakMap<readonly DocsSection[], ReadonlyArray<{ id: DocsSection; label: string }>>()
function entriesOf(sections: readonly DocsSection[]) {
  let entries = sectionEntries.get(sections)
  if (!entries) sectionEntries.set(sections, (entries = sections.map((id) => ({ id, label: SECTION_LABELS[id] }))))
  return entries
}

export function selectApiDocsPlace(snapshot: ApiDocsSnapshot): ApiDocsPlaceView {
  const { context } = snapshot
  return {
    open: snapshot.matches('open'),
    mode: context.mode,
    sections: entriesOf(context.sections),
    section: context.section,
    item: context.item,
    language: context.language,
    keysShown: snapshot.matches({ open: { keys: 'shown' } }),
  }
}

type Region = 'schema' | 'settings' | 'buckets' | 'functions'

function resourceOf<T>(snapshot: ApiDocsSnapshot, region: Region, value: T | null, error: string | null): ResourceView<T> {
  // Each region's states are atomic: the region's value names the one it is in.
  const current = typeof snapshot.value === 'object' ? snapshot.value.open[region] : null
  const state = (name: string) => current === name
  if (state('notPermitted')) return { phase: 'notPermitted' }
  if (state('loaded') && value !== null) return { phase: 'loaded', value }
  if (state('failed')) return { phase: 'failed', error: error ?? 'Request failed' }
  return { phase: 'loading', retry: region === 'buckets' ? snapshot.context.bucketRetries : 0 }
}

export const selectRestDocs = (snapshot: ApiDocsSnapshot) => resourceOf(snapshot, 'schema', snapshot.context.docs, snapshot.context.schemaError)
/** What shows in the keys' place instead of them (spec 6, ./keyAccess.ts), or null. */
export const selectKeyNotice = (snapshot: ApiDocsSnapshot) => keyAccess(snapshot.context.canReadKeys, snapshot.context.jwtStatus).notice
export const selectProjectKeys = (snapshot: ApiDocsSnapshot) => resourceOf(snapshot, 'settings', snapshot.context.keys, snapshot.context.settingsError)
export const selectBuckets = (snapshot: ApiDocsSnapshot) => resourceOf(snapshot, 'buckets', snapshot.context.buckets, snapshot.context.bucketsError)
export const selectEdgeFunctions = (snapshot: ApiDocsSnapshot) => resourceOf(snapshot, 'functions', snapshot.context.functions, snapshot.context.functionsError)

/**
 * What the snippets carry: the project URL (the active custom domain's, else the settings'), and the real keys only
 * while shown (null: the snippets print a placeholder).
 */
export interface SnippetKeys {
  projectUrl: string | null
  anonKey: string | null
  serviceKey: string | null
}

export function selectSnippetKeys(snapshot: ApiDocsSnapshot): SnippetKeys {
  const keys = snapshot.context.keys
  const shown = snapshot.matches({ open: { keys: 'shown' } })
  return {
    projectUrl: snapshot.context.customUrl ?? keys?.projectUrl ?? null,
    anonKey: shown ? (keys?.anon ?? null) : null,
    serviceKey: shown ? (keys?.serviceRole ?? null) : null,
  }
}

/** Equality of flat view objects, for useSelector: a view rebuilt from the same values does not re-render. */
export function shallowEqual<T extends object>(a: T, b: T): boolean {
  if (a === b) return true
  const keys = Object.keys(a) as Array<keyof T>
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]))
}

export const selectCopiedSnippet = (snapshot: ApiDocsSnapshot) => snapshot.context.copiedSnippet
export const selectSnippetCopier = (snapshot: ApiDocsSnapshot) => snapshot.children.copySnippet
export const selectKeyCopier = (key: 'anon' | 'service_role') => (snapshot: ApiDocsSnapshot) => snapshot.children[COPIERS[key]]
