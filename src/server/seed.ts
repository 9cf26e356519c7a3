/**
 * Demo data, created once into an empty database (inside the migration transaction); and the demo's part of a
 * migration (no migration writes demo data).
 */
import type { PlanId, PostgrestStatus, ProjectStatus, Role } from '../contracts/common'
import { OWASP_SCRYPT_COST, type ScryptCost } from './config'
import { hashPassword, newProjectRef } from './core/secrets'
import type { Queryable } from './db'
import { cancelPendingTransitions, type Lifecycle } from './engine/lifecycle'
import { demoFunctions } from './features/functions/demo'
import { insertFunction } from './features/functions/store'
import { demoGitHub } from './features/github/demo'
import { engineVersionIn } from './projectdb'
import { insertProject } from './features/projects/store'

export const DEMO_PASSWORD = 'demo1234'

export const demoAccounts: { email: string; username: string; role: Role }[] = [
  { email: 'owner@example.com', username: 'owner', role: 'Owner' },
  { email: 'developer@example.com', username: 'developer', role: 'Developer' },
  { email: 'readonly@example.com', username: 'readonly', role: 'Read-only' },
]

const demoOrganizations: { slug: string; name: string; plan: PlanId; optInTags: string[] }[] = [
  { slug: 'demo-free', name: 'Demo Free Org', plan: 'free', optInTags: [] },
  { slug: 'demo-pro', name: 'Demo Pro Org', plan: 'pro', optInTags: ['AI_SQL'] },
]

interface DemoProject {
  org: string
  name: string
  status: ProjectStatus
  postgrestStatus?: PostgrestStatus
  kpsVersion?: string | null
  /**
   * Only where the version stages a flow (the upgrade demo, Legacy Blog's 14.1); every other demo project shows the
   * version of the database engine it really gets.
   */
  dbVersion?: string
  /** The schema its database is created with (src/server/projectdb/demoSchemas.ts). */
  demoSchema?: string
  region?: string
  branching?: boolean
  /** The demo keeps it in its status (no timed transition), so the page of that status can always be seen. */
  hold?: boolean
  /** false: its storage is not configured (the bucket endpoints answer 'Tenant config for <ref> not found'). */
  storage?: false
}

/** Every status of the spec, plus an ACTIVE_HEALTHY project whose API server is OFFLINE. */
const demoProjects: DemoProject[] = [
  { org: 'demo-free', name: 'Recipe Box', status: 'ACTIVE_HEALTHY', demoSchema: 'recipes' },
  { org: 'demo-free', name: 'Weekend Hackathon', status: 'INACTIVE', region: 'eu-central-1' },
  { org: 'demo-free', name: 'Habit Tracker', status: 'COMING_UP', kpsVersion: null },
  { org: 'demo-free', name: 'Book Club API', status: 'PAUSING', hold: true },
  {
    org: 'demo-free',
    name: 'Legacy Blog',
    status: 'ACTIVE_HEALTHY',
    postgrestStatus: 'OFFLINE',
    kpsVersion: 'kps-v3.1.0',
    dbVersion: '14.1',
    storage: false,
  },
  {
    org: 'demo-pro',
    name: 'Acme Storefront',
    status: 'ACTIVE_HEALTHY',
    branching: true,
    region: 'eu-west-1',
    demoSchema: 'storefront',
  },
  { org: 'demo-pro', name: 'Analytics Warehouse', status: 'UPGRADING', kpsVersion: 'kps-v3.1.0', dbVersion: '15.6' },
  { org: 'demo-pro', name: 'Customer Portal', status: 'RESTORING', hold: true },
  { org: 'demo-pro', name: 'Inventory Sync', status: 'UNKNOWN', region: 'ap-southeast-1' },
  { org: 'demo-pro', name: 'Mobile Backend', status: 'GOING_DOWN', hold: true },
  { org: 'demo-pro', name: 'Support Desk', status: 'RESTORATION_FAILED' },
]

/**
 * Migration 003 added projects.created_by (the free project limit counts the projects a member owns). Projects
 * that existed before it are credited to the demo Owner when that account exists, in the transaction that applied
 * 003. (A fresh database has no project then; its demo projects are credited by seedDemoData.)
 */
export async function creditDemoOwner(tx: Queryable, applied: readonly string[]): Promise<void> {
  if (!applied.includes('003_pause_restore')) return
  await tx.query(
    'update projects set created_by = (select id from accounts where primary_email = $1) where created_by is null',
    [demoAccounts[0].email],
  )
}

/**
 * Migration 009 added project_databases: demo projects seeded before it get their demo schema, in the transaction
 * that applied 009 (their databases do not exist yet: they are created on first use).
 */
export async function assignDemoSchemas(tx: Queryable, applied: readonly string[]): Promise<void> {
  if (!applied.includes('009_project_databases')) return
  for (const p of demoProjects) {
    if (!p.demoSchema) continue
    await tx.query(
      `insert into project_databases (project_id, demo_schema)
       select p.id, $3 from projects p join organizations o on o.id = p.organization_id
       where o.slug = $1 and p.name = $2
       on conflict (project_id) do nothing`,
      [p.org, p.name, p.demoSchema],
    )
  }
}

/**
 * Migration 010 added projects.storage_enabled and edge_functions: the demo project without storage and the demo's
 * edge functions (those of its demo schema: src/server/features/functions/demo.ts). Idempotent; runs in the
 * transaction that applied 010 (an existing data folder) and at the end of seedDemoData (a new one).
 */
export async function addDemoStorageAndFunctions(tx: Queryable, applied: readonly string[], now: Date): Promise<void> {
  if (!applied.includes('010_storage_functions')) return
  await demoStorageAndFunctions(tx, now)
}

async function demoStorageAndFunctions(tx: Queryable, now: Date): Promise<void> {
  for (const p of demoProjects) {
    const { rows } = await tx.query<{ id: number }>(
      `select p.id from projects p join organizations o on o.id = p.organization_id where o.slug = $1 and p.name = $2`,
      [p.org, p.name],
    )
    const id = rows[0]?.id
    if (id === undefined) continue
    if (p.storage === false) await tx.query('update projects set storage_enabled = false where id = $1', [id])
    for (const [i, f] of (p.demoSchema ? (demoFunctions[p.demoSchema] ?? []) : []).entries()) {
      await insertFunction(tx, {
        projectId: id,
        slug: f.slug,
        name: f.name,
        body: f.body,
        verifyJwt: f.verifyJwt,
        importMap: false,
        entrypointPath: 'index.ts',
        importMapPath: null,
        // Deployed a few days apart, oldest first.
        now: new Date(now.getTime() - (3 - i) * 86_400_000),
      })
    }
  }
}

/**
 * Migration 011 added the GitHub integration: each demo organization's installation with its repositories, the
 * Owner's authorization and one connected project (src/server/features/github/demo.ts). Idempotent; runs in the
 * transaction that applied 011 (an existing data folder) and at the end of seedDemoData (a new one).
 */
export async function addDemoGitHub(tx: Queryable, applied: readonly string[], now: Date): Promise<void> {
  if (!applied.includes('011_github')) return
  await demoGitHub(tx, now)
}

/** Seeds only when there is no account yet; returns whether it did. */
export async function seedDemoData(
  tx: Queryable,
  now: Date,
  lifecycle: Pick<Lifecycle, 'enterStatus'>,
  passwordHashCost: ScryptCost = OWASP_SCRYPT_COST,
): Promise<boolean> {
  const { rows } = await tx.query<{ n: number }>('select count(*)::int as n from accounts')
  if (rows[0].n > 0) return false
  const engineVersion = await engineVersionIn(tx)

  const orgIds = new Map<string, number>()
  for (const org of demoOrganizations) {
    const r = await tx.query<{ id: number }>(
      `insert into organizations (slug, name, plan_id, opt_in_tags, created_at) values ($1, $2, $3, $4::jsonb, $5)
       returning id`,
      [org.slug, org.name, org.plan, JSON.stringify(org.optInTags), now.toISOString()],
    )
    orgIds.set(org.slug, r.rows[0].id)
  }

  const hashes = await Promise.all(demoAccounts.map(() => hashPassword(DEMO_PASSWORD, passwordHashCost)))
  for (const [i, account] of demoAccounts.entries()) {
    const r = await tx.query<{ id: number }>(
      `insert into accounts (username, primary_email, password_hash, created_at, email_verified_at) values ($1, $2, $3, $4, $4) returning id`,
      [account.username, account.email, hashes[i], now.toISOString()],
    )
    for (const orgId of orgIds.values()) {
      await tx.query('insert into members (organization_id, account_id, role) values ($1, $2, $3)', [
        orgId,
        r.rows[0].id,
        account.role,
      ])
    }
  }

  for (const [i, p] of demoProjects.entries()) {
    // Staggered creation times, oldest first, so lists have a stable, realistic order.
    const insertedAt = new Date(now.getTime() - (demoProjects.length - i) * 86_400_000)
    const id = await insertProject(tx, {
      organizationId: orgIds.get(p.org)!,
      name: p.name,
      status: p.status,
      postgrestStatus: p.postgrestStatus ?? 'ONLINE',
      kpsVersion: p.kpsVersion === undefined ? 'kps-v3.8.6' : p.kpsVersion,
      isBranchEnabled: p.branching,
      region: p.region,
      dbVersion: p.dbVersion ?? engineVersion,
      ref: newProjectRef(),
      now: insertedAt,
      // The demo's transitions are under way now, not since the project was created days ago.
      statusChangedAt: now,
    })
    if (p.demoSchema) {
      await tx.query('insert into project_databases (project_id, demo_schema) values ($1, $2)', [id, p.demoSchema])
    }
    await lifecycle.enterStatus(tx, id, p.status, now)
    if (p.hold) await cancelPendingTransitions(tx, id, now)
  }
  // The Owner created every demo project: with its active free projects it starts over the free project limit.
  await tx.query(`update projects set created_by = (select id from accounts where primary_email = $1)`, [demoAccounts[0].email])
  await demoStorageAndFunctions(tx, now)
  await demoGitHub(tx, now)
  return true
}
