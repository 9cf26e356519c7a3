/**
 * The Table Editor: a table's rows read with sort, filters (the REST filter operators) and pages, written one row a
 * statement by primary key, tables made and changed from a form (the SQL shown before it runs), CSV in and out.
 *   GET    /platform/projects/{ref}/table-editor/tables/{table}/rows?offset&limit&sort&filters&search → RowsPage
 *   POST   …/rows   InsertRowBody → WrittenRow        PATCH …/rows UpdateRowBody → WrittenRow
 *   DELETE …/rows   DeleteRowsBody → DeletedRows
 *   POST   /platform/projects/{ref}/table-editor/tables          TableDefinitionBody → TableDefinitionAnswer
 *   GET    /platform/projects/{ref}/table-editor/tables/{table}  → TableDefinition (the table as the catalog has it)
 *   PATCH  /platform/projects/{ref}/table-editor/tables/{table}  TableDefinitionBody → TableDefinitionAnswer
 *   GET    /platform/projects/{ref}/table-editor/references      → TableReferences (what a foreign key may point at)
 *   POST   …/tables/{table}/import   text/csv (header row of column names) → ImportAnswer, or 400 ImportFailure
 *   GET    …/tables/{table}/export   → text/csv
 * `sort`, `filters` and `search` are JSON in the query string. Values travel as JSON and are read by Postgres for the column's
 * type (a number, or its text: '12', '2026-01-01T10:00:00Z'), so a value that does not parse answers 400 with
 * Postgres's message. An update names the row's previous values: a row another tab changed meanwhile answers 409.
 */
import * as z from 'zod/mini'

export const FILTER_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'is', 'in'] as const
export const FilterOperator = z.enum(FILTER_OPERATORS)
export type FilterOperator = z.infer<typeof FilterOperator>

/** One filter: `is` takes 'null', 'not null', 'true' or 'false'; `in` a list of values; the others one value. */
export const RowFilter = z.object({
  column: z.string().check(z.minLength(1)),
  operator: FilterOperator,
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number(), z.boolean()]))]),
})
export type RowFilter = z.infer<typeof RowFilter>

export const RowSort = z.object({ column: z.string().check(z.minLength(1)), ascending: z.boolean() })
export type RowSort = z.infer<typeof RowSort>

export const PAGE_SIZES = [100, 500, 1000] as const

/** Rows whose columns, read as text, contain the term (any of them): a foreign key picker's search. */
export const RowSearch = z.object({
  term: z.string().check(z.maxLength(200, 'search: at most 200 characters')),
  columns: z.array(z.string().check(z.minLength(1))).check(z.minLength(1, 'search: name at least one column'), z.maxLength(8)),
})
export type RowSearch = z.infer<typeof RowSearch>

export const RowsQuery = z.object({
  offset: z._default(z.coerce.number().check(z.int(), z.gte(0)), 0),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1000)), 100),
  /** JSON: RowSort[]. */
  sort: z.optional(z.string()),
  /** JSON: RowFilter[]. */
  filters: z.optional(z.string()),
  /** JSON: RowSearch. */
  search: z.optional(z.string()),
})

/** What a one-column foreign key points at, and the referenced table's first text column (shown beside the key). */
export const ColumnReference = z.object({ schema: z.string(), table: z.string(), column: z.string(), label: z.nullable(z.string()) })
export type ColumnReference = z.infer<typeof ColumnReference>

/**
 * A column as the grid edits it: its type, its default (shown when a row is inserted), nullability, enum labels, and
 * the foreign key it belongs to alone (absent from answers of servers before the picker: read as none).
 */
export const GridColumn = z.object({
  name: z.string(),
  type: z.string(),
  default_value: z.nullable(z.string()),
  is_nullable: z.boolean(),
  is_identity: z.boolean(),
  enums: z.array(z.string()),
  references: z.optional(z.nullable(ColumnReference)),
})
export type GridColumn = z.infer<typeof GridColumn>

export const RowsPage = z.object({
  columns: z.array(GridColumn),
  rows: z.array(z.record(z.string(), z.unknown())),
  offset: z.number().check(z.int(), z.nonnegative()),
  limit: z.number().check(z.int(), z.positive()),
  /** Rows matching the filters. */
  total: z.number().check(z.int(), z.nonnegative()),
  /** The primary key's columns (empty: the table cannot be edited row by row). */
  primary_keys: z.array(z.string()),
})
export type RowsPage = z.infer<typeof RowsPage>

const Values = z.record(z.string(), z.unknown())

/** The columns given; the others take their default. */
export const InsertRowBody = z.object({ values: Values })
export type InsertRowBody = z.infer<typeof InsertRowBody>

export const UpdateRowBody = z.object({
  /** The primary key's values of the row. */
  key: Values,
  /** The changed columns' values as the editor read them: a row changed since then is not overwritten (409). */
  previous: Values,
  values: Values,
})
export type UpdateRowBody = z.infer<typeof UpdateRowBody>

export const DeleteRowsBody = z.object({ keys: z.array(Values).check(z.minLength(1), z.maxLength(1000)) })
export type DeleteRowsBody = z.infer<typeof DeleteRowsBody>

export const WrittenRow = z.object({ row: z.record(z.string(), z.unknown()), sql: z.string() })
export type WrittenRow = z.infer<typeof WrittenRow>
export const DeletedRows = z.object({ deleted: z.number().check(z.int(), z.nonnegative()), sql: z.string() })
export type DeletedRows = z.infer<typeof DeletedRows>

/** The 409 to an update of a row changed meanwhile: what the row holds now. */
export const RowConflict = z.object({ message: z.string(), code: z.literal('row_changed'), current: z.nullable(Values) })
export type RowConflict = z.infer<typeof RowConflict>

export const FOREIGN_KEY_ACTIONS = ['no action', 'restrict', 'cascade', 'set null', 'set default'] as const
export const ForeignKeyAction = z.enum(FOREIGN_KEY_ACTIONS)

export const ColumnDefinition = z.object({
  /** The column's name before this change (an existing column); absent for a new one. */
  original_name: z.optional(z.string()),
  name: z.string().check(z.minLength(1, 'Every column needs a name'), z.maxLength(63)),
  /** A type name: 'bigint', 'text', 'numeric(10,2)', 'timestamptz', 'jsonb', 'text[]', a quoted enum name. */
  type: z.string().check(z.minLength(1, 'Every column needs a type'), z.maxLength(128)),
  /** A SQL expression ('now()', '0', `'draft'`), or empty for none. */
  default: z._default(z.string(), ''),
  nullable: z._default(z.boolean(), true),
  unique: z._default(z.boolean(), false),
  primary_key: z._default(z.boolean(), false),
  /** `generated by default as identity` (an integer type; no default then). */
  identity: z._default(z.boolean(), false),
})
export type ColumnDefinition = z.input<typeof ColumnDefinition>

export const ForeignKeyDefinition = z.object({
  /** Present for an existing constraint (kept as it is); a new one has none. */
  name: z.optional(z.string()),
  columns: z.array(z.string()).check(z.minLength(1)),
  referenced_schema: z._default(z.string().check(z.minLength(1), z.maxLength(63)), 'public'),
  referenced_table: z.string().check(z.minLength(1)),
  referenced_columns: z.array(z.string()).check(z.minLength(1)),
  on_delete: z._default(ForeignKeyAction, 'no action'),
  on_update: z._default(ForeignKeyAction, 'no action'),
})
export type ForeignKeyDefinition = z.input<typeof ForeignKeyDefinition>

export const TableDefinition = z.object({
  name: z.string().check(z.minLength(1, 'The table needs a name'), z.maxLength(63)),
  comment: z._default(z.string(), ''),
  rls_enabled: z._default(z.boolean(), true),
  columns: z.array(ColumnDefinition).check(z.minLength(1, 'A table needs at least one column')),
  foreign_keys: z._default(z.array(ForeignKeyDefinition), []),
})
export type TableDefinition = z.input<typeof TableDefinition>

/** The project's tables a foreign key may reference, each with its columns; `unique` marks a primary key or unique one. */
export const TableReferences = z.object({
  tables: z.array(
    z.object({
      schema: z.string(),
      name: z.string(),
      columns: z.array(z.object({ name: z.string(), type: z.string(), unique: z.boolean() })),
    }),
  ),
})
export type TableReferences = z.infer<typeof TableReferences>

/** `run: false` answers the SQL only; `run: true` runs it (in one transaction) and answers it too. */
export const TableDefinitionBody = z.object({ definition: TableDefinition, run: z._default(z.boolean(), false) })
export type TableDefinitionBody = z.input<typeof TableDefinitionBody>
export const TableDefinitionAnswer = z.object({ sql: z.string(), ran: z.boolean() })
export type TableDefinitionAnswer = z.infer<typeof TableDefinitionAnswer>

export const ImportAnswer = z.object({ inserted: z.number().check(z.int(), z.nonnegative()) })
export type ImportAnswer = z.infer<typeof ImportAnswer>
/** A CSV refused: nothing was written. `line` is the CSV's line number (the header is line 1). */
export const ImportFailure = z.object({
  message: z.string(),
  bad_rows: z.array(z.object({ line: z.number(), message: z.string() })),
})
export type ImportFailure = z.infer<typeof ImportFailure>
