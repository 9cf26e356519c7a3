/**
 * JWT secret: the status of the project's JWT secret and its rotation. Reads the update status once; while an
 * update is running polls it on a fixed beat whose slot is the request's time-out (./polling.ts): every 1 s exactly,
 * counted from the previous read's start, each read abandoned (its signal aborted) when the next beat comes, as the
 * 1 s beat is shorter than the 2 s time-out — so polls never overlap nor drift. 'Generate a new JWT secret' opens a
 * destructive confirmation (roll, or a custom secret of at least 32 characters); the request's answer starts the
 * polling. When the update ends updated, the parent is asked to refetch the settings (the PostgREST-related data).
 * Invariants: the parent always knows the last status read (reportStatus); a closed dialog or a refused request
 * re-reads the status, so the screen never trusts a guess; only members who may update can open the dialog.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import {
  JWT_SECRET_MIN_LENGTH,
  type JwtSecretUpdateAccepted,
  type JwtSecretUpdateBody,
  type JwtSecretUpdateStatusResponse,
} from '../src/contracts/keys'
import { onBeat } from './polling'

export type JwtPhase = 'updating' | 'updated' | 'failed'

interface JwtSecretInput {
  ref: string
  /** service_api_keys:read and projects:write in the project's organization. */
  canUpdate: boolean
}

interface Context {
  ref: string
  canUpdate: boolean
  changeTrackingId: string | null
  /** The refused request's message ('Failed to update JWT secret'). */
  error: string | null
}

type JwtSecretEvent =
  | { type: 'secret.generate' }
  | { type: 'secret.cancel' }
  | { type: 'secret.confirm'; jwt_secret?: string }

type StatusOutput = JwtSecretUpdateStatusResponse
const phaseOf = (output: StatusOutput): JwtPhase => output.jwtSecretUpdateStatus?.meta.status ?? 'updated'
const messageOf = (error: unknown) => (error instanceof Error && error.message ? error.message : 'Request failed')

export const jwtSecretMachine = setup({
  types: {
    input: {} as JwtSecretInput,
    context: {} as Context,
    events: {} as JwtSecretEvent,
    children: {} as { fetchJwtStatus: 'fetchJwtStatus'; pollJwtStatus: 'fetchJwtStatus'; updateJwtSecret: 'updateJwtSecret' },
  },
  actors: {
    fetchJwtStatus: fromPromise<StatusOutput, { ref: string }>(async () => {
      throw new Error('fetchJwtStatus not provided')
    }),
    updateJwtSecret: fromPromise<JwtSecretUpdateAccepted, { ref: string; body: JwtSecretUpdateBody }>(async () => {
      throw new Error('updateJwtSecret not provided')
    }),
  },
  actions: {
    /** Provided by the parent: the status it gates reveal and copy with. */
    reportStatus: (_, _params: { status: JwtPhase }) => {},
    /** Provided by the parent: refetch the settings (new keys) after a successful update. */
    refreshSettings: () => {},
  },
  delays: {
    /** Spec: JWT status polled every 1 s while updating. */
    statusPollInterval: 1_000,
    /** A one-off read of the status; a poll's read has the beat (1 s) as its slot. */
    requestTimeout: 2_000,
  },
  guards: {
    mayUpdate: ({ context }) => context.canUpdate,
    isPhase: (_, params: { output: StatusOutput; phase: JwtPhase }) => phaseOf(params.output) === params.phase,
    /** Absent = roll; present = a custom secret of at least 32 characters. */
    isAcceptableSecret: (_, params: { secret: string | undefined }) =>
      params.secret === undefined || params.secret.length >= JWT_SECRET_MIN_LENGTH,
  },
}).createMachine({
  id: 'jwtSecret',
  context: ({ input }) => ({ ref: input.ref, canUpdate: input.canUpdate, changeTrackingId: null, error: null }),
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        id: 'fetchJwtStatus',
        src: 'fetchJwtStatus',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: [
          {
            guard: { type: 'isPhase', params: ({ event }) => ({ output: event.output, phase: 'updating' as const }) },
            target: 'updating',
            actions: assign({ changeTrackingId: ({ event }) => event.output.jwtSecretUpdateStatus?.meta.change_tracking_id ?? null }),
          },
          { guard: { type: 'isPhase', params: ({ event }) => ({ output: event.output, phase: 'failed' as const }) }, target: 'failed' },
          { target: 'updated' },
        ],
        onError: 'checkFailed',
      },
      after: { requestTimeout: 'checkFailed' },
    },
    /** The status could not be read: reveal and copy stay as they were; read again shortly. */
    checkFailed: {
      after: { statusPollInterval: 'checking' },
    },
    updated: {
      entry: { type: 'reportStatus', params: { status: 'updated' } },
      on: { 'secret.generate': { guard: 'mayUpdate', target: 'confirming', actions: assign({ error: null }) } },
    },
    failed: {
      entry: { type: 'reportStatus', params: { status: 'failed' } },
      on: { 'secret.generate': { guard: 'mayUpdate', target: 'confirming', actions: assign({ error: null }) } },
    },
    confirming: {
      on: {
        'secret.cancel': 'checking',
        'secret.confirm': {
          guard: { type: 'isAcceptableSecret', params: ({ event }) => ({ secret: event.jwt_secret }) },
          target: 'requesting',
        },
      },
    },
    requesting: {
      invoke: {
        id: 'updateJwtSecret',
        src: 'updateJwtSecret',
        input: ({ context, event }) => {
          const secret = (event as Extract<JwtSecretEvent, { type: 'secret.confirm' }>).jwt_secret
          return { ref: context.ref, body: secret === undefined ? {} : { jwt_secret: secret } }
        },
        onDone: { target: 'updating', actions: assign({ changeTrackingId: ({ event }) => event.output.change_tracking_id }) },
        onError: { target: 'checking', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    updating: {
      entry: { type: 'reportStatus', params: { status: 'updating' } },
      initial: 'polling',
      states: {
        // The fixed beat (./polling.ts): a read every 1 s from the previous read's start, the first 1 s in. The
        // beat is shorter than the 2 s time-out, so the beat is the slot: a read unanswered after 1 s is abandoned.
        polling: {
          ...onBeat('statusPollInterval', 'settled'),
          states: {
            requesting: {
              invoke: {
                id: 'pollJwtStatus',
                src: 'fetchJwtStatus',
                input: ({ context }) => ({ ref: context.ref }),
                onDone: [
                  {
                    guard: { type: 'isPhase', params: ({ event }) => ({ output: event.output, phase: 'updated' as const }) },
                    target: '#jwtSecret.updated',
                    actions: 'refreshSettings',
                  },
                  { guard: { type: 'isPhase', params: ({ event }) => ({ output: event.output, phase: 'failed' as const }) }, target: '#jwtSecret.failed' },
                  { target: 'settled' },
                ],
                onError: 'settled',
              },
            },
            /** Answered, failed or abandoned: the next read goes out on the beat. */
            settled: {},
          },
        },
      },
    },
  },
})


interface JwtSecretView {
  /** 'unknown' until the status has been read. */
  phase: JwtPhase | 'unknown'
  dialogOpen: boolean
  submitting: boolean
  /** The toast-like notice the panel shows, verbatim from the spec. */
  notice: { tone: 'progress' | 'error'; title: string; detail: string | null } | null
}

export function selectJwtSecretView(snapshot: SnapshotFrom<typeof jwtSecretMachine>): JwtSecretView {
  const requesting = snapshot.matches('requesting')
  const phase: JwtSecretView['phase'] = snapshot.matches('updating')
    ? 'updating'
    : snapshot.matches('failed')
      ? 'failed'
      : snapshot.matches('updated') || snapshot.matches('confirming') || requesting
        ? 'updated'
        : 'unknown'
  let notice: JwtSecretView['notice'] = null
  if (requesting || phase === 'updating') notice = { tone: 'progress', title: 'Updating JWT secret...', detail: null }
  else if (phase === 'failed') notice = { tone: 'error', title: 'JWT secret update failed', detail: null }
  else if (snapshot.context.error !== null) notice = { tone: 'error', title: 'Failed to update JWT secret', detail: snapshot.context.error }
  return { phase, dialogOpen: snapshot.matches('confirming') || requesting, submitting: requesting, notice }
}
