/**
 * A function's page (/project/{ref}/functions/{slug}: overview, code, logs): the function and its deployed files
 * load together; then four regions run side by side — its figures (./functionStats.machine, a child), its settings (the verify_jwt switch, and deleting the function
 * after a confirmation, which ends the page), its code (viewed, edited
 * as a draft of its files, deployed as a new version) and its logs (polled on a fixed beat, filtered by level and text).
 * Invariants: a failed or timed-out change keeps what was typed and says why; a deploy replaces the shown files only
 * once the platform has taken them; the logs poll never overlaps (./polling) and a failed poll keeps the last entries.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { FunctionFile, FunctionFiles } from '../src/contracts/functionRuntime'
import type { FunctionLogs, FunctionResponse } from '../src/contracts/functions'
import { functionStatsMachine } from './functionStats.machine'
import { onBeat, slot } from './polling'

export type LogEntry = FunctionLogs['result'][number]
export type LogLevelFilter = 'all' | LogEntry['level']

export interface FunctionDetail {
  fn: FunctionResponse
  files: FunctionFiles
  /** The project's URL (`{protocol}://{endpoint}`): the function answers under `{projectUrl}/functions/v1/{slug}`. */
  projectUrl: string
}

interface Context {
  ref: string
  slug: string
  fn: FunctionResponse | null
  files: FunctionFiles | null
  projectUrl: string
  loadError: string | null
  /** The file shown (or edited). */
  selected: string | null
  draft: FunctionFile[]
  deployError: string | null
  settingsError: string | null
  deleteError: string | null
  logs: LogEntry[]
  logsError: string | null
  filter: { level: LogLevelFilter; text: string }
}

type FunctionDetailEvent =
  | { type: 'function.retry' }
  | { type: 'verifyJwt.set'; value: boolean }
  | { type: 'function.delete' }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'code.select'; name: string }
  | { type: 'code.edit' }
  | { type: 'code.change'; name: string; content: string }
  | { type: 'code.cancel' }
  | { type: 'code.deploy' }
  | { type: 'logs.refresh' }
  | { type: 'logs.pause' }
  | { type: 'logs.resume' }
  | { type: 'logs.filter'; level?: LogLevelFilter; text?: string }

const TIMED_OUT = 'The request timed out'
const messageOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback)

export const functionDetailMachine = setup({
  types: {
    input: {} as { ref: string; slug: string },
    context: {} as Context,
    events: {} as FunctionDetailEvent,
    children: {} as {
      loadFunction: 'loadFunction'
      setVerifyJwt: 'setVerifyJwt'
      deleteFunction: 'deleteFunction'
      deployFunction: 'deployFunction'
      fetchLogs: 'fetchLogs'
      functionStats: 'functionStats'
    },
  },
  actors: {
    loadFunction: fromPromise<FunctionDetail, { ref: string; slug: string }>(async () => {
      throw new Error('loadFunction not provided')
    }),
    setVerifyJwt: fromPromise<FunctionResponse, { ref: string; slug: string; value: boolean }>(async () => {
      throw new Error('setVerifyJwt not provided')
    }),
    deleteFunction: fromPromise<void, { ref: string; slug: string }>(async () => {
      throw new Error('deleteFunction not provided')
    }),
    deployFunction: fromPromise<FunctionResponse, { ref: string; slug: string; entrypoint_path: string; files: FunctionFile[] }>(async () => {
      throw new Error('deployFunction not provided')
    }),
    fetchLogs: fromPromise<LogEntry[], { ref: string; slug: string }>(async () => {
      throw new Error('fetchLogs not provided')
    }),
    /** The overview's figures: a machine of their own, started once the function (whose id they are asked by) is here. */
    functionStats: functionStatsMachine,
  },
  actions: {
    storeLoadError: assign((_, params: { error: string }) => ({ loadError: params.error })),
    storeSettingsError: assign((_, params: { error: string }) => ({ settingsError: params.error })),
    storeDeleteError: assign((_, params: { error: string }) => ({ deleteError: params.error })),
    storeDeployError: assign((_, params: { error: string }) => ({ deployError: params.error })),
    storeLogsError: assign((_, params: { error: string }) => ({ logsError: params.error })),
  },
  delays: {
    requestTimeout: 10_000,
    /** A deploy bundles on the server: longer than a read. */
    deployTimeout: 60_000,
    logPollInterval: 3_000,
    logRequestTimeout: 2_500,
  },
}).createMachine({
  id: 'functionDetail',
  context: ({ input }) => ({
    ref: input.ref,
    slug: input.slug,
    fn: null,
    files: null,
    projectUrl: '',
    loadError: null,
    selected: null,
    draft: [],
    deployError: null,
    settingsError: null,
    deleteError: null,
    logs: [],
    logsError: null,
    filter: { level: 'all', text: '' },
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadFunction',
        src: 'loadFunction',
        input: ({ context }) => ({ ref: context.ref, slug: context.slug }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ fn: event.output.fn, files: event.output.files, projectUrl: event.output.projectUrl, selected: event.output.files.entrypoint_path, loadError: null })),
        },
        onError: { target: 'failed', actions: { type: 'storeLoadError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load the function') }) } },
      },
      after: { requestTimeout: { target: 'failed', actions: { type: 'storeLoadError', params: { error: TIMED_OUT } } } },
    },
    failed: {
      on: { 'function.retry': 'loading' },
    },
    ready: {
      type: 'parallel',
      on: {
        'code.select': { actions: assign(({ event }) => ({ selected: event.name })) },
        'logs.filter': { actions: assign(({ context, event }) => ({ filter: { level: event.level ?? context.filter.level, text: event.text ?? context.filter.text } })) },
      },
      states: {
        settings: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'verifyJwt.set': { target: 'saving', actions: assign({ settingsError: null }) },
                'function.delete': { target: 'confirmingDelete', actions: assign({ deleteError: null }) },
              },
            },
            confirmingDelete: {
              on: {
                'delete.confirm': { target: 'deleting', actions: assign({ deleteError: null }) },
                'delete.cancel': { target: 'idle', actions: assign({ deleteError: null }) },
              },
            },
            deleting: {
              invoke: {
                id: 'deleteFunction',
                src: 'deleteFunction',
                input: ({ context }) => ({ ref: context.ref, slug: context.slug }),
                onDone: { target: '#functionDetail.deleted' },
                onError: { target: 'confirmingDelete', actions: { type: 'storeDeleteError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to delete the function') }) } },
              },
              after: { requestTimeout: { target: 'confirmingDelete', actions: { type: 'storeDeleteError', params: { error: TIMED_OUT } } } },
            },
            saving: {
              invoke: {
                id: 'setVerifyJwt',
                src: 'setVerifyJwt',
                input: ({ context, event }) => ({ ref: context.ref, slug: context.slug, value: event.type === 'verifyJwt.set' ? event.value : !(context.fn?.verify_jwt ?? true) }),
                onDone: { target: 'idle', actions: assign(({ event }) => ({ fn: event.output })) },
                onError: { target: 'idle', actions: { type: 'storeSettingsError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to update the function') }) } },
              },
              after: { requestTimeout: { target: 'idle', actions: { type: 'storeSettingsError', params: { error: TIMED_OUT } } } },
            },
          },
        },
        code: {
          initial: 'viewing',
          states: {
            viewing: {
              on: { 'code.edit': { target: 'editing', actions: assign(({ context }) => ({ draft: context.files?.files ?? [], deployError: null })) } },
            },
            editing: {
              on: {
                'code.change': {
                  actions: assign(({ context, event }) => ({ draft: context.draft.map((file) => (file.name === event.name ? { ...file, content: event.content } : file)) })),
                },
                'code.cancel': { target: 'viewing', actions: assign({ draft: [], deployError: null }) },
                'code.deploy': { target: 'deploying', actions: assign({ deployError: null }) },
              },
            },
            deploying: {
              invoke: {
                id: 'deployFunction',
                src: 'deployFunction',
                input: ({ context }) => ({ ref: context.ref, slug: context.slug, entrypoint_path: context.files?.entrypoint_path ?? 'index.ts', files: context.draft }),
                onDone: {
                  target: 'viewing',
                  actions: assign(({ context, event }) => ({
                    fn: event.output,
                    files: { entrypoint_path: context.files?.entrypoint_path ?? 'index.ts', version: event.output.version, files: context.draft },
                    draft: [],
                  })),
                },
                onError: { target: 'editing', actions: { type: 'storeDeployError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to deploy the function') }) } },
              },
              after: { deployTimeout: { target: 'editing', actions: { type: 'storeDeployError', params: { error: TIMED_OUT } } } },
            },
          },
        },
        stats: {
          invoke: { id: 'functionStats', src: 'functionStats', input: ({ context }) => ({ ref: context.ref, functionId: context.fn?.id ?? '' }) },
        },
        // The live tail, which the person may pause (to read without the list moving) and resume (a poll at once).
        logs: {
          initial: 'live',
          states: {
            live: {
              ...onBeat('logPollInterval'),
              on: { 'logs.refresh': { target: '.requesting', reenter: true }, 'logs.pause': 'paused' },
              states: {
                requesting: {
                  invoke: {
                    id: 'fetchLogs',
                    src: 'fetchLogs',
                    input: ({ context }) => ({ ref: context.ref, slug: context.slug }),
                    onDone: { target: 'settled', actions: assign(({ event }) => ({ logs: event.output, logsError: null })) },
                    onError: { target: 'settled', actions: { type: 'storeLogsError', params: ({ event }) => ({ error: messageOf(event.error, 'Failed to load the logs') }) } },
                  },
                  after: slot('logRequestTimeout'),
                },
                settled: {},
              },
            },
            // No beat and no request: the entries stay as last read.
            paused: { on: { 'logs.resume': 'live' } },
          },
        },
      },
    },
    /** The function is gone: the page moves on to the list. */
    deleted: { type: 'final' },
  },
})

export type FunctionDetailSnapshot = SnapshotFrom<typeof functionDetailMachine>

export type FunctionDetailView =
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | { phase: 'deleted' }
  | {
      phase: 'ready'
      fn: FunctionResponse
      url: string
      entrypoint: string
      savingSettings: boolean
      settingsError: string | null
      remove: { deleting: boolean; error: string | null } | null
    }

export function selectFunctionDetailView(snapshot: FunctionDetailSnapshot): FunctionDetailView {
  const { fn, files, projectUrl, loadError, settingsError, deleteError } = snapshot.context
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('deleted')) return { phase: 'deleted' }
  if (snapshot.matches('failed') || fn === null || files === null) return { phase: 'failed', error: loadError ?? 'Failed to load the function' }
  const url = `${projectUrl.replace(/\/+$/, '')}/functions/v1/${fn.slug}`
  return { phase: 'ready', fn, url, entrypoint: files.entrypoint_path, savingSettings: snapshot.matches({ ready: { settings: 'saving' } }),
    settingsError,
    remove:
      snapshot.matches({ ready: { settings: 'confirmingDelete' } }) || snapshot.matches({ ready: { settings: 'deleting' } })
        ? { deleting: snapshot.matches({ ready: { settings: 'deleting' } }), error: deleteError }
        : null,
  }
}

export type FunctionCodeView =
  | null
  | { mode: 'viewing' | 'editing' | 'deploying'; files: FunctionFile[]; selected: FunctionFile | null; entrypoint: string; version: number; error: string | null; changed: boolean }

export function selectFunctionCodeView(snapshot: FunctionDetailSnapshot): FunctionCodeView {
  const { files, draft, selected, deployError } = snapshot.context
  if (!snapshot.matches('ready') || files === null) return null
  const mode = snapshot.matches({ ready: { code: 'viewing' } }) ? 'viewing' : snapshot.matches({ ready: { code: 'editing' } }) ? 'editing' : 'deploying'
  const shown = mode === 'viewing' ? files.files : draft
  const changed = mode !== 'viewing' && draft.some((file, i) => file.content !== files.files[i]?.content)
  return { mode, files: shown, selected: shown.find((file) => file.name === selected) ?? shown[0] ?? null, entrypoint: files.entrypoint_path, version: files.version, error: deployError, changed }
}

/** The entries shown: the level chosen (all, or one) and the text, case-insensitive, in the message. Newest first. */
export function filterLogs(logs: LogEntry[], filter: Context['filter']): LogEntry[] {
  const text = filter.text.trim().toLowerCase()
  return logs.filter((entry) => (filter.level === 'all' || entry.level === filter.level) && (text === '' || entry.event_message.toLowerCase().includes(text))).reverse()
}

export interface FunctionLogsView {
  entries: LogEntry[]
  total: number
  filter: Context['filter']
  refreshing: boolean
  /** The live tail is paused: no polling until resumed. */
  paused: boolean
  error: string | null
  invocations: { count: number; failed: number; last: LogEntry | null }
}

export function selectFunctionLogsView(snapshot: FunctionDetailSnapshot): FunctionLogsView {
  const { logs, filter, logsError } = snapshot.context
  const invocations = logs.filter((entry) => entry.kind === 'invocation')
  return {
    entries: filterLogs(logs, filter),
    total: logs.length,
    filter,
    refreshing: snapshot.matches({ ready: { logs: { live: 'requesting' } } }),
    paused: snapshot.matches({ ready: { logs: 'paused' } }),
    error: logsError,
    invocations: { count: invocations.length, failed: invocations.filter((entry) => (entry.status ?? 0) >= 400).length, last: invocations.at(-1) ?? null },
  }
}
