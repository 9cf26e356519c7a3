/**
 * The Management API's reads of what a project's API exposes, for any member of the project's organization:
 *   GET /v1/projects/{ref}/database/openapi       the OpenAPI document PostgREST serves for `schema` (default public;
 *                                                 one of the schemas the API serves, as PATCH …/postgrest sets them),
 *                                                 introspected as the owner sees it
 *   GET /v1/projects/{ref}/advisors/security      lints of the project's catalog in splinter's shape: tables the API
 *   GET /v1/projects/{ref}/advisors/performance   serves without row level security, policies on tables where it is
 *                                                 off, RLS with no policy, functions with a mutable search_path;
 *                                                 foreign keys without a covering index, tables without a primary
 *                                                 key, duplicate indexes
 * Each reads the project's database, so a project that is not ACTIVE_HEALTHY answers as every database read does.
 */
import { Hono, type Context } from 'hono'
import { endpoint } from '../../../contracts/endpoint'
import { V1Advisors, V1DatabaseOpenApiQuery, type V1Lint } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { answerDatabaseFailure } from '../../core/domainErrors'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { ProjectDbError, type ProjectTx } from '../../projectdb/types'
import { DATABASE_UNAVAILABLE, memberProject, refParam, refuseUnlessActive, type MemberProjectEnv } from '../projects/access'
import { introspect } from './catalog'
import { buildOpenApi } from './openapi'
import { documentTarget } from './routes'
import { restSettings } from './store'

const v1GetDatabaseOpenApi = endpoint('GET', 'v1', '/projects/:ref/database/openapi', { query: V1DatabaseOpenApiQuery })
const v1SecurityAdvisors = endpoint('GET', 'v1', '/projects/:ref/advisors/security', { response: V1Advisors })
const v1PerformanceAdvisors = endpoint('GET', 'v1', '/projects/:ref/advisors/performance', { response: V1Advisors })

/** The platform's own schemas (and Postgres's): the advisors judge only what the project's people made. */
const SYSTEM_SCHEMAS = [
  'auth', 'storage', 'realtime', 'extensions', 'graphql', 'graphql_public', 'supabase_migrations', 'supabase_functions',
  'vault', 'pgsodium', 'pgbouncer', 'net', 'cron', 'information_schema', 'pg_catalog', 'pg_toast',
]
const PEOPLES = `n.nspname <> all($1::text[]) and n.nspname not like 'pg\\_%'`
const LINTER = 'https://supabase.com/docs/guides/database/database-linter?lint='

interface Found {
  schema: string
  name: string
  /** What the detail names besides the table: its policies, indexes or the foreign key. */
  extra?: string
  fkey_columns?: number[]
}

interface LintRule {
  name: string
  title: string
  level: V1Lint['level']
  category: 'SECURITY' | 'PERFORMANCE'
  description: string
  remediation: string
  type: 'table' | 'function'
  /** $1 the platform's schemas, $2 the schemas the API serves. */
  sql: string
  detail(f: Found): string
}

const tables = `pg_class c join pg_namespace n on n.oid = c.relnamespace`
const RULES: LintRule[] = [
  {
    name: 'rls_disabled_in_public',
    title: 'RLS Disabled in Public',
    level: 'ERROR',
    category: 'SECURITY',
    description: 'Detects cases where row level security (RLS) has not been enabled on tables in schemas exposed to PostgREST',
    remediation: `${LINTER}0013_rls_disabled_in_public`,
    type: 'table',
    sql: `select n.nspname as schema, c.relname as name from ${tables}
          where c.relkind in ('r', 'p') and not c.relrowsecurity and n.nspname = any($2::text[]) and ${PEOPLES} order by 1, 2`,
    detail: (f) => `Table \`${f.schema}.${f.name}\` is public, but RLS has not been enabled.`,
  },
  {
    name: 'policy_exists_rls_disabled',
    title: 'Policy Exists RLS Disabled',
    level: 'ERROR',
    category: 'SECURITY',
    description: 'Detects cases where row level security (RLS) policies have been created, but RLS has not been enabled for the underlying table.',
    remediation: `${LINTER}0007_policy_exists_rls_disabled`,
    type: 'table',
    sql: `select n.nspname as schema, c.relname as name, array_agg(p.polname order by p.polname)::text as extra
          from pg_policy p join ${tables} on c.oid = p.polrelid
          where not c.relrowsecurity and ${PEOPLES} group by 1, 2 order by 1, 2`,
    detail: (f) => `Table \`${f.schema}.${f.name}\` has RLS policies but RLS is not enabled on the table. Policies include ${f.extra}.`,
  },
  {
    name: 'rls_enabled_no_policy',
    title: 'RLS Enabled No Policy',
    level: 'INFO',
    category: 'SECURITY',
    description: 'Detects cases where row level security (RLS) has been enabled on a table but no RLS policies have been created.',
    remediation: `${LINTER}0008_rls_enabled_no_policy`,
    type: 'table',
    sql: `select n.nspname as schema, c.relname as name from ${tables}
          where c.relkind in ('r', 'p') and c.relrowsecurity and ${PEOPLES}
            and not exists (select 1 from pg_policy p where p.polrelid = c.oid) order by 1, 2`,
    detail: (f) => `Table \`${f.schema}.${f.name}\` has RLS enabled, but no policies exist`,
  },
  {
    name: 'function_search_path_mutable',
    title: 'Function Search Path Mutable',
    level: 'WARN',
    category: 'SECURITY',
    description: 'Detects functions where the search_path parameter is not set.',
    remediation: `${LINTER}0011_function_search_path_mutable`,
    type: 'function',
    sql: `select distinct n.nspname as schema, p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where ${PEOPLES} and p.prokind in ('f', 'p')
            and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
            and not exists (select 1 from unnest(coalesce(p.proconfig, '{}'::text[])) s where s like 'search\\_path=%')
          order by 1, 2`,
    detail: (f) => `Function \`${f.schema}.${f.name}\` has a role mutable search_path`,
  },
  {
    name: 'unindexed_foreign_keys',
    title: 'Unindexed foreign keys',
    level: 'INFO',
    category: 'PERFORMANCE',
    description: 'Identifies foreign key constraints without a covering index, which can impact database performance.',
    remediation: `${LINTER}0001_unindexed_foreign_keys`,
    type: 'table',
    // Covered: an index whose leading columns are the key's columns, in any order.
    sql: `select n.nspname as schema, c.relname as name, k.conname as extra, k.conkey::int[] as fkey_columns
          from pg_constraint k join ${tables} on c.oid = k.conrelid
          where k.contype = 'f' and ${PEOPLES}
            and not exists (
              select 1 from pg_index i where i.indrelid = k.conrelid
                and (select array_agg(a order by a) from unnest((string_to_array(i.indkey::text, ' ')::int2[])[1:cardinality(k.conkey)]) a)
                  = (select array_agg(a order by a) from unnest(k.conkey) a))
          order by 1, 2, 3`,
    detail: (f) =>
      `Table \`${f.schema}.${f.name}\` has a foreign key \`${f.extra}\` without a covering index. This can lead to suboptimal query performance.`,
  },
  {
    name: 'no_primary_key',
    title: 'No Primary Key',
    level: 'INFO',
    category: 'PERFORMANCE',
    description: 'Detects if a table does not have a primary key. Tables without a primary key can be inefficient to interact with at scale.',
    remediation: `${LINTER}0004_no_primary_key`,
    type: 'table',
    sql: `select n.nspname as schema, c.relname as name from ${tables}
          where c.relkind in ('r', 'p') and ${PEOPLES}
            and not exists (select 1 from pg_index i where i.indrelid = c.oid and i.indisprimary) order by 1, 2`,
    detail: (f) => `Table \`${f.schema}.${f.name}\` does not have a primary key`,
  },
  {
    name: 'duplicate_index',
    title: 'Duplicate Index',
    level: 'WARN',
    category: 'PERFORMANCE',
    description: 'Detects cases where two ore more identical indexes exist.',
    remediation: `${LINTER}0009_duplicate_index`,
    type: 'table',
    sql: `select n.nspname as schema, c.relname as name, array_agg(x.relname order by x.relname)::text as extra
          from pg_index i join pg_class x on x.oid = i.indexrelid join ${tables} on c.oid = i.indrelid
          where ${PEOPLES}
          group by n.nspname, c.relname, i.indkey::text, i.indclass::text, i.indcollation::text, i.indisunique,
                   coalesce(pg_get_expr(i.indexprs, i.indrelid), ''), coalesce(pg_get_expr(i.indpred, i.indrelid), '')
          having count(*) > 1 order by 1, 2, 3`,
    detail: (f) => `Table \`${f.schema}.${f.name}\` has identical indexes ${f.extra}. Drop all except one of them`,
  },
]

/** Every lint of the category found in the project's catalog, in the rules' order. */
export async function lintsOf(tx: ProjectTx, category: LintRule['category'], exposed: string[]): Promise<V1Lint[]> {
  const lints: V1Lint[] = []
  for (const rule of RULES.filter((r) => r.category === category)) {
    // A statement is sent only the parameters it uses (Postgres refuses a bind with more).
    const { rows } = await tx.query<Found>(rule.sql, rule.sql.includes('$2') ? [SYSTEM_SCHEMAS, exposed] : [SYSTEM_SCHEMAS])
    for (const f of rows) {
      lints.push({
        name: rule.name,
        title: rule.title,
        level: rule.level,
        facing: 'EXTERNAL',
        categories: [rule.category],
        description: rule.description,
        detail: rule.detail(f),
        remediation: rule.remediation,
        metadata: {
          schema: f.schema,
          name: f.name,
          type: rule.type,
          ...(rule.name === 'unindexed_foreign_keys' ? { fkey_name: f.extra, fkey_columns: f.fkey_columns?.map(Number) } : {}),
        },
        cache_key: [rule.name, f.schema, f.name, ...(f.extra && rule.name === 'unindexed_foreign_keys' ? [f.extra] : [])].join('_'),
      })
    }
  }
  return lints
}

export function restV1Routes(deps: Deps) {
  const { db, projectDbs } = deps
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  /** Runs a read of the project's database as its owner, answering as every database read does when it cannot. */
  async function readDatabase(c: Context<MemberProjectEnv>, read: (tx: ProjectTx) => Promise<Response>) {
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    try {
      return await projectDbs.transaction(c.var.project.ref, { role: 'postgres', readOnly: true }, read)
    } catch (err) {
      if (!(err instanceof ProjectDbError)) throw err
      return answerDatabaseFailure(c, err, "The project's database is not available right now")
    }
  }

  app.on(...at(v1GetDatabaseOpenApi), refParam, validate('query', V1DatabaseOpenApiQuery), project, async (c) => {
    const schema = c.req.valid('query').schema ?? 'public'
    const { schemas } = await restSettings(deps, c.var.project.id)
    // PostgREST's own refusal of a schema it does not serve (PGRST106).
    if (!schemas.includes(schema)) return errorJson(c, 400, `The schema must be one of the following: ${schemas.join(', ')}`, 'PGRST106')
    return readDatabase(c, async (tx) => c.json(buildOpenApi(await introspect(tx, schema), documentTarget(deps, c.var.project.ref))))
  })

  for (const [route, category] of [
    [v1SecurityAdvisors, 'SECURITY'],
    [v1PerformanceAdvisors, 'PERFORMANCE'],
  ] as const) {
    app.on(...at(route), refParam, project, async (c) => {
      const { schemas } = await restSettings(deps, c.var.project.id)
      return readDatabase(c, async (tx) => c.json({ lints: await lintsOf(tx, category, schemas) } satisfies V1Advisors))
    })
  }

  return app
}
