import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { createProject, signIn } from './support'

test('a policy added from a template on the Policies page is what REST obeys; the extensions, functions and triggers pages list the catalog', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page)
  // A project of its own: its schema public holds only what this walk makes.
  const { ref } = await createProject(page.request, { organization_slug: 'demo-pro', name: 'E2E policies', status: 'ACTIVE_HEALTHY' })
  const suffix = Date.now().toString(36)
  const table = `e2e "posts" ✎ ${suffix}`
  const quoted = `"${table.replace(/"/g, '""')}"`
  const fn = `touch ${suffix}`
  const trigger = `before update ${suffix}`

  // The table, a trigger function and its trigger, made as the SQL Editor would.
  const made = await page.request.post(`/platform/projects/${ref}/database/query`, {
    data: {
      query:
        `create table ${quoted} (id int primary key, title text not null, published boolean not null default false);\n` +
        `grant select on ${quoted} to anon;\n` +
        `insert into ${quoted} values (1, 'draft', false), (2, 'out', true);\n` +
        `create function "${fn}"() returns trigger language plpgsql as $$ begin return new; end $$;\n` +
        `create trigger "${trigger}" before update on ${quoted} for each row execute function "${fn}"();`,
    },
    timeout: 30_000,
  })
  expect(made.status(), await made.text()).toBe(200)

  // The REST URL and the anon key as the settings page shows them.
  await page.goto(`/project/${ref}/settings/api`)
  const url = (await page.getByLabel('URL value').textContent())!.trim()
  const anon = (await page.getByRole('group', { name: 'anon key' }).getByText(/^eyJ/).textContent())!.trim()
  const titles = async () => {
    const res = await page.request.get(`${url}/rest/v1/${encodeURIComponent(table)}?select=title&order=id.asc`, { headers: { apikey: anon } })
    expect(res.status()).toBe(200)
    return ((await res.json()) as Array<{ title: string }>).map((r) => r.title)
  }
  // Before: no row level security, the anon key reads every row.
  expect(await titles()).toEqual(['draft', 'out'])

  // Policies: enable RLS on the table, its SQL shown first.
  await page.goto(`/project/${ref}/auth/policies`)
  const card = page.getByRole('region', { name: table })
  await expect(card.getByText('RLS disabled')).toBeVisible({ timeout: 20_000 })
  await expectAccessible(page, 'Policies', card.getByText('RLS disabled'))
  await card.getByRole('button', { name: `Enable RLS on ${table}` }).click()
  const review = page.getByRole('dialog', { name: 'Review the SQL' })
  await expect(review.getByLabel('SQL to run')).toHaveText(`alter table "public".${quoted} enable row level security;`)
  await expectAccessible(page, 'Policies: the SQL to run', review.getByLabel('SQL to run'))
  await review.getByRole('button', { name: 'Run this SQL' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Done: ALTER TABLE' })).toBeVisible()
  await expect(card.getByText('RLS enabled')).toBeVisible()
  // RLS on and no policy: the anon key reads nothing.
  expect(await titles()).toEqual([])

  // A policy from a template, its expression narrowed to the published rows.
  await card.getByRole('button', { name: `New policy on ${table}` }).click()
  const form = page.getByRole('dialog', { name: 'New policy' })
  await form.getByLabel('Template').selectOption({ label: 'Enable read access for all users' })
  await expect(form.getByLabel('Policy name')).toHaveValue('Enable read access for all users')
  await form.getByLabel('USING expression').fill('published')
  await expectAccessible(page, 'Policies: the new policy form', form.getByLabel('USING expression'))
  await form.getByRole('button', { name: 'Review SQL' }).click()
  await expect(review.getByLabel('SQL to run')).toHaveText(
    `create policy "Enable read access for all users" on "public".${quoted}\n  as permissive\n  for select\n  to public\n  using (published);`,
  )
  await review.getByRole('button', { name: 'Run this SQL' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Done: CREATE POLICY' })).toBeVisible()
  const policies = card.getByRole('table', { name: `Policies of ${table}` })
  await expect(policies.getByRole('rowheader', { name: 'Enable read access for all users' })).toBeVisible()
  // After: REST answers the published row only.
  expect(await titles()).toEqual(['out'])

  // Extensions: what the engine has, and whether the project's role may enable each.
  await page.goto(`/project/${ref}/database/extensions`)
  const extensions = page.getByRole('table', { name: 'Extensions' })
  await expect(extensions.getByRole('rowheader', { name: 'plpgsql' })).toBeVisible({ timeout: 20_000 })
  await expectAccessible(page, 'Extensions', extensions.getByRole('rowheader', { name: 'plpgsql' }))
  // The walks' servers run PGlite, whose lock-down leaves no superuser to run an extension's script: its extensions are
  // plpgsql and pg_stat_statements (preloaded and created by the template, in schema extensions), and none is offered
  // to enable (the server tests enable citext on PostgreSQL).
  await expect(extensions.getByRole('rowheader', { name: 'pg_stat_statements' })).toBeVisible()
  await expect(extensions.getByRole('row')).toHaveCount(3)
  await expect(extensions.getByRole('button', { name: /^Enable extension / })).toHaveCount(0)

  // Functions and triggers of schema public.
  await page.goto(`/project/${ref}/database/functions`)
  const functions = page.getByRole('table', { name: 'Functions' })
  await expect(functions.getByRole('rowheader', { name: fn })).toBeVisible({ timeout: 20_000 })
  await expectAccessible(page, 'Functions', functions.getByRole('rowheader', { name: fn }))
  await page.goto(`/project/${ref}/database/triggers`)
  const triggers = page.getByRole('table', { name: 'Triggers' })
  const row = triggers.getByRole('row').filter({ has: page.getByRole('rowheader', { name: trigger }) })
  await expect(row.getByText(`public.${fn}`)).toBeVisible({ timeout: 20_000 })
  const events = row.getByRole('cell', { name: 'BEFORE UPDATE', exact: true })
  await expect(events).toBeVisible()
  await expectAccessible(page, 'Triggers', events)
})
