/** Fixtures of a project's own database (the SQL Editor, Table Editor and Database page tests). */
import type { DatabaseTable, QueryResult, TableRows, V1CreatedProject } from '../src/contracts/database'

const column = (name: string, data_type: string, more: Partial<DatabaseTable['columns'][number]> = {}): DatabaseTable['columns'][number] => ({
  name,
  data_type,
  is_nullable: false,
  default_value: null,
  is_identity: false,
  is_primary_key: false,
  comment: null,
  enums: [],
  ...more,
})

export const CUSTOMERS: DatabaseTable = {
  name: 'customers',
  schema: 'public',
  kind: 'table',
  comment: 'People who order',
  rls_enabled: true,
  estimated_rows: 2,
  columns: [column('id', 'bigint', { is_identity: true, is_primary_key: true }), column('email', 'text')],
  primary_keys: ['id'],
  relationships: [],
}

export const ORDERS: DatabaseTable = {
  name: 'orders',
  schema: 'public',
  kind: 'table',
  comment: null,
  rls_enabled: false,
  estimated_rows: 250,
  columns: [
    column('id', 'bigint', { is_identity: true, is_primary_key: true }),
    column('customer_id', 'bigint', { is_nullable: true }),
    column('status', 'public.order_status', { default_value: "'new'::order_status", enums: ['new', 'paid'] }),
    column('placed_at', 'timestamp with time zone', { default_value: 'now()' }),
  ],
  primary_keys: ['id'],
  relationships: [{ constraint_name: 'orders_customer_id_fkey', source_columns: ['customer_id'], target_table: 'customers', target_columns: ['id'] }],
}

export const TABLES: DatabaseTable[] = [CUSTOMERS, ORDERS]

/** A page of `orders` (250 rows in all). */
export function ordersPage(offset: number, limit = 100, total = 250): TableRows {
  const count = Math.max(0, Math.min(limit, total - offset))
  return {
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'customer_id', type: 'bigint' },
      { name: 'status', type: 'public.order_status' },
    ],
    rows: Array.from({ length: count }, (_, i) => ({ id: offset + i + 1, customer_id: i % 3 === 0 ? null : 1, status: 'new' })),
    offset,
    limit,
    total,
  }
}

export const SELECT_RESULT: QueryResult = {
  columns: [
    { name: 'n', type: 'integer' },
    { name: 'doc', type: 'jsonb' },
  ],
  rows: [
    { n: 1, doc: { a: 1 } },
    { n: 2, doc: null },
  ],
  rowCount: 2,
  command: 'SELECT',
  durationMs: 3.25,
  readOnly: false,
}

export const CREATED_PROJECT: V1CreatedProject = {
  id: '9',
  ref: 'zyxwvutsrqponmlkjihg',
  organization_id: '2',
  organization_slug: 'demo-pro',
  name: 'Recipes',
  region: 'eu-west-1',
  created_at: '2026-11-23T10:00:00.000Z',
  status: 'COMING_UP',
}
