/**
 * A preview branch's build survives a server restart during RUNNING_MIGRATIONS (PGlite and PostgreSQL 15): the new
 * server's engine resumes at the step the store says is next, and a step whose work the branch's database committed
 * without the store recording it (a crash between the two commits) is not run again.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { BranchMigrations, BranchResponse } from '../../src/contracts/branching'
import { applyMigration } from '../../src/server/features/branching/history'
import { settle } from './branching-support'
import { createSeededStore, json, OWNER, projectByName, startTestServer, type TestServer, type TestStore } from './helpers'

const STEP_MS = 1_000
let s: TestServer | undefined
let store: TestStore | undefined
afterAll(async () => {
  await s?.close({ destroy: false })
  await store?.destroy()
})

// Raised from the project's 30 s: this one test opens a durable store and starts two servers on it (each opening the
// store and the branch's database afresh), about 18 s on PGlite on an idle machine.
describe('a restart during RUNNING_MIGRATIONS', { timeout: 90_000 }, () => {
  it('resumes the build and runs no migration twice', async () => {
    const config = { lifecycle: { branchStepMs: STEP_MS } }
    const seededStore = await createSeededStore(config)
    store = seededStore.store
    const clock = seededStore.clock
    s = await startTestServer({ store, clock, config })
    const cookie = await s.signIn(OWNER)
    const acme = await projectByName(s, 'Acme Storefront')
    const res = await s.request(`/v1/projects/${acme.ref}/branches`, json({ branch_name: 'restart', git_branch: 'main' }, { cookie }))
    expect(res.status).toBe(201)
    const branch = BranchResponse.parse(await res.json())

    // The database, then two migrations; the third is due in STEP_MS.
    await s.engine.runDue()
    for (let i = 0; i < 2; i++) {
      clock.advance(STEP_MS)
      await s.engine.runDue()
    }
    const { rows: steps } = await s.db.query<{ file: string; status: string; sql: string; version: string; name: string }>(
      'select file, status, sql, version, name from branch_steps where branch_id = $1 order by position',
      [branch.id],
    )
    expect(steps.map((r) => r.status)).toEqual(['applied', 'applied', 'pending', 'pending', 'pending'])
    expect((await s.db.query('select status from branches where id = $1', [branch.id])).rows).toEqual([{ status: 'RUNNING_MIGRATIONS' }])

    // The crash: the branch's database has committed the third migration (and its record), the store has not.
    const third = steps[2]
    await s.projectDbs.transaction(branch.project_ref, { platform: true }, (tx) => applyMigration(tx, third))
    await s.close({ destroy: false })

    s = await startTestServer({ store, clock, config })
    // Running the third again would fail ('policy … already exists'): the build passing shows it was not.
    expect(await settle(s, branch.id, STEP_MS)).toBe('MIGRATIONS_PASSED')
    const history = await s.projectDbs.transaction(branch.project_ref, {}, (tx) =>
      tx.query('select version, count(*)::int as n from supabase_migrations.schema_migrations group by version order by version'),
    )
    expect(history.rows).toEqual(steps.filter((r) => r.version !== '').map((r) => ({ version: r.version, n: 1 })))
    const seeded = await s.projectDbs.transaction(branch.project_ref, {}, (tx) => tx.query('select count(*)::int as n from public.notebooks'))
    expect(seeded.rows).toEqual([{ n: 2 }])

    const cookie2 = await s.signIn(OWNER)
    const build = BranchMigrations.parse(await (await s.request(`/platform/branches/${branch.id}/migrations`, { headers: { cookie: cookie2 } })).json())
    expect(build.migrations.map((m) => m.status)).toEqual(['applied', 'applied', 'applied', 'applied'])
    expect(build.seed.status).toBe('applied')

    // One engine row per step, each applied once, none failed or repeated.
    const { rows: outcomes } = await s.db.query<{ outcome: string }>(
      `select t.outcome from lifecycle_transitions t join projects p on p.id = t.project_id
       where p.ref = $1 and t.kind = 'branch.step' order by t.id`,
      [branch.project_ref],
    )
    expect(outcomes.map((o) => o.outcome)).toEqual([
      'applied: database created',
      'applied: 20240108090000_create_notebooks.sql',
      'applied: 20240108093000_create_notes.sql',
      'applied: 20240109100000_notes_rls.sql',
      'applied: 20240110110000_notes_search.sql',
      'applied: supabase/seed.sql',
      'applied: migrations passed',
    ])
  })
})
