/**
 * The project home's 'Connect' dialog: where the project's Postgres port is (GET /v1/projects/{ref}/config/database/
 * pooler), as connection strings for a method (direct, session pooler, transaction pooler) and a client (URI, psql,
 * JDBC, .NET, Prisma, Drizzle, SQLAlchemy), each with a Copy button.
 * The platform keeps only the password's verifier: every string says [YOUR-PASSWORD] where it goes.
 * Invariants: the settings load each time the dialog opens (a reset or a new port shows at once); a load unanswered
 * after requestTimeout is abandoned and reported with a retry; 'Copied' shows for copiedFor after a copy.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate'
import type { PoolerConfig } from '../src/contracts/wire'

export const CONNECT_METHODS = ['direct', 'session', 'transaction'] as const
export type ConnectMethod = (typeof CONNECT_METHODS)[number]
export const CONNECT_CLIENTS = ['uri', 'psql', 'jdbc', 'dotnet', 'prisma', 'drizzle', 'sqlalchemy'] as const
export type ConnectClient = (typeof CONNECT_CLIENTS)[number]

export const METHOD_LABELS: Record<ConnectMethod, string> = {
  direct: 'Direct connection',
  session: 'Session pooler',
  transaction: 'Transaction pooler',
}
export const CLIENT_LABELS: Record<ConnectClient, string> = {
  uri: 'URI',
  psql: 'PSQL',
  jdbc: 'JDBC',
  dotnet: '.NET',
  prisma: 'Prisma',
  drizzle: 'Drizzle',
  sqlalchemy: 'SQLAlchemy',
}

/** What each method means on this platform, where one port serves them all. */
export const METHOD_NOTES: Record<ConnectMethod, string> = {
  direct: 'Ideal for applications with persistent and long-lived connections, such as those running on virtual machines or long-standing containers.',
  session: 'Only recommended as an alternative to Direct Connection, when connecting via an IPv4 network.',
  transaction: 'Ideal for stateless applications like serverless functions where each interaction with Postgres is brief and isolated.',
}

/** The connection string for a client, from the pooler settings (one port serves every method here). */
export function connectionSnippet(pooler: PoolerConfig, method: ConnectMethod, client: ConnectClient): string {
  const { db_user: user, db_host: host, db_port: port, db_name: name } = pooler
  const uri = `postgresql://${user}:[YOUR-PASSWORD]@${host}:${port}/${name}?sslmode=disable`
  switch (client) {
    case 'uri':
      return uri
    case 'psql':
      return `psql "${uri}"`
    case 'jdbc':
      return `jdbc:postgresql://${host}:${port}/${name}?user=${user}&password=[YOUR-PASSWORD]&sslmode=disable`
    case 'dotnet':
      return `User Id=${user};Password=[YOUR-PASSWORD];Server=${host};Port=${port};Database=${name};SSL Mode=Disable`
    case 'prisma':
      // Prisma's prepared statements outlive a transaction: in transaction mode it is told it talks to a pooler.
      return method === 'transaction'
        ? `DATABASE_URL="postgresql://${user}:[YOUR-PASSWORD]@${host}:${port}/${name}?sslmode=disable&pgbouncer=true"\nDIRECT_URL="${uri}"`
        : `DATABASE_URL="${uri}"\nDIRECT_URL="${uri}"`
    case 'drizzle':
      return method === 'transaction'
        ? `DATABASE_URL="${uri}"\n\n// Transaction mode keeps no prepared statements between transactions\nconst client = postgres(process.env.DATABASE_URL, { prepare: false })\nconst db = drizzle(client)`
        : `DATABASE_URL="${uri}"\n\nconst client = postgres(process.env.DATABASE_URL)\nconst db = drizzle(client)`
    case 'sqlalchemy':
      return `postgresql+psycopg2://${user}:[YOUR-PASSWORD]@${host}:${port}/${name}?sslmode=disable`
  }
}

interface Context {
  ref: string
  pooler: PoolerConfig | null
  error: string | null
  method: ConnectMethod
  client: ConnectClient
}

type ConnectEvent =
  | { type: 'connect.open' }
  | { type: 'connect.close' }
  | { type: 'connect.retry' }
  | { type: 'connect.method'; method: ConnectMethod }
  | { type: 'connect.client'; client: ConnectClient }
  | { type: 'connect.copy' }

export const connectMachine = setup({
  types: {
    input: {} as { ref: string },
    context: {} as Context,
    events: {} as ConnectEvent,
    children: {} as { fetchPoolerConfig: 'fetchPoolerConfig'; copyText: 'copyText' },
  },
  actors: {
    fetchPoolerConfig: fromPromise<PoolerConfig[], { ref: string }>(async () => {
      throw new Error('fetchPoolerConfig not provided')
    }),
    copyText: fromPromise<void, { text: string }>(async () => {
      throw new Error('copyText not provided')
    }),
  },
  guards: {
    isMethod: (_, params: { method: string }) => (CONNECT_METHODS as readonly string[]).includes(params.method),
    isClient: (_, params: { client: string }) => (CONNECT_CLIENTS as readonly string[]).includes(params.client),
  },
  delays: {
    requestTimeout: 10_000,
    copiedFor: 2_000,
  },
}).createMachine({
  id: 'connect',
  context: ({ input }) => ({ ref: input.ref, pooler: null, error: null, method: 'direct', client: 'uri' }),
  initial: 'closed',
  states: {
    closed: { on: { 'connect.open': 'loading' } },
    loading: {
      on: { 'connect.close': 'closed' },
      invoke: {
        id: 'fetchPoolerConfig',
        src: 'fetchPoolerConfig',
        input: ({ context }) => ({ ref: context.ref }),
        onDone: [
          { guard: ({ event }) => event.output.length > 0, target: 'ready', actions: assign({ pooler: ({ event }) => event.output[0], error: null }) },
          { target: 'failed', actions: assign({ error: 'The project has no connection settings' }) },
        ],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => (event.error instanceof Error && event.error.message ? event.error.message : 'Failed to retrieve the connection settings') }),
        },
      },
      after: { requestTimeout: { target: 'failed', actions: assign({ error: 'The request timed out' }) } },
    },
    failed: { on: { 'connect.retry': 'loading', 'connect.close': 'closed' } },
    ready: {
      on: {
        'connect.close': 'closed',
        'connect.method': { guard: { type: 'isMethod', params: ({ event }) => ({ method: event.method }) }, actions: assign({ method: ({ event }) => event.method }) },
        'connect.client': { guard: { type: 'isClient', params: ({ event }) => ({ client: event.client }) }, actions: assign({ client: ({ event }) => event.client }) },
      },
      initial: 'idle',
      states: {
        idle: { on: { 'connect.copy': 'copying' } },
        copying: {
          invoke: {
            id: 'copyText',
            src: 'copyText',
            input: ({ context }) => ({ text: connectionSnippet(context.pooler!, context.method, context.client) }),
            onDone: 'copied',
            onError: 'idle',
          },
        },
        copied: { after: { copiedFor: 'idle' } },
      },
    },
  },
})

export type ConnectView =
  | { phase: 'closed' }
  | { phase: 'loading' }
  | { phase: 'failed'; error: string }
  | { phase: 'ready'; method: ConnectMethod; client: ConnectClient; snippet: string; copyLabel: 'Copy' | 'Copied'; note: string }

export function selectConnectView(snapshot: SnapshotFrom<typeof connectMachine>): ConnectView {
  const { pooler, error, method, client } = snapshot.context
  if (snapshot.matches('closed')) return { phase: 'closed' }
  if (snapshot.matches('loading')) return { phase: 'loading' }
  if (snapshot.matches('failed') || !pooler) return { phase: 'failed', error: error ?? 'Failed to retrieve the connection settings' }
  return {
    phase: 'ready',
    method,
    client,
    snippet: connectionSnippet(pooler, method, client),
    copyLabel: snapshot.matches({ ready: 'copied' }) ? 'Copied' : 'Copy',
    note: METHOD_NOTES[method],
  }
}
