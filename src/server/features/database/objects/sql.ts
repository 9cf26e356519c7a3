/**
 * The one statement a described change runs: the preview shows it and the confirm runs the same text. Every name
 * is quoted (quoteIdent), every enum label is a string literal; expressions, bodies and type names are SQL already
 * and go in as they are (they run as the project's own role, which may run any SQL of its own in the SQL Editor).
 */
import type { ObjectChange } from '../../../../contracts/databaseObjects'
import { quoteIdent as q } from '../../../core/sql'

/** A description Postgres would refuse for a reason the person can fix in the form: said before anything runs. */
export class ChangeRefused extends Error {
  constructor(message: string, readonly status: 400 | 404 = 400) {
    super(message)
    this.name = 'ChangeRefused'
  }
}

/** A string literal (standard_conforming_strings is on, as the SQL runner's guard keeps it). */
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`

const table = (c: { schema: string; table: string }) => `${q(c.schema)}.${q(c.table)}`

/** PUBLIC is a keyword, not a role: quoted, it would name a role called "public". */
const roleList = (roles: string[]) =>
  roles.length === 0 ? 'public' : roles.map((r) => (r === 'public' ? 'public' : q(r))).join(', ')

/** A dollar-quote tag that the body does not contain, so the body cannot end the quoting. */
function dollarQuoted(body: string): string {
  let tag = '$fn$'
  for (let i = 1; body.includes(tag); i++) tag = `$fn${i}$`
  return `${tag}\n${body}\n${tag}`
}

/** The routine a DROP names: found by the caller in the catalog by its id. */
export interface Routine {
  signature: string
  kind: string
}

const DROP_ROUTINE: Record<string, string> = { p: 'procedure', a: 'aggregate', f: 'function', w: 'function' }

export function changeSql(change: ObjectChange, routine?: Routine): string {
  switch (change.action) {
    case 'policy.create': {
      if (change.command === 'INSERT' && change.using) {
        throw new ChangeRefused('An INSERT policy takes a WITH CHECK expression only (no USING)')
      }
      if ((change.command === 'SELECT' || change.command === 'DELETE') && change.check) {
        throw new ChangeRefused(`A ${change.command} policy takes a USING expression only (no WITH CHECK)`)
      }
      if (!change.using && !change.check) throw new ChangeRefused('Give a USING or a WITH CHECK expression')
      return (
        `create policy ${q(change.name)} on ${table(change)}\n` +
        `  as ${change.permissive ? 'permissive' : 'restrictive'}\n` +
        `  for ${change.command.toLowerCase()}\n` +
        `  to ${roleList(change.roles)}` +
        (change.using ? `\n  using (${change.using})` : '') +
        (change.check ? `\n  with check (${change.check})` : '') +
        ';'
      )
    }
    case 'policy.update': {
      const parts: string[] = []
      if (change.roles) parts.push(`\n  to ${roleList(change.roles)}`)
      if (change.using) parts.push(`\n  using (${change.using})`)
      if (change.check) parts.push(`\n  with check (${change.check})`)
      const statements: string[] = []
      if (parts.length > 0) statements.push(`alter policy ${q(change.name)} on ${table(change)}${parts.join('')};`)
      if (change.new_name !== undefined && change.new_name !== change.name) {
        statements.push(`alter policy ${q(change.name)} on ${table(change)} rename to ${q(change.new_name)};`)
      }
      if (statements.length === 0) throw new ChangeRefused('Nothing to change: give new roles, expressions or a new name')
      return statements.join('\n')
    }
    case 'policy.drop':
      return `drop policy ${q(change.name)} on ${table(change)};`
    case 'table.rls':
      return `alter table ${table(change)} ${change.enabled ? 'enable' : 'disable'} row level security;`
    case 'extension.enable':
      return `create extension ${q(change.name)}${change.schema ? ` schema ${q(change.schema)}` : ''};`
    case 'extension.disable':
      return `drop extension ${q(change.name)}${change.cascade ? ' cascade' : ''};`
    case 'function.create': {
      const args = change.arguments.map((a) => `${q(a.name)} ${a.type}`).join(', ')
      return (
        `create function ${q(change.schema)}.${q(change.name)}(${args})\n` +
        `  returns ${change.return_type}\n` +
        `  language ${change.language}\n` +
        (change.security_definer ? '  security definer\n' : '') +
        `  as ${dollarQuoted(change.definition)};`
      )
    }
    case 'function.drop': {
      if (!routine) throw new ChangeRefused(`No function with id ${change.id}`, 404)
      return `drop ${DROP_ROUTINE[routine.kind] ?? 'function'} ${routine.signature};`
    }
    case 'trigger.create':
      return (
        `create trigger ${q(change.name)}\n` +
        `  ${change.timing.toLowerCase()} ${change.events.map((e) => e.toLowerCase()).join(' or ')} on ${table(change)}\n` +
        `  for each ${change.orientation.toLowerCase()}\n` +
        `  execute function ${q(change.function_schema)}.${q(change.function_name)}();`
      )
    case 'trigger.drop':
      return `drop trigger ${q(change.name)} on ${table(change)};`
    case 'trigger.enable':
      return `alter table ${table(change)} ${change.enabled ? 'enable' : 'disable'} trigger ${q(change.name)};`
    case 'type.create':
      return `create type ${q(change.schema)}.${q(change.name)} as enum (${change.values.map(literal).join(', ')});`
    case 'type.drop':
      return `drop type ${q(change.schema)}.${q(change.name)};`
    case 'index.create':
      return (
        `create ${change.unique ? 'unique ' : ''}index${change.name ? ` ${q(change.name)}` : ''} on ${table(change)}` +
        ` using ${change.method} (${change.columns.map(q).join(', ')});`
      )
    case 'index.drop':
      return `drop index ${q(change.schema)}.${q(change.name)};`
    case 'publication.create': {
      const tables = change.tables.map((t) => `${q(t.schema)}.${q(t.name)}`).join(', ')
      return `create publication ${q(change.name)}${tables ? ` for table ${tables}` : ''};`
    }
    case 'publication.drop':
      return `drop publication ${q(change.name)};`
  }
}
