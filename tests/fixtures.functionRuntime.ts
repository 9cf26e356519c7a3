/**
 * Fixtures of a function's pages: its files, its log, its figures (functions.combined-stats), the project's secrets
 * and keys, an answer of the Test panel.
 */
import type { FunctionDetail, LogEntry } from '../machines/functionDetail.machine'
import type { ProjectKeys } from '../machines/functionTest.machine'
import type { FunctionTestResult } from '../src/contracts/functionRuntime'
import { emptyCombinedStatsRow, type CombinedStatsRow, type SecretList } from '../src/contracts/functions'
import { HELLO_WORLD } from './fixtures.storage'

export const PROJECT_URL = 'http://127.0.0.1:8787/p/abcdefghijklmnopqrst'

export const HELLO_DETAIL: FunctionDetail = {
  fn: HELLO_WORLD,
  projectUrl: PROJECT_URL,
  files: {
    entrypoint_path: 'index.ts',
    version: 3,
    files: [
      { name: 'index.ts', content: "import { word } from './word.ts'\nDeno.serve(() => new Response(word))\n" },
      { name: 'word.ts', content: "export const word = 'hello'\n" },
    ],
  },
}

const entry = (n: number, more: Partial<LogEntry>): LogEntry => ({
  id: `e${n}`,
  timestamp: Date.UTC(2026, 10, 26, 8, 0, n),
  function_id: HELLO_WORLD.id,
  kind: 'console',
  level: 'log',
  event_message: `line ${n}`,
  ...more,
})

/** Oldest first, as the platform answers: a boot, a console line, a 200 call, an error line and a failed call. */
export const LOGS: LogEntry[] = [
  entry(1, { kind: 'boot', level: 'info', event_message: 'booted (version 3)' }),
  entry(2, { event_message: 'greeting Ada' }),
  entry(3, { kind: 'invocation', level: 'info', event_message: 'POST /hello-world 200', method: 'POST', status: 200, duration_ms: 12 }),
  entry(4, { level: 'error', event_message: 'TypeError: boom' }),
  entry(5, { kind: 'invocation', level: 'error', event_message: 'POST /hello-world 500', method: 'POST', status: 500, duration_ms: 7 }),
]

const statsRow = (timestamp: string, fields: Partial<CombinedStatsRow>): CombinedStatsRow => ({ ...emptyCombinedStatsRow(timestamp), ...fields })

/** Three calls in one minute (one failed) and one two minutes later: the platform's answer has only these minutes. */
export const STATS: CombinedStatsRow[] = [
  statsRow('2026-11-26T08:00:00.000Z', {
    requests_count: 3,
    success_count: 2,
    client_err_count: 1,
    avg_execution_time: 20,
    max_execution_time: 40,
    avg_cpu_time_used: 10,
    max_cpu_time_used: 20,
    avg_memory_used: 40,
    avg_heap_memory_used: 8,
    avg_external_memory_used: 2,
  }),
  statsRow('2026-11-26T08:02:00.000Z', {
    requests_count: 1,
    success_count: 1,
    avg_execution_time: 100,
    max_execution_time: 100,
    avg_cpu_time_used: 50,
    max_cpu_time_used: 50,
    avg_memory_used: 60,
    avg_heap_memory_used: 12,
    avg_external_memory_used: 6,
  }),
]

export const SECRETS: SecretList = [
  { name: 'GREETING', value: 'a'.repeat(64), updated_at: '2026-11-25T10:00:00.000Z' },
  { name: 'STRIPE_KEY', value: 'b'.repeat(64), updated_at: '2026-11-25T11:00:00.000Z' },
]

export const TEST_USER = { id: '5b0c1d2e-3f40-4a51-8b62-7c83d94ea5f6', label: 'ada@example.com' }
export const OWNER_KEYS: ProjectKeys = { projectUrl: PROJECT_URL, anonKey: 'anon.jwt.key', serviceKey: 'service.jwt.key', users: [TEST_USER] }
export const DEVELOPER_KEYS: ProjectKeys = { ...OWNER_KEYS, serviceKey: null, users: [] }

export const TEST_RESULT: FunctionTestResult = {
  status: 200,
  statusText: 'OK',
  headers: [['content-type', 'application/json']],
  body: '{"message":"Hello Functions!"}',
  duration_ms: 42,
}
