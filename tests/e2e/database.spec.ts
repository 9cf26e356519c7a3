import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { refOf, signIn } from './support'

test('a table made in the SQL Editor shows in the Table Editor and the Database page, and takes a row through the REST URL shown in settings', async ({ page }) => {
  await signIn(page)
  const ref = await refOf(page, 'Acme Storefront')
  const table = `e2e notes ${Date.now().toString(36)}`

  // SQL Editor: create the table (a name with a space, quoted) and one row.
  await page.goto(`/project/${ref}/sql/new`)
  const editor = page.getByLabel('SQL query')
  await expect(editor).toBeVisible()
  await editor.fill(
    `create table "${table}" (id bigint generated always as identity primary key, body text not null, created_at timestamptz not null default now());\n` +
      `insert into "${table}" (body) values ('written in the SQL Editor');\n` +
      `select id, body from "${table}";`,
  )
  await page.getByRole('button', { name: 'Run' }).click()
  const results = page.getByRole('table', { name: 'Query results' })
  // The first query opens the project's database (a worker, and the demo schema on first use): give it time. Each
  // statement has its result tab; the select's holds the row.
  await page.getByRole('tab', { name: '3. SELECT' }).click({ timeout: 20_000 })
  await expect(results.getByText('written in the SQL Editor')).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: '1 row' })).toBeVisible()
  await expectAccessible(page, 'SQL Editor with results', results.getByText('written in the SQL Editor'))

  // An error names its position.
  await editor.fill(`select nope from "${table}";`)
  await editor.press('Control+Enter')
  await expect(page.getByRole('alert').filter({ hasText: 'column "nope" does not exist' })).toBeVisible()
  await expect(page.getByText('Line 1, column 8')).toBeVisible()

  // Table Editor: the table is listed, its row shown.
  await page.goto(`/project/${ref}/editor`)
  await page.getByRole('navigation', { name: 'Tables' }).getByRole('link', { name: table }).click()
  const rows = page.getByRole('table', { name: `Rows of ${table}` })
  await expect(rows.getByText('written in the SQL Editor')).toBeVisible()
  await expectAccessible(page, 'Table Editor', rows.getByText('written in the SQL Editor'))

  // Database page: its columns, types and primary key.
  await page.goto(`/project/${ref}/database/tables`)
  const columns = page.getByRole('table', { name: `Columns of ${table}` })
  await expect(columns.getByText('body', { exact: true })).toBeVisible()
  await expect(columns.getByText('timestamp with time zone')).toBeVisible()
  await expectAccessible(page, 'Database tables', columns.getByText('timestamp with time zone'))

  // The REST URL and the anon key as the settings page shows them.
  await page.goto(`/project/${ref}/settings/api`)
  const url = (await page.getByLabel('URL value').textContent())!.trim()
  expect(url).toMatch(new RegExp(`/p/${ref}$`))
  const anon = (await page.getByRole('group', { name: 'anon key' }).getByText(/^eyJ/).textContent())!.trim()

  const inserted = await page.request.post(`${url}/rest/v1/${encodeURIComponent(table)}`, {
    headers: { apikey: anon, authorization: `Bearer ${anon}`, 'content-type': 'application/json', prefer: 'return=representation' },
    data: { body: 'written through the REST URL' },
  })
  expect(inserted.status(), await inserted.text()).toBe(201)
  const [row] = (await inserted.json()) as Array<{ id: number; body: string }>
  expect(row.body).toBe('written through the REST URL')
  expect(row.id).toBe(2)

  const read = await page.request.get(`${url}/rest/v1/${encodeURIComponent(table)}?select=body&order=id.asc`, { headers: { apikey: anon } })
  expect(await read.json()).toEqual([{ body: 'written in the SQL Editor' }, { body: 'written through the REST URL' }])

  // Back in the Table Editor, the row written through the REST API is there.
  await page.goto(`/project/${ref}/editor?table=${encodeURIComponent(table)}`)
  await expect(page.getByRole('table', { name: `Rows of ${table}` }).getByText('written through the REST URL')).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: 'of 2' })).toBeVisible()
})

test('a project created from /new/{slug} comes up through the building screen with a database of its own', async ({ page }) => {
  test.setTimeout(90_000)
  await signIn(page)
  await page.goto('/new/demo-pro')
  const name = `E2E created ${Date.now().toString(36)}`
  await page.getByLabel('Project name').fill(name)
  await page.getByLabel('Database password').fill('Kitchen-Drawer-42')
  await page.getByLabel('Region').selectOption('eu-west-2')
  await expectAccessible(page, 'new project', page.getByLabel('Region'))
  await page.getByRole('button', { name: 'Create new project' }).click()
  await expect(page).toHaveURL(/\/project\/[a-z]{20}/)
  const ref = /\/project\/([a-z]{20})/.exec(page.url())![1]
  await expect(page.getByRole('heading', { name: 'Setting up project' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Setting up project' })).toBeHidden({ timeout: 40_000 })

  await page.goto(`/project/${ref}/sql/new`)
  await page.getByLabel('SQL query').fill("select current_setting('server_version_num')::int / 10000 as major, count(*) as tables from pg_tables where schemaname = 'public';")
  await page.getByRole('button', { name: 'Run' }).click()
  const results = page.getByRole('table', { name: 'Query results' })
  await expect(results).toBeVisible({ timeout: 20_000 })
  const res = await page.request.get(`/platform/projects/${ref}`)
  const project = (await res.json()) as { db_version: string }
  const major = project.db_version.split('.')[0]
  await expect(results.getByRole('cell', { name: major, exact: true })).toBeVisible()
})
