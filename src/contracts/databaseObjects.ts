/**
 * The Database section's objects and the Policies page, read from the project's own database's catalog.
 *   GET  /platform/projects/{ref}/database/objects/schemas                 → SchemaList
 *   GET  /platform/projects/{ref}/database/objects/{kind}?schema=public    → the kind's list (functions, triggers,
 *        types, indexes, policies are per schema; extensions, roles, publications are the database's)
 *   POST /platform/projects/{ref}/database/objects/preview  ObjectChange → ChangePreview (the SQL it would run)
 *   POST /platform/projects/{ref}/database/objects/apply    ObjectChange → ChangeApplied (run by the SQL runner)
 * A change is described, never written as SQL by the dashboard: the server builds the statement (every name quoted),
 * shows it first, and runs the same statement on confirm as the project's own role. Expressions (a policy's USING and
 * WITH CHECK, a function's body, type names) are SQL by nature and go into the statement as they are.
 * A change the database refuses answers 400 QueryError (its message and SQLSTATE); a bad description 400 { message }.
 */
import * as z from 'zod/mini'

/** Postgres keeps 63 bytes of a name (NAMEDATALEN - 1) and cuts a longer one silently: refused here instead. */
const NAME_BYTES = 63
const utf8Length = (s: string) => new TextEncoder().encode(s).length

/** Any name Postgres takes once quoted: spaces, quotes, unicode and reserved words included. */
export const Identifier = z.string().check(
  z.minLength(1, 'a name is required'),
  z.refine((s) => !s.includes('\u0000'), 'a name cannot contain the NUL character'),
  z.refine((s) => utf8Length(s) <= NAME_BYTES, `a name is at most ${NAME_BYTES} bytes (UTF-8) long`),
)

export const OBJECT_KINDS = ['functions', 'triggers', 'types', 'indexes', 'extensions', 'roles', 'publications', 'policies'] as const
export const ObjectKind = z.enum(OBJECT_KINDS)
export type ObjectKind = z.infer<typeof ObjectKind>
/** The kinds listed one schema at a time. */
export const SCHEMA_KINDS: readonly ObjectKind[] = ['functions', 'triggers', 'types', 'indexes', 'policies']

export const ObjectListQuery = z.object({ schema: z.optional(Identifier) })

export const SchemaList = z.array(z.string())
export type SchemaList = z.infer<typeof SchemaList>

export const FunctionItem = z.object({
  id: z.number(),
  schema: z.string(),
  name: z.string(),
  /** pg_get_function_arguments: 'a integer, b text DEFAULT ''x''::text'. */
  arguments: z.string(),
  return_type: z.string(),
  language: z.string(),
  kind: z.enum(['function', 'procedure', 'aggregate', 'window']),
  security_definer: z.boolean(),
  /** The body (prosrc). */
  definition: z.string(),
})
export type FunctionItem = z.infer<typeof FunctionItem>

export const TriggerItem = z.object({
  id: z.number(),
  schema: z.string(),
  table: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  timing: z.enum(['BEFORE', 'AFTER', 'INSTEAD OF']),
  events: z.array(z.enum(['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'])),
  orientation: z.enum(['ROW', 'STATEMENT']),
  function_schema: z.string(),
  function_name: z.string(),
  /** pg_get_triggerdef. */
  definition: z.string(),
})
export type TriggerItem = z.infer<typeof TriggerItem>

/** An enumerated type and its labels in order. */
export const TypeItem = z.object({
  id: z.number(),
  schema: z.string(),
  name: z.string(),
  values: z.array(z.string()),
  comment: z.nullable(z.string()),
})
export type TypeItem = z.infer<typeof TypeItem>

export const IndexItem = z.object({
  id: z.number(),
  schema: z.string(),
  table: z.string(),
  name: z.string(),
  method: z.string(),
  unique: z.boolean(),
  primary: z.boolean(),
  /** pg_get_indexdef. */
  definition: z.string(),
})
export type IndexItem = z.infer<typeof IndexItem>

/**
 * An extension the engine has (PGlite: plpgsql; PostgreSQL: those installed on the server). `can_enable`: the
 * project's role may create it (one that needs no superuser, or a trusted one where the engine's bootstrap role is
 * a superuser, and CREATE on the database); `can_disable`: it is installed and the role owns it.
 */
export const ExtensionItem = z.object({
  name: z.string(),
  default_version: z.nullable(z.string()),
  installed_version: z.nullable(z.string()),
  schema: z.nullable(z.string()),
  comment: z.nullable(z.string()),
  trusted: z.boolean(),
  can_enable: z.boolean(),
  can_disable: z.boolean(),
})
export type ExtensionItem = z.infer<typeof ExtensionItem>

export const RoleItem = z.object({
  id: z.number(),
  name: z.string(),
  superuser: z.boolean(),
  create_role: z.boolean(),
  create_db: z.boolean(),
  can_login: z.boolean(),
  bypass_rls: z.boolean(),
  /** -1: no limit. */
  connection_limit: z.number(),
  member_of: z.array(z.string()),
  /** The role the project's SQL runs as. */
  is_current: z.boolean(),
})
export type RoleItem = z.infer<typeof RoleItem>

export const PublicationItem = z.object({
  id: z.number(),
  name: z.string(),
  owner: z.string(),
  all_tables: z.boolean(),
  insert: z.boolean(),
  update: z.boolean(),
  delete: z.boolean(),
  truncate: z.boolean(),
  /** 'schema.table', for a publication of chosen tables. */
  tables: z.array(z.string()),
})
export type PublicationItem = z.infer<typeof PublicationItem>

export const POLICY_COMMANDS = ['ALL', 'SELECT', 'INSERT', 'UPDATE', 'DELETE'] as const
export const PolicyCommand = z.enum(POLICY_COMMANDS)
export type PolicyCommand = z.infer<typeof PolicyCommand>

export const PolicyItem = z.object({
  name: z.string(),
  command: PolicyCommand,
  permissive: z.boolean(),
  /** 'public' when the policy applies to every role. */
  roles: z.array(z.string()),
  using: z.nullable(z.string()),
  check: z.nullable(z.string()),
})
export type PolicyItem = z.infer<typeof PolicyItem>

/** A table of the schema, its row level security and its policies. */
export const PolicyTable = z.object({
  schema: z.string(),
  name: z.string(),
  rls_enabled: z.boolean(),
  rls_forced: z.boolean(),
  policies: z.array(PolicyItem),
})
export type PolicyTable = z.infer<typeof PolicyTable>

export const FunctionList = z.array(FunctionItem)
export const TriggerList = z.array(TriggerItem)
export const TypeList = z.array(TypeItem)
export const IndexList = z.array(IndexItem)
export const ExtensionList = z.array(ExtensionItem)
export const RoleList = z.array(RoleItem)
export const PublicationList = z.array(PublicationItem)
export const PolicyTableList = z.array(PolicyTable)

/** Each kind's list. */
export interface ObjectLists {
  functions: FunctionItem[]
  triggers: TriggerItem[]
  types: TypeItem[]
  indexes: IndexItem[]
  extensions: ExtensionItem[]
  roles: RoleItem[]
  publications: PublicationItem[]
  policies: PolicyTable[]
}
export const OBJECT_LIST_SCHEMAS = {
  functions: FunctionList,
  triggers: TriggerList,
  types: TypeList,
  indexes: IndexList,
  extensions: ExtensionList,
  roles: RoleList,
  publications: PublicationList,
  policies: PolicyTableList,
} as const

const TableRef = { schema: Identifier, table: Identifier }
const noNul = () => z.refine<string>((s) => !s.includes('\u0000'), 'cannot contain the NUL character')
/** SQL text (an expression, a body, a type name): anything but empty. */
const SqlText = z.string().check(z.trim(), z.minLength(1, 'is required'), noNul())
/** An enum label: Postgres keeps up to 63 bytes. */
const Label = z.string().check(
  z.minLength(1, 'a label is required'),
  noNul(),
  z.refine((s) => utf8Length(s) <= NAME_BYTES, `a label is at most ${NAME_BYTES} bytes (UTF-8) long`),
)

export const ObjectChange = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('policy.create'),
    ...TableRef,
    name: Identifier,
    command: PolicyCommand,
    permissive: z._default(z.boolean(), true),
    /** Empty: every role (PUBLIC). */
    roles: z._default(z.array(Identifier), []),
    using: z.optional(SqlText),
    check: z.optional(SqlText),
  }),
  z.object({
    action: z.literal('policy.update'),
    ...TableRef,
    name: Identifier,
    new_name: z.optional(Identifier),
    roles: z.optional(z.array(Identifier)),
    using: z.optional(SqlText),
    check: z.optional(SqlText),
  }),
  z.object({ action: z.literal('policy.drop'), ...TableRef, name: Identifier }),
  z.object({ action: z.literal('table.rls'), ...TableRef, enabled: z.boolean() }),
  z.object({ action: z.literal('extension.enable'), name: Identifier, schema: z.optional(Identifier) }),
  z.object({ action: z.literal('extension.disable'), name: Identifier, cascade: z._default(z.boolean(), false) }),
  z.object({
    action: z.literal('function.create'),
    schema: Identifier,
    name: Identifier,
    arguments: z._default(z.array(z.object({ name: Identifier, type: SqlText })), []),
    return_type: SqlText,
    language: z.enum(['sql', 'plpgsql']),
    definition: SqlText,
    security_definer: z._default(z.boolean(), false),
  }),
  z.object({ action: z.literal('function.drop'), id: z.number().check(z.int(), z.positive()) }),
  z.object({
    action: z.literal('trigger.create'),
    ...TableRef,
    name: Identifier,
    timing: z.enum(['BEFORE', 'AFTER']),
    events: z.array(z.enum(['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'])).check(z.minLength(1, 'choose at least one event')),
    orientation: z.enum(['ROW', 'STATEMENT']),
    function_schema: Identifier,
    function_name: Identifier,
  }),
  z.object({ action: z.literal('trigger.drop'), ...TableRef, name: Identifier }),
  z.object({ action: z.literal('trigger.enable'), ...TableRef, name: Identifier, enabled: z.boolean() }),
  z.object({
    action: z.literal('type.create'),
    schema: Identifier,
    name: Identifier,
    values: z.array(Label).check(z.minLength(1, 'give at least one value')),
  }),
  z.object({ action: z.literal('type.drop'), schema: Identifier, name: Identifier }),
  z.object({
    action: z.literal('index.create'),
    ...TableRef,
    name: z.optional(Identifier),
    columns: z.array(Identifier).check(z.minLength(1, 'choose at least one column')),
    method: z._default(z.enum(['btree', 'hash', 'gin', 'gist', 'brin']), 'btree'),
    unique: z._default(z.boolean(), false),
  }),
  z.object({ action: z.literal('index.drop'), schema: Identifier, name: Identifier }),
  z.object({
    action: z.literal('publication.create'),
    name: Identifier,
    tables: z._default(z.array(z.object({ schema: Identifier, name: Identifier })), []),
  }),
  z.object({ action: z.literal('publication.drop'), name: Identifier }),
])
export type ObjectChange = z.infer<typeof ObjectChange>
/** What the dashboard sends (defaults may be left out). */
export type ObjectChangeInput = z.input<typeof ObjectChange>

export const ChangePreview = z.object({ sql: z.string() })
export type ChangePreview = z.infer<typeof ChangePreview>

export const ChangeApplied = z.object({
  sql: z.string(),
  /** The command tag's verb of the statement run: 'CREATE POLICY', 'ALTER TABLE' … */
  command: z.string(),
})
export type ChangeApplied = z.infer<typeof ChangeApplied>
