/**
 * The SQL Editor's runs, history and completions (saved queries: ./snippets.ts).
 *   POST /platform/projects/{ref}/sql/run          SqlRunBody → SqlRunResult (each statement's result, or the plan)
 *   GET  /platform/projects/{ref}/sql/history      → SqlHistory (the person's last 100 runs on the project)
 *   GET  /platform/projects/{ref}/sql/completions  → SqlCompletions (schemas, tables and columns, functions)
 *   GET  /platform/projects/{ref}/sql/users?search → SqlUsers (the project's users a run can impersonate)
 * A run goes through the same runner as /database/query (one transaction, the guards, the time-out); as `anon` or
 * `authenticated` it runs as REST does (role switched, request.jwt.claims set) so row level security decides.
 * A failed run answers 400 QueryError (./database.ts), 408 past the time-out.
 */
import * as z from 'zod/mini'
import { QueryColumn } from './database'

/** Rows a statement's result holds at most, by default and at most (a setting of the editor). */
export const ROW_LIMIT_DEFAULT = 1_000
export const ROW_LIMIT_MAX = 100_000
export const ROW_LIMIT_CHOICES = [100, 1_000, 10_000, 100_000] as const
export const HISTORY_LENGTH = 100

export const SqlRunRole = z.enum(['postgres', 'anon', 'authenticated'])
export type SqlRunRole = z.infer<typeof SqlRunRole>

export const SqlRunBody = z
  .object({
    query: z.string().check(z.minLength(1, 'query is required')),
    /** Default the project owner. */
    role: z.optional(SqlRunRole),
    /** With role 'authenticated': the user (auth.users.id) whose claims the run carries. */
    user_id: z.optional(z.uuid('user_id: a user id (uuid)')),
    /** `explain (format json)` of the one statement instead of running it. */
    explain: z.optional(z.boolean()),
    row_limit: z.optional(z.number().check(z.int('row_limit: a whole number'), z.gte(1, 'row_limit: at least 1'), z.lte(ROW_LIMIT_MAX, `row_limit: at most ${ROW_LIMIT_MAX}`))),
  })
  .check(
    z.refine((b) => b.role === 'authenticated' || b.user_id === undefined, { message: 'user_id goes with role authenticated', path: ['user_id'] }),
    z.refine((b) => b.role !== 'authenticated' || b.user_id !== undefined, { message: 'role authenticated needs user_id: the user whose claims the query runs with', path: ['user_id'] }),
  )
export type SqlRunBody = z.infer<typeof SqlRunBody>

export const StatementResult = z.object({
  columns: z.array(QueryColumn),
  rows: z.array(z.record(z.string(), z.unknown())),
  rowCount: z.number().check(z.int(), z.nonnegative()),
  command: z.string(),
  /** The statement returned more rows than the row limit: `rows` holds the first ones. */
  capped: z.boolean(),
})
export type StatementResult = z.infer<typeof StatementResult>

/** A node of Postgres's JSON plan: its fields, and its children under "Plans". */
export interface PlanNode {
  'Node Type': string
  Plans?: PlanNode[]
  [field: string]: unknown
}
export const PlanNode: z.ZodMiniType<PlanNode> = z.looseObject({
  'Node Type': z.string(),
  get Plans() {
    return z.optional(z.array(PlanNode))
  },
})

export const SqlRunResult = z.object({
  results: z.array(StatementResult),
  /** With explain: the plan's root. */
  plan: z.optional(PlanNode),
  durationMs: z.number().check(z.nonnegative()),
  readOnly: z.boolean(),
  role: SqlRunRole,
  rowLimit: z.number().check(z.int(), z.positive()),
})
export type SqlRunResult = z.infer<typeof SqlRunResult>

export const SqlHistoryEntry = z.object({
  id: z.number(),
  query: z.string(),
  role: SqlRunRole,
  ran_at: z.string(),
  /** Null when the run failed. */
  duration_ms: z.nullable(z.number()),
  /** The failure's message, or null. */
  error: z.nullable(z.string()),
})
export type SqlHistoryEntry = z.infer<typeof SqlHistoryEntry>
export const SqlHistory = z.object({ runs: z.array(SqlHistoryEntry) })
export type SqlHistory = z.infer<typeof SqlHistory>

export const SqlCompletions = z.object({
  schemas: z.array(z.string()),
  tables: z.array(z.object({ schema: z.string(), name: z.string(), columns: z.array(z.object({ name: z.string(), type: z.string() })) })),
  functions: z.array(z.object({ schema: z.string(), name: z.string(), args: z.string(), returns: z.string() })),
})
export type SqlCompletions = z.infer<typeof SqlCompletions>

export const SqlUsersQuery = z.object({ search: z.optional(z.string().check(z.maxLength(200))) })
export const SqlUsers = z.object({ users: z.array(z.object({ id: z.string(), email: z.nullable(z.string()) })) })
export type SqlUsers = z.infer<typeof SqlUsers>
