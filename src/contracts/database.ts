/**
 * A project's own database, as the dashboard and the Management API reach it.
 *   POST /v1/projects/{ref}/database/query            RunQueryBody → V1QueryResult (rows, as the Management API answers)
 *   POST /v1/projects/{ref}/database/query/read-only  RunQueryBody → V1QueryResult (a read-only transaction)
 *   POST /platform/projects/{ref}/database/query      RunQueryBody → QueryResult   (the SQL Editor: columns, rows, time)
 *   GET  /platform/projects/{ref}/database/tables     → DatabaseTableList          (schema public: the Database page, the Table Editor)
 *   GET  /platform/projects/{ref}/database/tables/{table}/rows?offset&limit → TableRows (the Table Editor, 100 a page)
 *   GET  /v1/projects/{ref}/types/typescript          → TypescriptResponse          (@supabase/postgrest-typegen)
 * A query that fails answers 400 QueryError: the Postgres message, its SQLSTATE code and, when Postgres gives it, the
 * 1-based character position in the query. A Read-only member may only run read-only queries (the platform endpoint
 * runs theirs read-only; the v1 write endpoint answers 403).
 */
import * as z from 'zod/mini'

/** The Management API's V1RunQueryBody. */
export const RunQueryBody = z.object({
  query: z.string().check(z.minLength(1, 'query is required')),
  parameters: z.optional(z.array(z.unknown())),
  read_only: z.optional(z.boolean()),
})
export type RunQueryBody = z.infer<typeof RunQueryBody>

/** What the Management API answers: the rows of the last statement, as JSON objects. */
export const V1QueryResult = z.array(z.record(z.string(), z.unknown()))
export type V1QueryResult = z.infer<typeof V1QueryResult>

export const QueryColumn = z.object({
  name: z.string(),
  /** The Postgres type name (format_type), as 'integer', 'text', 'timestamp with time zone'. */
  type: z.string(),
})
export type QueryColumn = z.infer<typeof QueryColumn>

/** The SQL Editor's answer: the last statement's columns (in order, even with no rows), rows and timing. */
export const QueryResult = z.object({
  columns: z.array(QueryColumn),
  rows: z.array(z.record(z.string(), z.unknown())),
  /** Rows returned, or rows affected by an INSERT/UPDATE/DELETE. */
  rowCount: z.number().check(z.int(), z.nonnegative()),
  /** The command tag's verb of the last statement: 'SELECT', 'INSERT', 'CREATE TABLE' … */
  command: z.string(),
  /** Time the database took, in milliseconds. */
  durationMs: z.number().check(z.nonnegative()),
  /** Whether it ran in a read-only transaction. */
  readOnly: z.boolean(),
})
export type QueryResult = z.infer<typeof QueryResult>

/** A query that failed: the Postgres error. */
export const QueryError = z.object({
  message: z.string(),
  /** SQLSTATE, as '42P01'; 'query_timeout' when the query ran past the time-out and was stopped. */
  code: z.optional(z.string()),
  /** 1-based character offset of the error in the query, when Postgres reports one. */
  position: z.optional(z.number().check(z.int(), z.positive())),
  detail: z.optional(z.string()),
  hint: z.optional(z.string()),
})
export type QueryError = z.infer<typeof QueryError>

export const TableColumn = z.object({
  name: z.string(),
  /** format_type: 'bigint', 'text', 'public.order_status', 'jsonb', 'text[]'. */
  data_type: z.string(),
  is_nullable: z.boolean(),
  /** The default expression as Postgres prints it, or null. */
  default_value: z.nullable(z.string()),
  is_identity: z.boolean(),
  is_primary_key: z.boolean(),
  comment: z.nullable(z.string()),
  /** Labels when the type is an enum. */
  enums: z.array(z.string()),
})
export type TableColumn = z.infer<typeof TableColumn>

export const TableRelationship = z.object({
  constraint_name: z.string(),
  source_columns: z.array(z.string()),
  target_table: z.string(),
  target_columns: z.array(z.string()),
})

export const DatabaseTable = z.object({
  name: z.string(),
  schema: z.string(),
  /** 'table' or 'view'. */
  kind: z.enum(['table', 'view']),
  comment: z.nullable(z.string()),
  rls_enabled: z.boolean(),
  /** Counted rows up to a bound, or Postgres's estimate past it (PGlite keeps no statistics). */
  estimated_rows: z.number().check(z.int(), z.nonnegative()),
  columns: z.array(TableColumn),
  primary_keys: z.array(z.string()),
  relationships: z.array(TableRelationship),
})
export type DatabaseTable = z.infer<typeof DatabaseTable>
export const DatabaseTableList = z.array(DatabaseTable)
export type DatabaseTableList = z.infer<typeof DatabaseTableList>

export const TableRowsQuery = z.object({
  offset: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1000)), 100),
})
export type TableRowsQuery = z.infer<typeof TableRowsQuery>

export const TableRows = z.object({
  columns: z.array(QueryColumn),
  rows: z.array(z.record(z.string(), z.unknown())),
  offset: z.number().check(z.int(), z.nonnegative()),
  limit: z.number().check(z.int(), z.positive()),
  /** Every row of the table. */
  total: z.number().check(z.int(), z.nonnegative()),
})
export type TableRows = z.infer<typeof TableRows>

/** The Management API's TypescriptResponse. */
export const TypescriptResponse = z.object({ types: z.string() })
export type TypescriptResponse = z.infer<typeof TypescriptResponse>

export const TypescriptQuery = z.object({ included_schemas: z.optional(z.string()) })

/** The regions a project can be created in (the Management API's list). */
export const REGIONS = [
  'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2', 'ap-east-1', 'ap-southeast-1', 'ap-northeast-1',
  'ap-northeast-2', 'ap-southeast-2', 'eu-west-1', 'eu-west-2', 'eu-west-3', 'eu-north-1', 'eu-central-1',
  'eu-central-2', 'ca-central-1', 'ap-south-1', 'sa-east-1',
] as const
export const Region = z.enum(REGIONS)

/** The Management API's V1CreateProjectBody (the fields the local platform uses; the others are accepted and ignored). */
export const CreateProjectBody = z.object({
  name: z.string().check(z.trim(), z.minLength(1, 'Name is required'), z.maxLength(256)),
  organization_slug: z.string().check(z.regex(/^[\w-]+$/, 'organization_slug is required')),
  region: z.optional(Region),
  region_selection: z.optional(z.object({ type: z.literal('specific'), code: Region })),
  db_pass: z.optional(z.string()),
  plan: z.optional(z.enum(['free', 'pro'])),
})
export type CreateProjectBody = z.infer<typeof CreateProjectBody>

/** The Management API's V1ProjectResponse (201 to a create). */
export const V1CreatedProject = z.object({
  id: z.string(),
  ref: z.string().check(z.regex(/^[a-z]{20}$/)),
  organization_id: z.string(),
  organization_slug: z.string(),
  name: z.string(),
  region: z.string(),
  created_at: z.string(),
  status: z.string(),
})
export type V1CreatedProject = z.infer<typeof V1CreatedProject>
