/**
 * The demo projects' schemas show good practice: row level security is on for every table of every demo schema, and
 * through the REST API anon reads what anyone may see (published recipes with their ingredients, authors, ratings,
 * categories, published products) and writes none of it, while customers, orders and their items answer only
 * service_role.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findProjectKeys } from '../../src/server/features/keys/store'
import { demoSchemas } from '../../src/server/projectdb/demoSchemas'
import { projectByName, startTestServer, type TestServer } from './helpers'

let s: TestServer
const projects: Record<string, { ref: string; anon: string; service: string }> = {}

beforeAll(async () => {
  s = await startTestServer()
  for (const name of ['Recipe Box', 'Acme Storefront']) {
    const p = await projectByName(s, name)
    const keys = (await findProjectKeys(s.db, p.id))!
    projects[name] = { ref: p.ref, anon: keys.anon_key, service: keys.service_role_key }
  }
}, 120_000)

afterAll(async () => {
  await s?.close()
})

function rest(name: string, key: 'anon' | 'service', path: string, init: { method?: string; body?: unknown } = {}) {
  const p = projects[name]
  return s.request(`/p/${p.ref}/rest/v1/${path}`, {
    method: init.method ?? 'GET',
    headers: { apikey: p[key], 'content-type': 'application/json', prefer: 'return=representation' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  })
}

describe('the demo schemas', () => {
  it('turn row level security on for every table they make', async () => {
    expect(Object.keys(demoSchemas).sort()).toEqual(['recipes', 'storefront'])
    for (const name of ['Recipe Box', 'Acme Storefront']) {
      const { rows } = await s.projectDbs.transaction(projects[name].ref, { readOnly: true }, (tx) =>
        tx.query(`select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
                  where n.nspname = 'public' and c.relkind = 'r' order by c.relname`),
      )
      expect(rows.length, name).toBeGreaterThanOrEqual(4)
      expect(rows.filter((r) => !r.relrowsecurity).map((r) => r.relname), `${name}: tables without row level security`).toEqual([])
    }
  }, 120_000)

  it('let anon read what anyone may see, and only that', async () => {
    const published = async (name: string, table: string) =>
      (await s.projectDbs.transaction(projects[name].ref, { readOnly: true }, (tx) => tx.query(`select count(*)::int as n from ${table} where published`))).rows[0].n
    const count = async (name: string, path: string) => {
      const res = await rest(name, 'anon', path)
      expect(res.status, path).toBe(200)
      return ((await res.json()) as unknown[]).length
    }
    expect(await count('Recipe Box', 'recipes')).toBe(await published('Recipe Box', 'recipes'))
    expect(await count('Recipe Box', 'authors')).toBe(3)
    expect(await count('Recipe Box', 'ratings')).toBe(5)
    // Ingredients of the published recipes only (recipe 4 is a draft).
    const ingredients = (await (await rest('Recipe Box', 'anon', 'ingredients?select=recipe_id')).json()) as { recipe_id: number }[]
    expect(new Set(ingredients.map((i) => i.recipe_id))).toEqual(new Set([1, 2, 3]))
    expect(await count('Acme Storefront', 'categories')).toBe(3)
    expect(await count('Acme Storefront', 'products')).toBe(await published('Acme Storefront', 'products'))
  }, 120_000)

  it('refuse anon writes to authors and categories', async () => {
    for (const [name, table, row] of [
      ['Recipe Box', 'authors', { name: 'Mallory' }],
      ['Acme Storefront', 'categories', { slug: 'spam', name: 'Spam' }],
    ] as const) {
      const insert = await rest(name, 'anon', table, { method: 'POST', body: row })
      expect(insert.status, `${table} insert`).toBe(401)
      expect(await insert.json()).toMatchObject({ code: '42501' })
      // No policy lets anon change or delete a row: nothing matches, nothing changes.
      const update = await rest(name, 'anon', `${table}?id=eq.1`, { method: 'PATCH', body: { name: 'Changed' } })
      expect(await update.json(), `${table} update`).toEqual([])
      const remove = await rest(name, 'anon', `${table}?id=eq.1`, { method: 'DELETE' })
      expect(await remove.json(), `${table} delete`).toEqual([])
      const { rows } = await s.projectDbs.transaction(projects[name].ref, { readOnly: true }, (tx) => tx.query(`select name from ${table} where id = 1`))
      expect(rows[0].name).not.toBe('Changed')
    }
  }, 120_000)

  it('keep customers, orders and their items to service_role', async () => {
    for (const table of ['customers', 'orders', 'order_items']) {
      const anon = await rest('Acme Storefront', 'anon', table)
      expect(anon.status, table).toBe(401)
      expect(await anon.json()).toMatchObject({ code: '42501' })
      const service = await rest('Acme Storefront', 'service', table)
      expect(service.status, table).toBe(200)
      expect(((await service.json()) as unknown[]).length, table).toBeGreaterThan(0)
    }
    // A signed-in user is linked to no customer yet: row level security shows them none.
    const { rows } = await s.projectDbs.transaction(projects['Acme Storefront'].ref, { role: 'authenticated', readOnly: true }, (tx) =>
      tx.query('select count(*)::int as n from orders'),
    )
    expect(rows).toEqual([{ n: 0 }])
  }, 120_000)
})
