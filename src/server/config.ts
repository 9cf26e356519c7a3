import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { MAX_ACCESS_TOKEN_DAYS } from '../contracts/session'
import { PROCESS_LIVE_MS } from './core/processes'

/** Repository root (src/server/ is two levels down). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** Every setting of the local platform, read once from the environment. */
export interface ServerConfig {
  /** PORT; 0 picks a free port. */
  port: number
  /** HOST to bind; loopback by default (demo accounts have a known password). */
  host: string
  /** DATA_DIR: PGlite data folder, used when no DATABASE_URL. */
  dataDir: string
  /** DATABASE_URL: a real PostgreSQL server instead of PGlite. */
  databaseUrl?: string
  /** DEV_CONTROLS=1 turns on /dev. */
  devControls: boolean
  /** Built dashboard served at /. */
  distDir: string
  /**
   * PUBLIC_URL: base for project URLs shown to people, and a host the server answers for. Without it, URLs are
   * built on the server's own address (HOST and the port it listens on), never on a request's Host header.
   */
  publicUrl?: string
  /**
   * ALLOWED_HOSTS (comma-separated `name` or `name:port`): Host values served besides the loopback names
   * (localhost, 127.0.0.1, [::1], any port), HOST when it is a specific address, and PUBLIC_URL's host.
   * Any other Host is answered 421 (DNS-rebinding defence).
   */
  allowedHosts: string[]
  /** ALLOWED_ORIGINS (comma-separated): extra origins trusted for cookie-authenticated writes. */
  allowedOrigins: string[]
  /**
   * JWT_CACHE_ENTRIES: tokens (API keys, users' access tokens) the gateway keeps as verified, per process, so their
   * signature is checked once (gateway/identity.ts); the least recently used goes first. 0: every request verified.
   */
  jwtCacheEntries: number
  /** LOG_REQUESTS=1: one line per request (method, path, status, ms; never headers or bodies). */
  logRequests: boolean
  /** Durations of the lifecycle engine; later issues add pause, restore, upgrade steps here. */
  lifecycle: {
    /** LIFECYCLE_COMING_UP_MS: COMING_UP → ACTIVE_HEALTHY. */
    comingUpMs: number
    /** LIFECYCLE_TICK_MS: how often the engine looks for due transitions. */
    tickMs: number
    /** LIFECYCLE_JWT_UPDATE_MS: a JWT secret update, from the request to the re-signed keys. */
    jwtUpdateMs: number
    /** LIFECYCLE_GOING_DOWN_MS: GOING_DOWN → PAUSING after a pause. */
    goingDownMs: number
    /** LIFECYCLE_PAUSING_MS: PAUSING → INACTIVE. */
    pausingMs: number
    /** LIFECYCLE_RESTORING_MS: RESTORING → ACTIVE_HEALTHY (or RESTORATION_FAILED). */
    restoringMs: number
    /** LIFECYCLE_UPGRADE_STEP_MS: each of the eight steps of a Postgres upgrade. */
    upgradeStepMs: number
    /** LIFECYCLE_BRANCH_STEP_MS: the pause before each step of a preview branch's build (database, each migration, seed). */
    branchStepMs: number
    /**
     * LIFECYCLE_ADVANCE_WAIT_MS: how long the development control that makes a project's next transition due now
     * waits for the engine to record it (a new database on a busy machine takes seconds) before answering 504.
     */
    advanceWaitMs: number
    /**
     * LIFECYCLE_CONCURRENCY: projects whose transition work (a branch's migration, a new database) runs at once in
     * this process; a project's own rows always run one at a time. The app keeps it below PROJECT_DB_MAX_OPEN, so
     * requests always find a database slot.
     */
    concurrency: number
  }
  /** FREE_PROJECT_LIMIT: active projects a member may own in free organizations (restore and creation alike). */
  freeProjectLimit: number
  /**
   * ORG_MAX_DATABASE_BYTES: the sum of an organization's project databases' last measured sizes past which it may
   * create no new project (0: no cap).
   */
  orgMaxDatabaseBytes: number
  /** ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS: the expiry of a personal access token created without one. */
  accessTokenDefaultExpiryDays: number
  /**
   * GIT_MAX_PUSH_BYTES: the largest request body a `git push` (or fetch negotiation) may send to /git (a push over
   * it is refused 413 and stores nothing); at most GIT_BODY_CEILING (core/guards.ts).
   */
  gitMaxPushBytes: number
  /** Session cookie lifetime. */
  sessionTtlMs: number
  /**
   * TRUST_PROXY=1: the server runs behind a reverse proxy, so X-Forwarded-For / X-Forwarded-Proto are believed
   * (the client address that sign-in throttling counts, the cookies' Secure flag). Off by default: any client can
   * send those headers.
   */
  trustProxy: boolean
  /**
   * scrypt cost of new password hashes (stored with each hash; a weaker stored hash is rehashed at the next
   * sign-in). OWASP's minimum for scrypt by default. No environment variable lowers it: only code (the tests) can.
   */
  passwordHashCost: ScryptCost
  /** Sign-in and sign-up throttling; see src/server/features/session/throttle.ts for the policy. */
  signInThrottle: {
    /** SIGN_IN_WINDOW_SECONDS: the window the failures (and sign-ups) are counted in. */
    windowMs: number
    /**
     * SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ADDRESS: failed sign-ins for one e-mail from one client address in a window
     * before that pair gets 429 (a stranger's guesses lock the stranger, not the owner elsewhere).
     */
    maxPerPair: number
    /**
     * SIGN_IN_MAX_FAILURES_PER_ACCOUNT: failed sign-ins per e-mail from all addresses together in a window before
     * every address gets 429 (guessing spread over many addresses).
     */
    maxPerAccount: number
    /** SIGN_IN_MAX_FAILURES_PER_ADDRESS: failed sign-ins per client address in a window before 429. */
    maxPerAddress: number
    /** SIGN_UP_MAX_PER_ADDRESS: sign-ups (successful or not) per client address in a window before 429. */
    maxSignUpsPerAddress: number
  }
  /** SESSION_IDLE_TIMEOUT_MS: a session not used for this long ends (default 24 h). */
  sessionIdleTimeoutMs: number
  /** SESSION_SWEEP_MS: how often ended sessions (expired or idle) are deleted from the store (default 10 min). */
  sessionSweepMs: number
  /**
   * Edge function runtime overrides (features/functions/runtime/supervisor.ts has the defaults): limits in ms and
   * bytes, and denoDir (FUNCTIONS_DENO_DIR), Deno's module cache (default {dataDir}/functions/deno-cache).
   */
  /**
   * Realtime overrides (features/realtime/limits.ts has the defaults): how long a socket may stay silent before it is
   * closed (a client that vanished without closing), how many bytes may wait unsent to a slow reader, and how long
   * another process's presence outlives its last renewal (default: processLiveMs), and how often the usage figures
   * counted in memory are written when nothing reads them (0: only when the usage page reads them, and on close).
   */
  realtime?: { idleTimeoutMs?: number; sendBufferBytes?: number; newTablesRescanMs?: number; processLiveMs?: number; usageFlushMs?: number }
  /**
   * Storage's image transformations (features/storage/transform.ts has the defaults): STORAGE_IMAGE_MAX_BYTES, the
   * largest stored image transformed; STORAGE_IMAGE_MAX_PIXELS, the most pixels it may have; STORAGE_IMAGE_CACHE_BYTES,
   * the memory kept for results.
   */
  storage?: { maxBytes?: number; maxPixels?: number; cacheBytes?: number }
  /**
   * STORAGE_S3_URL: objects' bytes in an S3-compatible store instead of DATA_DIR/storage (features/storage/s3.ts);
   * `http(s)://ACCESS_KEY_ID:SECRET_ACCESS_KEY@HOST[:PORT]/BUCKET[/PREFIX]?region=REGION[&style=virtual]`.
   */
  storageS3?: S3Settings
  functions?: {
    wallClockMs?: number
    paidWallClockMs?: number
    cpuMs?: number
    memoryMb?: number
    maxRequestBytes?: number
    maxResponseBytes?: number
    maxOutputBytes?: number
    idleMs?: number
    bootMs?: number
    denoDir?: string
  }
  /** Each project's own database (src/server/projectdb). */
  projectDb: {
    /** PROJECT_DB_MAX_OPEN: databases open at once; the least recently used closes first (an open PGlite ~150–200 MB). */
    maxOpen: number
    /** PROJECT_DB_IDLE_MS: an open database unused this long closes. */
    idleMs: number
    /** PROJECT_DB_QUERY_TIMEOUT_MS: a transaction running longer is stopped (code 'query_timeout'). */
    queryTimeoutMs: number
    /** PROJECT_DB_SLOT_WAIT_MS: longest wait for an open-database slot (PostgREST's pool acquisition time-out, 10 s by default); past it 503 with Retry-After ('database_busy'). */
    slotWaitMs: number
    /**
     * PROJECT_DB_MIN_RESIDENCY_MS: how long after its last use an open database within its organization's fair share
     * is kept from other organizations (manager.ts: the fairness rule).
     */
    minResidencyMs: number
    /**
     * PROJECT_DB_TEMPLATE_CACHE_DIR (PGlite): where the template folder is cached (default DATA_DIR/projects). Servers
     * may share one: its folders are named by PGlite version and template SQL, and each is built aside and renamed into
     * place whole, so a process that finds one finds it complete (the tests and the walks' servers share the temp folder).
     */
    templateCacheDir?: string
    /**
     * PROJECT_DB_WASM_TIER (PGlite): 'optimizing' lets V8 recompile a project process's hot Postgres code with its
     * optimizing compiler (heavy queries ~20–30% faster); 'baseline' keeps the first, quick compile only, which
     * halves the CPU a database's start costs (~1.4 s → ~0.8 s). Many short-lived databases: baseline.
     */
    wasmTier: WasmTier
  }
  /** USAGE_FLUSH_MS: how often the usage the REST endpoint counts is written to the store (0: on reads and close only). */
  usageFlushMs: number
  /**
   * REST_MAX_ROWS: the most rows a REST read answers (PostgREST's db-max-rows), whatever limit or Range asks for;
   * 0: no cap.
   */
  restMaxRows: number
  /** The Postgres port: every project's database over the wire protocol (features/wire). */
  wire: {
    /** DB_PORT: default 54322; 0 picks a free port (printed at start). */
    port: number
    /** WIRE_MAX_CLIENTS_PER_PROJECT: connections one project may hold at once; the next is refused (53300). */
    maxClientsPerProject: number
    /** WIRE_QUEUE_WAIT_MS (PGlite): longest wait for the project's one session while another client holds it. */
    queueWaitMs: number
    /** WIRE_IDLE_IN_TRANSACTION_MS (PGlite): a client idle this long inside a transaction is ended, its transaction rolled back. */
    idleInTransactionMs: number
    /** WIRE_STARTUP_TIMEOUT_MS: a connection that has not sent its start-up packet by then is closed. */
    startupTimeoutMs: number
    /** WIRE_MAX_MESSAGE_BYTES: the largest message a client may send after start-up. */
    maxMessageBytes: number
  }
  /**
   * PROCESS_LIVE_MS: each platform process renews its entries in the store (core/processes.ts: its Postgres port's
   * listener; its realtime relay) every third of this; an entry not renewed for this long is taken as gone (its
   * process was killed), and what the others kept for it stops counting (the port's clients, the relayed presence).
   */
  processLiveMs: number
  /**
   * The auth service's e-mail: with SMTP_URL set, every project's messages go out through that server; without it,
   * each goes to the project's local mailbox. The URL carries a password: nothing prints it (smtpDisplay leaves it out).
   */
  smtp?: SmtpConfig
}

/** SMTP_URL taken apart, with the sender and the time-out of a delivery. */
export interface SmtpConfig {
  /** SMTP_URL `smtp://user:pass@host:port` (STARTTLS when the server offers it) or `smtps://…` (TLS from the start). */
  host: string
  /** The URL's port; undefined: the protocol's (587, or 465 for smtps). */
  port?: number
  secure: boolean
  /** The URL's user and password, percent-decoded; undefined when it names none. */
  auth?: { user: string; pass: string }
  /** SMTP_FROM: the sender of every message (default `noreply@localhost`). */
  from: string
  /**
   * SMTP_TIMEOUT_MS: the longest one delivery may take, from the connection to the server's acceptance (default
   * 10 s). A message is sent inside the transaction that wrote its token (so a message not sent leaves no token or
   * user behind), which holds the project database: it must be shorter than PROJECT_DB_QUERY_TIMEOUT_MS.
   */
  timeoutMs: number
}

export type WasmTier = 'optimizing' | 'baseline'

/** scrypt parameters: N (CPU/memory cost, a power of 2), r (block size), p (parallelism). */
export interface ScryptCost {
  N: number
  r: number
  p: number
}
/** OWASP Password Storage Cheat Sheet: scrypt with N=2^17, r=8, p=1 at least (128 MiB per hash). */
export const OWASP_SCRYPT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 }

type Env = Record<string, string | undefined>

/** An S3-compatible store as STORAGE_S3_URL names it. */
export interface S3Settings {
  /** The store's origin, `http(s)://host[:port]`. */
  endpoint: string
  bucket: string
  /** Prepended to every key ('' or ending with '/'): several platforms may share a bucket. */
  prefix: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  /** `bucket` in the path (the default: MinIO, Ceph, R2 and S3 all take it), or as a subdomain (`style=virtual`). */
  forcePathStyle: boolean
}

const S3_URL_SHAPE = 'http(s)://ACCESS_KEY_ID:SECRET_ACCESS_KEY@HOST[:PORT]/BUCKET[/PREFIX]?region=REGION'

/**
 * STORAGE_S3_URL read into its parts. The credentials are the URL's user and password, percent-encoded as a URL
 * needs (a secret key's `/` and `+` as %2F and %2B). A refusal says what is wrong and never repeats the URL: it holds
 * the secret key.
 */
export function s3SettingsOf(raw: string): S3Settings {
  function fail(why: string): never {
    throw new Error(`STORAGE_S3_URL ${why}: it must look like ${S3_URL_SHAPE}`)
  }
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    return fail('is not a URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`has the scheme '${url.protocol}'`)
  if (!url.username || !url.password) fail('names no access key id and secret key (user:password@)')
  const [bucket, ...rest] = url.pathname.split('/').filter(Boolean).map(decodeURIComponent)
  if (!bucket) fail('names no bucket (the first segment of its path)')
  const style = url.searchParams.get('style') ?? 'path'
  if (style !== 'path' && style !== 'virtual') fail(`has style=${style} (path or virtual)`)
  for (const key of url.searchParams.keys()) if (key !== 'region' && key !== 'style') fail(`has an unknown parameter '${key}'`)
  return {
    endpoint: url.origin,
    bucket,
    prefix: rest.length ? `${rest.join('/')}/` : '',
    region: url.searchParams.get('region') || 'us-east-1',
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
    forcePathStyle: style === 'path',
  }
}

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got '${raw}'`)
  return n
}

/**
 * PASSWORD_SCRYPT_N: scrypt's N for the password hashes the platform makes from now on (r=8, p=1), a power of 2 from
 * 2^10 to 2^20 (the most a stored hash may name); the OWASP minimum, 2^17, by default. A hash made at a lower N than
 * the setting is made again at the next sign-in; one made at a higher N is kept.
 */
function scryptCost(env: Env): ScryptCost {
  const n = int(env, 'PASSWORD_SCRYPT_N', OWASP_SCRYPT_COST.N, 2 ** 10)
  if (n > 2 ** 20 || (n & (n - 1)) !== 0) {
    throw new Error(`PASSWORD_SCRYPT_N must be a power of 2 from 1024 to 1048576, got '${env.PASSWORD_SCRYPT_N}'`)
  }
  return { ...OWASP_SCRYPT_COST, N: n }
}

function list(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
}

function publicUrlOf(env: Env): string | undefined {
  const raw = env.PUBLIC_URL?.trim().replace(/\/+$/, '')
  if (!raw) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL, got '${raw}'`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`PUBLIC_URL must be http(s), got '${raw}'`)
  return raw
}

/** The default may be no longer than the longest expiry a person may ask for. */
function accessTokenDays(env: Env): number {
  const days = int(env, 'ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS', 90, 1)
  if (days > MAX_ACCESS_TOKEN_DAYS) throw new Error(`ACCESS_TOKEN_DEFAULT_EXPIRY_DAYS must be at most ${MAX_ACCESS_TOKEN_DAYS}, got ${days}`)
  return days
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  if (!(allowed as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${allowed.join(', ')}, got '${raw}'`)
  return raw as T
}

/**
 * SMTP_URL and its companions. The refusals never quote the URL: it carries a password, and a refusal is printed.
 */
function smtpOf(env: Env, queryTimeoutMs: number): SmtpConfig | undefined {
  const raw = env.SMTP_URL?.trim()
  if (!raw) return undefined
  const shape = 'SMTP_URL must look like smtp://user:password@host:port (or smtps://…), percent-encoding reserved characters'
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new Error(shape)
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || !url.hostname) throw new Error(shape)
  // The mail client reads options from a query (one of them runs a sendmail binary): none is taken.
  if (url.search || url.hash || (url.pathname !== '' && url.pathname !== '/')) throw new Error('SMTP_URL takes no path, query or fragment')
  let auth: SmtpConfig['auth']
  try {
    auth = url.username || url.password ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined
  } catch {
    throw new Error(shape)
  }
  const timeoutMs = int(env, 'SMTP_TIMEOUT_MS', Math.max(1, Math.min(10_000, queryTimeoutMs - 1)), 1)
  if (timeoutMs >= queryTimeoutMs) {
    throw new Error(`SMTP_TIMEOUT_MS must be shorter than PROJECT_DB_QUERY_TIMEOUT_MS (${queryTimeoutMs}), got ${timeoutMs}`)
  }
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    ...(url.port ? { port: Number(url.port) } : {}),
    secure: url.protocol === 'smtps:',
    ...(auth ? { auth } : {}),
    from: env.SMTP_FROM?.trim() || 'noreply@localhost',
    timeoutMs,
  }
}

/** Where the e-mail goes, for a banner or a log: the SMTP server without its user or password, or the mailbox. */
export function smtpDisplay(smtp: SmtpConfig | undefined): string {
  if (!smtp) return "each project's local mailbox (no SMTP_URL)"
  const host = smtp.host.includes(':') ? `[${smtp.host}]` : smtp.host
  return `SMTP ${smtp.secure ? 'smtps' : 'smtp'}://${host}${smtp.port ? `:${smtp.port}` : ''}`
}

function port16(env: Env, name: string, fallback: number): number {
  const port = int(env, name, fallback)
  if (port > 65535) throw new Error(`${name} must be at most 65535, got ${port}`)
  return port
}

export function loadConfig(env: Env = process.env): ServerConfig {
  const port = int(env, 'PORT', 8787)
  if (port > 65535) throw new Error(`PORT must be at most 65535, got ${port}`)
  const queryTimeoutMs = int(env, 'PROJECT_DB_QUERY_TIMEOUT_MS', 15_000, 1)
  const smtp = smtpOf(env, queryTimeoutMs)
  return {
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR?.trim() || '.data/'),
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    devControls: env.DEV_CONTROLS === '1' || env.DEV_CONTROLS === 'true',
    distDir: path.resolve(env.DIST_DIR?.trim() || path.join(repoRoot, 'dist')),
    publicUrl: publicUrlOf(env),
    allowedHosts: list(env, 'ALLOWED_HOSTS'),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    logRequests: env.LOG_REQUESTS === '1',
    jwtCacheEntries: int(env, 'JWT_CACHE_ENTRIES', 10_000),
    lifecycle: {
      comingUpMs: int(env, 'LIFECYCLE_COMING_UP_MS', 15_000),
      tickMs: int(env, 'LIFECYCLE_TICK_MS', 250, 1),
      jwtUpdateMs: int(env, 'LIFECYCLE_JWT_UPDATE_MS', 5_000),
      goingDownMs: int(env, 'LIFECYCLE_GOING_DOWN_MS', 3_000),
      pausingMs: int(env, 'LIFECYCLE_PAUSING_MS', 4_000),
      restoringMs: int(env, 'LIFECYCLE_RESTORING_MS', 8_000),
      upgradeStepMs: int(env, 'LIFECYCLE_UPGRADE_STEP_MS', 4_000),
      branchStepMs: int(env, 'LIFECYCLE_BRANCH_STEP_MS', 500),
      advanceWaitMs: int(env, 'LIFECYCLE_ADVANCE_WAIT_MS', 60_000),
      concurrency: int(env, 'LIFECYCLE_CONCURRENCY', 2, 1),
    },
    freeProjectLimit: int(env, 'FREE_PROJECT_LIMIT', 2),
    orgMaxDatabaseBytes: int(env, 'ORG_MAX_DATABASE_BYTES', 1024 ** 3),
    accessTokenDefaultExpiryDays: accessTokenDays(env),
    gitMaxPushBytes: int(env, 'GIT_MAX_PUSH_BYTES', 100 * 1024 * 1024, 1024),
    storage: {
      ...(env.STORAGE_IMAGE_MAX_BYTES ? { maxBytes: int(env, 'STORAGE_IMAGE_MAX_BYTES', 0, 1) } : {}),
      ...(env.STORAGE_IMAGE_MAX_PIXELS ? { maxPixels: int(env, 'STORAGE_IMAGE_MAX_PIXELS', 0, 1) } : {}),
      ...(env.STORAGE_IMAGE_CACHE_BYTES ? { cacheBytes: int(env, 'STORAGE_IMAGE_CACHE_BYTES', 0, 0) } : {}),
    },
    ...(env.STORAGE_S3_URL?.trim() ? { storageS3: s3SettingsOf(env.STORAGE_S3_URL) } : {}),
    sessionTtlMs: 7 * 24 * 60 * 60 * 1000,
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    passwordHashCost: scryptCost(env),
    signInThrottle: {
      windowMs: int(env, 'SIGN_IN_WINDOW_SECONDS', 15 * 60, 1) * 1000,
      maxPerPair: int(env, 'SIGN_IN_MAX_FAILURES_PER_ACCOUNT_ADDRESS', 5, 1),
      maxPerAccount: int(env, 'SIGN_IN_MAX_FAILURES_PER_ACCOUNT', 100, 1),
      maxPerAddress: int(env, 'SIGN_IN_MAX_FAILURES_PER_ADDRESS', 20, 1),
      maxSignUpsPerAddress: int(env, 'SIGN_UP_MAX_PER_ADDRESS', 5, 1),
    },
    sessionIdleTimeoutMs: int(env, 'SESSION_IDLE_TIMEOUT_MS', 24 * 60 * 60 * 1000, 60_000),
    sessionSweepMs: int(env, 'SESSION_SWEEP_MS', 10 * 60 * 1000, 1_000),
    projectDb: {
      maxOpen: int(env, 'PROJECT_DB_MAX_OPEN', 4, 1),
      idleMs: int(env, 'PROJECT_DB_IDLE_MS', 5 * 60 * 1000, 100),
      queryTimeoutMs,
      slotWaitMs: int(env, 'PROJECT_DB_SLOT_WAIT_MS', 10_000),
      minResidencyMs: int(env, 'PROJECT_DB_MIN_RESIDENCY_MS', 10_000),
      wasmTier: oneOf(env, 'PROJECT_DB_WASM_TIER', ['optimizing', 'baseline'] as const, 'optimizing'),
      ...(env.PROJECT_DB_TEMPLATE_CACHE_DIR?.trim() ? { templateCacheDir: path.resolve(env.PROJECT_DB_TEMPLATE_CACHE_DIR.trim()) } : {}),
    },
    usageFlushMs: int(env, 'USAGE_FLUSH_MS', 10_000),
    restMaxRows: int(env, 'REST_MAX_ROWS', 1_000),
    ...(env.FUNCTIONS_DENO_DIR?.trim() ? { functions: { denoDir: path.resolve(env.FUNCTIONS_DENO_DIR.trim()) } } : {}),
    wire: {
      port: port16(env, 'DB_PORT', 54322),
      maxClientsPerProject: int(env, 'WIRE_MAX_CLIENTS_PER_PROJECT', 60, 1),
      queueWaitMs: int(env, 'WIRE_QUEUE_WAIT_MS', 10_000, 1),
      idleInTransactionMs: int(env, 'WIRE_IDLE_IN_TRANSACTION_MS', 30_000, 1),
      startupTimeoutMs: int(env, 'WIRE_STARTUP_TIMEOUT_MS', 10_000, 1),
      maxMessageBytes: int(env, 'WIRE_MAX_MESSAGE_BYTES', 64 * 1024 * 1024, 1024),
    },
    processLiveMs: int(env, 'PROCESS_LIVE_MS', PROCESS_LIVE_MS, 300),
    ...(smtp ? { smtp } : {}),
  }
}

/** Injectable time source: the engine, sessions and timestamps read it, so tests move time by hand. */
export interface Clock {
  now(): Date
}
export const systemClock: Clock = { now: () => new Date() }
