/**
 * Project API keys and configuration (settings/api, and the building screen). Polls the project settings until
 * they hold keys (a project still coming up has none) on a fixed beat whose slot is the request's time-out
 * (./polling.ts): a request every 2 s exactly, counted from the previous request's start; the 2 s time-out is the
 * whole beat, so a request still unanswered when the next beat comes is abandoned (its signal aborted), counted as
 * timed out, and the next goes out on the beat — polls never overlap nor drift. A failed, malformed or timed-out
 * answer shows 'Failed to retrieve API keys' and keeps polling; the last outcome stays on screen until an answer
 * arrives. The JWT secret flow runs as the child 'jwtSecret' and reports its status; after a successful update it
 * asks for a refetch ('settings.refresh').
 * Invariants: the service_role key and the JWT secret are masked until revealed; reveal and copy of a key need
 * service_api_keys:read and the JWT secret in the updated state; any status change masks them again.
 */
import { assign, fromPromise, sendParent, sendTo, setup, type SnapshotFrom } from 'xstate'
import type { ApiKeyTag, ProjectSettings } from '../src/contracts/keys'
import { copyButtonMachine } from './copyButton.machine'
import { jwtSecretMachine, type JwtPhase } from './jwtSecret.machine'
import { keyAccess, PERMISSION_TEXT, type JwtStatus } from './keyAccess'
import { onBeatAsSlot } from './polling'

interface ApiKeysInput {
  ref: string
  /** service_api_keys:read in the project's organization. */
  canReadKeys: boolean
  /** service_api_keys:read and projects:write. */
  canUpdateSecret: boolean
}

export type CopyTarget = ApiKeyTag | 'jwt_secret' | 'url'

interface Context extends ApiKeysInput {
  /**
   * The project URL of an active custom domain (https://{hostname}), shown and copied instead of the settings' one; it
   * answers after the panel started ('customUrl.changed'), null until then or without one.
   */
  customUrl: string | null
  settings: ProjectSettings | null
  /** The last request's failure, kept on screen while the next request is out; an answer clears it. */
  error: string | null
  jwtStatus: JwtStatus
}

type ApiKeysEvent =
  | { type: 'settings.refresh' }
  | { type: 'jwt.status.changed'; status: JwtPhase }
  | { type: 'serviceKey.reveal' }
  | { type: 'serviceKey.hide' }
  | { type: 'jwtSecret.reveal' }
  | { type: 'jwtSecret.hide' }
  | { type: 'value.copy'; key: CopyTarget }
  | { type: 'customUrl.changed'; customUrl: string | null }

/** The JWT secret flow as this machine's child: its reports and requests come up to this machine. */
export const jwtSecretChildMachine = jwtSecretMachine.provide({
  actions: {
    reportStatus: sendParent((_, params: { status: JwtPhase }) => ({ type: 'jwt.status.changed', status: params.status })),
    refreshSettings: sendParent({ type: 'settings.refresh' }),
  },
})

/** The copy button child of each value. */
const COPY_IDS = {
  anon: 'copyAnonKey',
  service_role: 'copyServiceRoleKey',
  jwt_secret: 'copyJwtSecret',
  url: 'copyUrl',
} as const satisfies Record<CopyTarget, string>

export const keyOf = (settings: ProjectSettings | null, tag: ApiKeyTag) =>
  settings?.services[0]?.service_api_keys.find((key) => key.tags.split(',').map((t) => t.trim()).includes(tag))?.api_key

const projectUrlOf = (settings: ProjectSettings | null, customUrl: string | null = null) => {
  const config = settings?.services[0]?.app_config
  return config ? (customUrl ?? `${config.protocol}://${config.endpoint}`) : undefined
}

function valueOf(settings: ProjectSettings | null, key: CopyTarget, customUrl: string | null = null): string | undefined {
  if (key === 'url') return projectUrlOf(settings, customUrl)
  if (key === 'jwt_secret') return settings?.project.jwt_secret
  return keyOf(settings, key)
}

const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Request failed')

export const apiKeysMachine = setup({
  types: {
    input: {} as ApiKeysInput,
    context: {} as Context,
    events: {} as ApiKeysEvent,
    children: {} as {
      jwtSecret: 'jwtSecret'
      fetchSettings: 'fetchSettings'
      copyAnonKey: 'copyButton'
      copyServiceRoleKey: 'copyButton'
      copyJwtSecret: 'copyButton'
      copyUrl: 'copyButton'
    },
  },
  actors: {
    fetchSettings: fromPromise<ProjectSettings, { ref: string }>(async () => {
      throw new Error('fetchSettings not provided')
    }),
    jwtSecret: jwtSecretChildMachine,
    copyButton: copyButtonMachine,
  },
  actions: {
    storeSettings: assign({ settings: (_, params: { settings: ProjectSettings }) => params.settings, error: null }),
    storeError: assign({ error: (_, params: { error: unknown }) => messageOf(params.error) }),
    recordTimeout: assign({ error: 'The request timed out' }),
    storeJwtStatus: assign({ jwtStatus: (_, params: { status: JwtPhase }) => params.status }),
    copyValue: sendTo(
      (_, params: { key: CopyTarget; text: string }) => COPY_IDS[params.key],
      (_, params: { key: CopyTarget; text: string }) => ({ type: 'clipboard.copy' as const, text: params.text }),
    ),
  },
  delays: {
    /**
     * Spec: settings polled every 2 s until keys exist. The platform's default request time-out (2 s, spec section 9)
     * equals it, so the beat is each request's slot (onBeatAsSlot in ./polling.ts): no time-out timer of its own.
     */
    pollInterval: 2_000,
  },
  guards: {
    hasKeys: (_, params: { settings: ProjectSettings }) => keyOf(params.settings, 'anon') !== undefined,
    maySeeSecrets: ({ context }, params: { key: CopyTarget }) =>
      keyAccess(context.canReadKeys, context.jwtStatus).usable && valueOf(context.settings, params.key) !== undefined,
    mayCopy: ({ context }, params: { key: CopyTarget }) =>
      params.key === 'url'
        ? valueOf(context.settings, 'url', context.customUrl) !== undefined
        : keyAccess(context.canReadKeys, context.jwtStatus).usable && valueOf(context.settings, params.key) !== undefined,
  },
}).createMachine({
  id: 'apiKeys',
  context: ({ input }) => ({ ...input, customUrl: null, settings: null, error: null, jwtStatus: 'unknown' }),
  invoke: {
    id: 'jwtSecret',
    src: 'jwtSecret',
    input: ({ context }) => ({ ref: context.ref, canUpdate: context.canUpdateSecret }),
  },
  on: {
    'jwt.status.changed': { actions: { type: 'storeJwtStatus', params: ({ event }) => ({ status: event.status }) } },
    // The custom domain's answer can come after the panel started: its URL is shown and copied from then on, and
    // nothing under way (the settings' poll, a JWT secret update) starts again.
    'customUrl.changed': { actions: assign({ customUrl: ({ event }) => event.customUrl }) },
  },
  initial: 'polling',
  states: {
    // The fixed beat (./polling.ts): a request at once, then every 2 s from the previous one's start; the beat is
    // the time-out.
    polling: {
      ...onBeatAsSlot('pollInterval', '#apiKeys.polling.requesting', 'recordTimeout'),
      states: {
        requesting: {
          invoke: {
            id: 'fetchSettings',
            src: 'fetchSettings',
            input: ({ context }) => ({ ref: context.ref }),
            onDone: [
              {
                guard: { type: 'hasKeys', params: ({ event }) => ({ settings: event.output }) },
                target: '#apiKeys.ready',
                actions: { type: 'storeSettings', params: ({ event }) => ({ settings: event.output }) },
              },
              // No keys yet: the project is still setting up.
              { target: 'settled', actions: { type: 'storeSettings', params: ({ event }) => ({ settings: event.output }) } },
            ],
            onError: { target: 'settled', actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        /** Answered without keys, or failed: the next request goes out on the beat. */
        settled: {},
      },
    },
    ready: {
      type: 'parallel',
      invoke: [
        { id: COPY_IDS.anon, src: 'copyButton' },
        { id: COPY_IDS.service_role, src: 'copyButton' },
        { id: COPY_IDS.jwt_secret, src: 'copyButton' },
        { id: COPY_IDS.url, src: 'copyButton' },
      ],
      on: {
        'settings.refresh': 'polling',
        // Whatever the new status, revealed secrets are masked again.
        'jwt.status.changed': {
          target: 'ready',
          reenter: true,
          actions: { type: 'storeJwtStatus', params: ({ event }) => ({ status: event.status }) },
        },
        'value.copy': {
          guard: { type: 'mayCopy', params: ({ event }) => ({ key: event.key }) },
          actions: {
            type: 'copyValue',
            params: ({ context, event }) => ({ key: event.key, text: valueOf(context.settings, event.key, context.customUrl) ?? '' }),
          },
        },
      },
      states: {
        serviceKey: {
          initial: 'masked',
          states: {
            masked: {
              on: { 'serviceKey.reveal': { guard: { type: 'maySeeSecrets', params: { key: 'service_role' } }, target: 'revealed' } },
            },
            revealed: { on: { 'serviceKey.hide': 'masked' } },
          },
        },
        jwtSecret: {
          initial: 'masked',
          states: {
            masked: {
              on: { 'jwtSecret.reveal': { guard: { type: 'maySeeSecrets', params: { key: 'jwt_secret' } }, target: 'revealed' } },
            },
            revealed: { on: { 'jwtSecret.hide': 'masked' } },
          },
        },
      },
    },
  },
})

export { FAILED_TEXT, PERMISSION_TEXT, UPDATING_TEXT } from './keyAccess'

type ApiKeysSnapshot = SnapshotFrom<typeof apiKeysMachine>

/** A value as the panel shows it: the value itself, masked, or a message in its place. */
export type ShownValue =
  | { kind: 'value'; text: string }
  | { kind: 'masked' }
  | { kind: 'message'; text: string }

export interface KeyRowView {
  tag: ApiKeyTag
  shown: ShownValue
  revealable: boolean
  revealed: boolean
}

type ApiKeysView =
  | { phase: 'retrieving' }
  | { phase: 'failed' }
  | { phase: 'ready'; rows: KeyRowView[] }

function shownSecret(context: Context, value: string | undefined, revealed: boolean): ShownValue {
  const { notice } = keyAccess(context.canReadKeys, context.jwtStatus)
  if (notice !== null) return { kind: 'message', text: notice }
  if (value === undefined) return { kind: 'message', text: PERMISSION_TEXT }
  return revealed ? { kind: 'value', text: value } : { kind: 'masked' }
}

/** Still polling after a failure: it stays on screen while the next request is out, until an answer replaces it. */
const isFailing = (snapshot: ApiKeysSnapshot) => snapshot.matches('polling') && snapshot.context.error !== null

export function selectApiKeysView(snapshot: ApiKeysSnapshot): ApiKeysView {
  if (isFailing(snapshot)) return { phase: 'failed' }
  if (!snapshot.matches('ready')) return { phase: 'retrieving' }
  const { context } = snapshot
  const anon = keyOf(context.settings, 'anon')
  const anonShown = shownSecret(context, anon, true)
  const serviceRevealed = snapshot.matches({ ready: { serviceKey: 'revealed' } })
  return {
    phase: 'ready',
    rows: [
      { tag: 'anon', shown: anonShown, revealable: false, revealed: anonShown.kind === 'value' },
      {
        tag: 'service_role',
        shown: shownSecret(context, keyOf(context.settings, 'service_role'), serviceRevealed),
        revealable: true,
        revealed: serviceRevealed,
      },
    ],
  }
}

type ProjectConfigView =
  | { phase: 'retrieving'; url: string | null }
  | { phase: 'failed' }
  | { phase: 'ready'; url: string | null; jwtSecret: ShownValue; revealed: boolean }

export function selectProjectConfigView(snapshot: ApiKeysSnapshot): ProjectConfigView {
  if (isFailing(snapshot)) return { phase: 'failed' }
  const url = projectUrlOf(snapshot.context.settings, snapshot.context.customUrl) ?? null
  if (!snapshot.matches('ready')) return { phase: 'retrieving', url }
  const revealed = snapshot.matches({ ready: { jwtSecret: 'revealed' } })
  return { phase: 'ready', url, jwtSecret: shownSecret(snapshot.context, snapshot.context.settings?.project.jwt_secret, revealed), revealed }
}

/** The copy button of one value: a child of the ready state, absent before. */
export const selectCopier = (key: CopyTarget) => (snapshot: ApiKeysSnapshot) => snapshot.children[COPY_IDS[key]]

/** The JWT secret flow, the child that lives as long as the API keys flow. */
export const selectJwtSecretActor = (snapshot: ApiKeysSnapshot) => snapshot.children.jwtSecret
