/** Fixtures of the SQL Editor's runs, catalog and saved queries (machine, model and view tests). */
import type { Snippet } from '../src/contracts/snippets'
import type { SqlRunResult } from '../src/contracts/sqlEditor'
import type { SqlCatalog } from '../machines/sqlEditor.machine'

export const RUN_RESULT: SqlRunResult = {
  results: [
    {
      columns: [
        { name: 'id', type: 'bigint' },
        { name: 'email', type: 'text' },
      ],
      rows: [
        { id: '1', email: 'ada@example.com' },
        { id: '2', email: null },
      ],
      rowCount: 2,
      command: 'SELECT',
      capped: false,
    },
    { columns: [], rows: [], rowCount: 0, command: 'CREATE TABLE', capped: false },
  ],
  durationMs: 3.5,
  readOnly: false,
  role: 'postgres',
  rowLimit: 1000,
}

export const PLAN_RESULT: SqlRunResult = {
  results: [],
  plan: { 'Node Type': 'ModifyTable', 'Total Cost': 35.5, Plans: [{ 'Node Type': 'Seq Scan', 'Relation Name': 'notes', 'Plan Rows': 6 }] },
  durationMs: 1,
  readOnly: true,
  role: 'postgres',
  rowLimit: 1000,
}

export const CATALOG: SqlCatalog = {
  completions: {
    schemas: ['public', 'auth'],
    tables: [{ schema: 'public', name: 'customers', columns: [{ name: 'email', type: 'text' }] }],
    functions: [{ schema: 'public', name: 'twice', args: 'n integer', returns: 'integer' }],
  },
  users: [{ id: '11111111-1111-4111-8111-111111111111', email: 'alice@example.com' }],
}

export const snippet = (over: Partial<Snippet> = {}): Snippet => ({
  id: '44444444-4444-4444-8444-444444444444',
  inserted_at: '2026-11-20T10:00:00.000Z',
  updated_at: '2026-11-20T10:00:00.000Z',
  type: 'sql',
  visibility: 'user',
  name: 'Customers',
  description: null,
  project: { id: 1, name: 'Demo' },
  owner: { id: 1, username: 'owner' },
  updated_by: { id: 1, username: 'owner' },
  favorite: false,
  content: { schema_version: '1.0', sql: 'select * from customers', favorite: false },
  ...over,
})
