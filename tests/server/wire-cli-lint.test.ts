/**
 * The official CLI's `db lint` through the Postgres port. It runs `CREATE EXTENSION IF NOT EXISTS plpgsql_check`
 * and calls `plpgsql_check_function` by its bare name, as the project's own login role (no superuser).
 *  - PostgreSQL store with Debian's postgresql-15-plpgsql-check installed (.ci/run installs it): the platform made
 *    the extension in schema extensions, on the database's search path, so a function with an error is reported.
 *  - PostgreSQL without the package, and PGlite (no build of the extension): the CLI fails with PostgreSQL's own
 *    error naming the extension.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCliRig, type CliRig } from './cli-support'
import { isPostgres } from './helpers'
import { withPgClient } from './pgCluster'

let rig: CliRig

/** The CLI's output when it fails, or 'exit 0'. */
const failure = (p: Promise<{ stdout: string; stderr: string }>) =>
  p.then(
    () => 'exit 0',
    (err: { stdout: string; stderr: string }) => `${err.stdout}${err.stderr}`,
  )

const onTheWire = <T>(fn: (c: pg.Client) => Promise<T>) => withPgClient(rig.dbUrl, fn)

beforeAll(async () => {
  rig = await startCliRig('lint-db-password-1')
  await rig.cli(['init'])
}, 120_000)

afterAll(() => rig?.close())

describe('supabase db lint on the Postgres port', () => {
  it('reports a function with an error where the server has plpgsql_check, and names the extension where not', async () => {
    await onTheWire(async (c) => {
      await c.query(`create table public.lint_items (id int primary key, label text)`)
      // Compiles (PL/pgSQL checks bodies only when they run), but names a column the table lacks.
      await c.query(`create function public.lint_broken() returns text language plpgsql as $$
        declare r text;
        begin
          select missing_column into r from public.lint_items;
          return r;
        end $$`)
      await c.query(`create function public.lint_fine() returns bigint language plpgsql as $$
        begin
          return (select count(*) from public.lint_items);
        end $$`)
    })
    const installed = await onTheWire(async (c) => {
      const { rows } = await c.query<{ available: boolean }>(`select exists (select from pg_available_extensions where name = 'plpgsql_check') as available`)
      return rows[0].available
    })
    // PGlite has no build of it; on PostgreSQL the package is .ci/run's (a server without it still passes, so say so).
    if (isPostgres && !installed) console.warn('db lint: this PostgreSQL server has no plpgsql_check (apt-get install postgresql-15-plpgsql-check): checking the CLI names it')
    if (!installed) {
      const refused = await failure(rig.cli(['db', 'lint', '--db-url', rig.dbUrl, '--schema', 'public']))
      expect(refused).toMatch(/extension "plpgsql_check" is not available/)
      return
    }
    const linted = await rig.cli(['db', 'lint', '--db-url', rig.dbUrl, '--schema', 'public', '--level', 'error'])
    const report = JSON.parse(linted.stdout) as { function: string; issues: { level: string; message: string }[] }[]
    expect(report.map((r) => r.function)).toEqual(['public.lint_broken'])
    expect(report[0].issues).toContainEqual(expect.objectContaining({ level: 'error', message: expect.stringMatching(/missing_column/) }))

    // Made by the platform in schema extensions, once; the project's role is still no superuser.
    const state = await onTheWire(async (c) => {
      const { rows } = await c.query<{ schema: string; superuser: boolean }>(
        `select e.extnamespace::regnamespace::text as schema, (select rolsuper from pg_roles where rolname = current_user) as superuser
         from pg_extension e where e.extname = 'plpgsql_check'`,
      )
      return rows
    })
    expect(state).toEqual([{ schema: 'extensions', superuser: false }])
    // The tenant may not drop the platform's extension, nor make another untrusted one.
    const refused = await onTheWire((c) => c.query('drop extension plpgsql_check').then(() => 'dropped', (e: Error) => e.message))
    expect(refused).toMatch(/must be owner of extension plpgsql_check/)
  }, 180_000)
})
