import { expect, test, type Page } from '@playwright/test'
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expectAccessible } from './axe'
import { createProject, refOf, signIn } from './support'

/** Turns the 'API docs panel' feature preview on, as the Feature previews dialog would (this device's storage). */
async function enablePanelPreview(page: Page) {
  await page.evaluate(() => localStorage.setItem('supabase-ui-feature-previews', JSON.stringify({ apiDocsPanel: true })))
}

test('the API docs panel: opened from the nav, a table and its columns, Bash, Show keys, Copy, and Generate types that compiles', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await signIn(page)
  await enablePanelPreview(page)
  const ref = await refOf(page, 'Recipe Box')
  await page.goto(`/project/${ref}`)

  // Opened from the navigation bar's Project API entry: a dialog over the page, on Connect.
  const schemaReads: string[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === `/platform/projects/${ref}/api/rest`) schemaReads.push(request.url())
  })
  await page.getByRole('button', { name: 'API Docs' }).click()
  const panel = page.getByRole('dialog', { name: 'API Docs' })
  await expect(panel.getByRole('heading', { name: 'Connect to your project' })).toBeVisible()
  await expect(page).toHaveURL(/[?&]docs=introduction/)
  await expectAccessible(page, 'API docs panel, Connect', panel.getByRole('heading', { name: 'Connect to your project' }))

  // Show keys: the real anon key; copy it: 'Copied' for 2 s, and the clipboard holds it.
  const anonRow = panel.getByRole('group', { name: 'anon (public)' })
  await expect(anonRow.getByText(/^•+$/)).toBeVisible()
  await panel.getByRole('button', { name: 'Show keys' }).click()
  const anon = (await anonRow.getByText(/^eyJ/).textContent())!.trim()
  await anonRow.getByRole('button', { name: 'Copy' }).click()
  await expect(anonRow.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(anon)
  await expect(anonRow.getByRole('button', { name: 'Copy' })).toBeVisible({ timeout: 4_000 })

  // Tables & Views → recipes: its columns listed, one schema read for the whole opening.
  await panel.getByRole('navigation', { name: 'API docs' }).getByRole('button', { name: 'Tables & Views' }).click()
  await panel.getByRole('list', { name: 'Tables and views' }).getByRole('button', { name: /^recipes\b/ }).click()
  const columns = panel.getByRole('table', { name: 'Columns of recipes' })
  await expect(columns.getByRole('rowheader', { name: 'title', exact: true })).toBeVisible()
  await expect(page).toHaveURL(/docsItem=recipes/)
  await expectAccessible(page, 'API docs panel, a table', columns.getByRole('rowheader', { name: 'title', exact: true }))

  // Bash: the snippets are curl commands carrying the shown key, and the language is kept in the URL.
  await panel.getByLabel('Language').selectOption({ label: 'Bash' })
  await expect(page).toHaveURL(/docsLang=bash/)
  await expect(panel.getByText(/curl '.*\/p\/[a-z]+\/rest\/v1\/recipes\?select=\*'/).first()).toBeVisible()
  await expect(panel.getByText(`apikey: ${anon}`).first()).toBeVisible()
  expect(schemaReads).toHaveLength(1)

  // A reload opens the panel where it was.
  await page.reload()
  await expect(page.getByRole('dialog', { name: 'API Docs' }).getByRole('table', { name: 'Columns of recipes' })).toBeVisible()

  // Generate types (Connect): supabase.ts downloads, and it compiles.
  await page.getByRole('dialog', { name: 'API Docs' }).getByRole('navigation', { name: 'API docs' }).getByRole('button', { name: 'Connect' }).click()
  const download = page.waitForEvent('download')
  await page.getByRole('dialog', { name: 'API Docs' }).getByRole('button', { name: 'Generate types' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe('supabase.ts')
  const path = test.info().outputPath('supabase.ts')
  await file.saveAs(path)
  await expect(page.getByText('Successfully generated types! File is being downloaded')).toBeVisible()
  const source = readFileSync(path, 'utf8')
  expect(source).toContain('recipes')
  // The repository's own TypeScript compiler, strict, on the file alone.
  const tsc = spawnSync(join(process.cwd(), 'node_modules/.bin/tsc'), ['--ignoreConfig', '--noEmit', '--strict', '--target', 'es2022', '--skipLibCheck', path], { encoding: 'utf8' })
  expect(tsc.stdout + tsc.stderr).toBe('')
  expect(tsc.status).toBe(0)
})

test('a Read-only member sees no User Management, Storage, Edge Functions or Realtime in the panel', async ({ page }) => {
  await signIn(page, 'readonly@example.com')
  await enablePanelPreview(page)
  const ref = await refOf(page, 'Recipe Box')
  await page.goto(`/project/${ref}?docs=introduction`)
  const nav = page.getByRole('dialog', { name: 'API Docs' }).getByRole('navigation', { name: 'API docs' })
  await expect(nav.getByRole('button', { name: 'Connect' })).toBeVisible()
  await expect(nav.getByRole('button', { name: 'Tables & Views' })).toBeVisible()
  await expect(nav.getByRole('button', { name: 'Stored Procedures' })).toBeVisible()
  for (const hidden of ['User Management', 'Storage', 'Edge Functions', 'Realtime']) {
    await expect(nav.getByRole('button', { name: hidden })).toHaveCount(0)
  }
  // No service key for this member: the row says why instead.
  await expect(page.getByRole('group', { name: 'service_role (secret)' }).getByText('You need additional permissions to view API keys')).toBeVisible()
  await expectAccessible(page, 'API docs panel, Read-only', page.getByRole('group', { name: 'service_role (secret)' }).getByText('You need additional permissions to view API keys'))
})

test('a database of 150 tables: the list holds the rows in view, scrolls to the last one, and opens it', async ({ page }) => {
  await signIn(page)
  await enablePanelPreview(page)
  const project = await createProject(page.request, { organization_slug: 'demo-pro', name: 'E2E many tables', status: 'ACTIVE_HEALTHY' })
  const tables = Array.from({ length: 150 }, (_, i) => `t${String(i).padStart(3, '0')}`)
  const made = await page.request.post(`/v1/projects/${project.ref}/database/query`, {
    data: { query: tables.map((t) => `create table ${t} (id bigint primary key, name text); comment on table ${t} is 'Table ${t}';`).join('\n') },
  })
  expect(made.status(), await made.text()).toBeLessThan(300)

  await page.goto(`/project/${project.ref}?docs=tables-and-views`)
  const panel = page.getByRole('dialog', { name: 'API Docs' })
  const list = panel.getByRole('list', { name: 'Tables and views' })
  // The first read of a fresh database's REST schema opens it (a process of its own) and reads 150 tables: on a busy
  // machine that is several seconds. How fast the list draws once the schema is in is measured by the API docs bench.
  await expect(list.getByRole('button', { name: /^t000\b/ })).toBeVisible({ timeout: 20_000 })
  // Only the rows in and near the view are in the page, each telling its place among the 150.
  const rows = list.getByRole('listitem')
  await expect(rows.first()).toHaveAttribute('aria-setsize', '150')
  expect(await rows.count()).toBeLessThan(60)
  await expect(list.getByRole('button', { name: /^t149\b/ })).toHaveCount(0)
  await expectAccessible(page, 'API docs panel, a long list', rows.first())

  // The wheel over the list scrolls the panel to its end: the last table is there, and it opens.
  await list.hover()
  await page.mouse.wheel(0, 20_000)
  const last = list.getByRole('button', { name: /^t149\b/ })
  await expect(last).toBeVisible()
  await expect(list.getByRole('listitem').last()).toHaveAttribute('aria-posinset', '150')
  await expect(last).toContainText('Table t149')
  await last.click()
  await expect(panel.getByRole('table', { name: 'Columns of t149' }).getByRole('rowheader', { name: 'name', exact: true })).toBeVisible()

  // Back to the list, then Tab from a row moves to the next one: the keyboard reaches rows past the rendered ones.
  await panel.getByRole('button', { name: 'Back to Tables & Views' }).click()
  await list.getByRole('button', { name: /^t000\b/ }).focus()
  // One press at a time, as a person tabs: each row takes the focus in turn, the ones past those rendered included.
  for (let i = 1; i <= 40; i++) {
    await page.keyboard.press('Tab')
    await expect(list.getByRole('button', { name: new RegExp(`^t${String(i).padStart(3, '0')}\\b`) })).toBeFocused()
  }
  await expect(list.getByRole('button', { name: /^t040\b/ })).toBeInViewport()
})

test('the Storage page lists, creates and deletes buckets; the Edge Functions page lists functions', async ({ page }) => {
  await signIn(page)
  const ref = await refOf(page, 'Acme Storefront')
  await page.goto(`/project/${ref}/storage/buckets`)
  const buckets = page.getByRole('table', { name: 'Buckets' })
  // The demo database is made on first use: give it time.
  await expect(buckets.getByText('product-images')).toBeVisible({ timeout: 20_000 })
  await expect(buckets.getByText('invoices')).toBeVisible()
  await expectAccessible(page, 'Storage buckets', buckets.getByText('invoices'))

  const name = `e2e bucket ${Date.now().toString(36)}`
  await page.getByRole('button', { name: 'New bucket' }).click()
  const form = page.getByRole('form', { name: 'Create bucket' })
  await form.getByLabel('Name').fill(name)
  await form.getByLabel('Allowed MIME types').fill('image/png')
  await expectAccessible(page, 'Create bucket dialog', form.getByLabel('Allowed MIME types'))
  await form.getByRole('button', { name: 'Create bucket' }).click()
  await expect(buckets.getByText(name)).toBeVisible()

  await buckets.getByRole('button', { name: `Delete bucket ${name}` }).click()
  await page.getByRole('dialog', { name: 'Delete bucket' }).getByRole('button', { name: 'Delete bucket' }).click()
  await expect(buckets.getByText(name)).toHaveCount(0)

  await page.goto(`/project/${ref}/functions`)
  const functions = page.getByRole('table', { name: 'Functions' })
  await expect(functions.getByText('send-order-email').first()).toBeVisible()
  await expectAccessible(page, 'Edge Functions', functions.getByText('send-order-email').first())
})
