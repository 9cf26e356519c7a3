/** Demo data belongs to the seed: a fresh database ends as it did when migration 003 credited the demo Owner. */
import { describe, expect, it } from 'vitest'
import { createApp } from '../../src/server/app'
import { migrations } from '../../src/server/db/migrate'
import { FakeClock, OWNER, createTestStore, testConfig } from './helpers'

describe('the demo Owner as creator of projects', () => {
  it('a fresh database: every demo project is the Owner’s', async () => {
    const store = await createTestStore()
    const db = await store.open()
    try {
      const app = await createApp({ db, config: testConfig(), clock: new FakeClock() })
      await app.close()
      const { rows } = await db.query<{ email: string | null; n: number }>(
        `select a.primary_email as email, count(*)::int as n from projects p left join accounts a on a.id = p.created_by
         group by a.primary_email`,
      )
      expect(rows).toEqual([{ email: OWNER, n: 11 }])
    } finally {
      await store.destroy()
    }
  })

  it('a database from before migration 003: its projects are credited to the Owner when 003 is applied', async () => {
    const store = await createTestStore()
    const db = await store.open()
    try {
      await db.transaction(async (tx) => {
        await tx.exec(`create table schema_migrations (id text primary key, applied_at timestamptz not null default now())`)
        for (const m of migrations.slice(0, 2)) {
          await tx.exec(m.sql)
          await tx.query('insert into schema_migrations (id) values ($1)', [m.id])
        }
      })
      await db.query(`insert into accounts (username, primary_email, password_hash) values ('owner', $1, 'x')`, [OWNER])
      const { rows: org } = await db.query<{ id: number }>(`insert into organizations (slug, name, plan_id) values ('old', 'Old', 'free') returning id`)
      await db.query(
        `insert into projects (ref, organization_id, name, status, region, db_version, inserted_at, updated_at)
         values ('eeeeeeeeeeeeeeeeeeee', $1, 'Old one', 'INACTIVE', 'us-east-1', '15.6', now(), now())`,
        [org[0].id],
      )
      const app = await createApp({ db, config: testConfig(), clock: new FakeClock() })
      await app.close()
      const { rows } = await db.query<{ email: string }>(
        `select a.primary_email as email from projects p join accounts a on a.id = p.created_by where p.ref = 'eeeeeeeeeeeeeeeeeeee'`,
      )
      expect(rows).toEqual([{ email: OWNER }])

      // Later starts (003 already applied) credit nothing: a project created meanwhile keeps no creator.
      await db.query(
        `insert into projects (ref, organization_id, name, status, region, db_version, inserted_at, updated_at)
         values ('ffffffffffffffffffff', $1, 'New one', 'INACTIVE', 'us-east-1', '15.6', now(), now())`,
        [org[0].id],
      )
      const again = await createApp({ db, config: testConfig(), clock: new FakeClock() })
      await again.close()
      const { rows: fresh } = await db.query<{ created_by: number | null }>(`select created_by from projects where ref = 'ffffffffffffffffffff'`)
      expect(fresh).toEqual([{ created_by: null }])
    } finally {
      await store.destroy()
    }
  })
})
