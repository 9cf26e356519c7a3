/**
 * The catalog reads of the Database section: one query per list, each run in a read-only transaction as the
 * project's own role, so a list shows what that role's catalog shows. Names are parameters, never SQL text.
 *
 * Roles: on PostgreSQL the roles are the server's, shared by every database on it, and each project logs in as a
 * role of its own; the list keeps the roles that cannot log in (the API roles, the predefined pg_* roles) and the
 * project's own, so no other project's login role (nor the platform's) is shown.
 */
import type {
  ExtensionItem, FunctionItem, IndexItem, PolicyTable, PublicationItem, RoleItem, TriggerItem, TypeItem,
} from '../../../../contracts/databaseObjects'
import type { ProjectTx } from '../../../projectdb/types'

/** Schemas that are Postgres's own: never listed. */
const SYSTEM_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname !~ '^pg_(temp|toast_temp)_'`

export async function listSchemas(tx: ProjectTx): Promise<string[]> {
  const { rows } = await tx.query<{ name: string }>(
    `select n.nspname as name from pg_namespace n where ${SYSTEM_SCHEMAS} order by n.nspname = 'public' desc, n.nspname`,
  )
  return rows.map((r) => r.name)
}

const FUNCTIONS_SQL = `
  select p.oid::int as id, n.nspname as schema, p.proname as name,
         pg_get_function_arguments(p.oid) as arguments,
         case when p.prokind = 'p' then '' else pg_get_function_result(p.oid) end as return_type,
         l.lanname as language, p.prokind as kind, p.prosecdef as security_definer, coalesce(p.prosrc, '') as definition
  from pg_proc p
  join pg_namespace n on n.oid = p.pronamespace
  join pg_language l on l.oid = p.prolang
  where n.nspname = $1
    and not exists (select from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
  order by p.proname, p.oid`

const KINDS: Record<string, FunctionItem['kind']> = { f: 'function', p: 'procedure', a: 'aggregate', w: 'window' }

/** The schema's functions, without those an extension brought (they go with it). */
export async function listFunctions(tx: ProjectTx, schema: string): Promise<FunctionItem[]> {
  const { rows } = await tx.query<Omit<FunctionItem, 'kind'> & { kind: string }>(FUNCTIONS_SQL, [schema])
  return rows.map((r) => ({ ...r, id: Number(r.id), kind: KINDS[r.kind] ?? 'function', return_type: r.return_type ?? '' }))
}

// tgtype's bits (pg_trigger.h): 1 row, 2 before, 4 insert, 8 delete, 16 update, 32 truncate, 64 instead.
const TRIGGERS_SQL = `
  select t.oid::int as id, n.nspname as schema, c.relname as "table", t.tgname as name, t.tgenabled <> 'D' as enabled,
         t.tgtype::int as type, pn.nspname as function_schema, p.proname as function_name,
         pg_get_triggerdef(t.oid) as definition
  from pg_trigger t
  join pg_class c on c.oid = t.tgrelid
  join pg_namespace n on n.oid = c.relnamespace
  join pg_proc p on p.oid = t.tgfoid
  join pg_namespace pn on pn.oid = p.pronamespace
  where n.nspname = $1 and not t.tgisinternal
  order by c.relname, t.tgname`

export async function listTriggers(tx: ProjectTx, schema: string): Promise<TriggerItem[]> {
  const { rows } = await tx.query<Omit<TriggerItem, 'timing' | 'events' | 'orientation'> & { type: number }>(TRIGGERS_SQL, [schema])
  return rows.map(({ type, ...r }) => {
    const t = Number(type)
    const events: TriggerItem['events'] = []
    if (t & 4) events.push('INSERT')
    if (t & 16) events.push('UPDATE')
    if (t & 8) events.push('DELETE')
    if (t & 32) events.push('TRUNCATE')
    return {
      ...r,
      id: Number(r.id),
      timing: t & 64 ? 'INSTEAD OF' : t & 2 ? 'BEFORE' : 'AFTER',
      events,
      orientation: t & 1 ? 'ROW' : 'STATEMENT',
    }
  })
}

const TYPES_SQL = `
  select t.oid::int as id, n.nspname as schema, t.typname as name,
         array(select e.enumlabel::text from pg_enum e where e.enumtypid = t.oid order by e.enumsortorder) as values,
         obj_description(t.oid, 'pg_type') as comment
  from pg_type t
  join pg_namespace n on n.oid = t.typnamespace
  where n.nspname = $1 and t.typtype = 'e'
  order by t.typname`

/** The schema's enumerated types. */
export async function listTypes(tx: ProjectTx, schema: string): Promise<TypeItem[]> {
  const { rows } = await tx.query<TypeItem>(TYPES_SQL, [schema])
  return rows.map((r) => ({ ...r, id: Number(r.id) }))
}

const INDEXES_SQL = `
  select i.indexrelid::int as id, n.nspname as schema, c.relname as "table", ic.relname as name, am.amname as method,
         i.indisunique as unique, i.indisprimary as primary, pg_get_indexdef(i.indexrelid) as definition
  from pg_index i
  join pg_class ic on ic.oid = i.indexrelid
  join pg_class c on c.oid = i.indrelid
  join pg_namespace n on n.oid = c.relnamespace
  join pg_am am on am.oid = ic.relam
  where n.nspname = $1
  order by c.relname, ic.relname`

export async function listIndexes(tx: ProjectTx, schema: string): Promise<IndexItem[]> {
  const { rows } = await tx.query<IndexItem>(INDEXES_SQL, [schema])
  return rows.map((r) => ({ ...r, id: Number(r.id) }))
}

/**
 * What the engine has, and what the project's role may do with it. A role that is no superuser may create an
 * extension that needs no superuser, or a trusted one, whose script Postgres runs as the bootstrap superuser (oid 10),
 * where it may create in the database; it may drop one it owns. On PGlite the lock-down took superuser from the
 * bootstrap role too, so no extension past plpgsql can be created there, and the answer says so.
 */
const EXTENSIONS_SQL = `
  select a.name, a.default_version, e.extversion as installed_version, en.nspname as schema, a.comment,
         coalesce(v.trusted, false) as trusted,
         e.oid is null and has_database_privilege(current_database(), 'CREATE')
           and coalesce(r.rolsuper or not v.superuser or v.trusted and (select b.rolsuper from pg_roles b where b.oid = 10), false) as can_enable,
         e.oid is not null and pg_has_role(e.extowner, 'USAGE') as can_disable
  from pg_available_extensions a
  left join pg_available_extension_versions v on v.name = a.name and v.version = a.default_version
  left join pg_extension e on e.extname = a.name
  left join pg_namespace en on en.oid = e.extnamespace
  left join pg_roles r on r.rolname = current_user
  order by a.name`

export async function listExtensions(tx: ProjectTx): Promise<ExtensionItem[]> {
  const { rows } = await tx.query<ExtensionItem>(EXTENSIONS_SQL)
  return rows
}

const ROLES_SQL = `
  select r.oid::int as id, r.rolname as name, r.rolsuper as superuser, r.rolcreaterole as create_role,
         r.rolcreatedb as create_db, r.rolcanlogin as can_login, r.rolbypassrls as bypass_rls,
         r.rolconnlimit as connection_limit,
         array(select g.rolname::text from pg_auth_members m join pg_roles g on g.oid = m.roleid
               where m.member = r.oid order by g.rolname) as member_of,
         r.rolname = current_user as is_current
  from pg_roles r
  where not r.rolcanlogin or r.rolname = current_user
  order by r.rolname = current_user desc, r.rolname ~ '^pg_', r.rolname`

export async function listRoles(tx: ProjectTx): Promise<RoleItem[]> {
  const { rows } = await tx.query<RoleItem>(ROLES_SQL)
  return rows.map((r) => ({ ...r, id: Number(r.id), connection_limit: Number(r.connection_limit) }))
}

const PUBLICATIONS_SQL = `
  select p.oid::int as id, p.pubname as name, pg_get_userbyid(p.pubowner) as owner, p.puballtables as all_tables,
         p.pubinsert as insert, p.pubupdate as update, p.pubdelete as delete, p.pubtruncate as truncate,
         array(select format('%s.%s', pt.schemaname, pt.tablename) from pg_publication_tables pt
               where pt.pubname = p.pubname and not p.puballtables order by 1) as tables
  from pg_publication p
  order by p.pubname`

export async function listPublications(tx: ProjectTx): Promise<PublicationItem[]> {
  const { rows } = await tx.query<PublicationItem>(PUBLICATIONS_SQL)
  return rows.map((r) => ({ ...r, id: Number(r.id) }))
}

const POLICY_TABLES_SQL = `
  select c.oid::int as id, c.relname as name, c.relrowsecurity as rls_enabled, c.relforcerowsecurity as rls_forced
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = $1 and c.relkind in ('r', 'p') and not c.relispartition
  order by c.relname`

const POLICIES_SQL = `
  select pol.polrelid::int as relid, pol.polname as name, pol.polcmd as cmd, pol.polpermissive as permissive,
         case when pol.polroles = '{0}' then array['public']::text[]
              else array(select pg_get_userbyid(r)::text from unnest(pol.polroles) r order by 1) end as roles,
         pg_get_expr(pol.polqual, pol.polrelid) as using, pg_get_expr(pol.polwithcheck, pol.polrelid) as check
  from pg_policy pol
  join pg_class c on c.oid = pol.polrelid
  join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = $1
  order by pol.polname`

const COMMANDS: Record<string, PolicyTable['policies'][number]['command']> = {
  '*': 'ALL', r: 'SELECT', a: 'INSERT', w: 'UPDATE', d: 'DELETE',
}

/** The schema's tables, each with its row level security and its policies. */
export async function listPolicies(tx: ProjectTx, schema: string): Promise<PolicyTable[]> {
  const tables = (await tx.query<{ id: number; name: string; rls_enabled: boolean; rls_forced: boolean }>(POLICY_TABLES_SQL, [schema])).rows
  const policies = (
    await tx.query<{ relid: number; name: string; cmd: string; permissive: boolean; roles: string[]; using: string | null; check: string | null }>(
      POLICIES_SQL,
      [schema],
    )
  ).rows
  return tables.map((t) => ({
    schema,
    name: t.name,
    rls_enabled: t.rls_enabled,
    rls_forced: t.rls_forced,
    policies: policies
      .filter((p) => Number(p.relid) === Number(t.id))
      .map((p) => ({
        name: p.name,
        command: COMMANDS[p.cmd] ?? 'ALL',
        permissive: p.permissive,
        roles: p.roles,
        using: p.using,
        check: p.check,
      })),
  }))
}

/** A routine's signature as DROP takes it (`"my schema"."f"(integer, text)`, every name quoted), or undefined. */
export async function functionSignature(tx: ProjectTx, id: number): Promise<{ signature: string; kind: string } | undefined> {
  const { rows } = await tx.query<{ signature: string; kind: string }>(
    `select format('%I.%I(%s)', n.nspname, p.proname, pg_get_function_identity_arguments(p.oid)) as signature, p.prokind as kind
     from pg_proc p join pg_namespace n on n.oid = p.pronamespace where p.oid = $1::oid`,
    [id],
  )
  return rows.at(0)
}
