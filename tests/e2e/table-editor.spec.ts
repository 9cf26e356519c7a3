import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { refOf, signIn } from './support'

test('a table made from the form takes rows in the grid: inserted, edited, filtered, deleted and imported from CSV', async ({ page }) => {
  test.setTimeout(120_000)
  await signIn(page)
  const ref = await refOf(page, 'Acme Storefront')
  // A name that needs quoting: a space, quotes and unicode.
  const table = `e2e "items" ü ${Date.now().toString(36)}`

  // The form: the SQL is shown before anything runs.
  await page.goto(`/project/${ref}/editor/create`)
  const form = page.getByRole('form', { name: 'New table' })
  await form.getByLabel('Name', { exact: true }).fill(table)
  await form.getByRole('button', { name: 'Add column' }).click()
  await form.getByLabel('Column 3 name').fill('title')
  await form.getByRole('button', { name: 'Review SQL' }).click()
  const sql = page.getByRole('region', { name: 'SQL to run' })
  await expect(sql).toContainText('create table "public"."e2e ""items"" ü', { timeout: 20_000 })
  await expect(sql).toContainText('enable row level security')
  await expectAccessible(page, 'Table form with its SQL', sql.getByText('This SQL will run'))
  await sql.getByRole('button', { name: 'Run' }).click()

  // The new table's grid.
  const grid = page.getByRole('grid', { name: `Rows of ${table}` })
  await expect(grid).toBeVisible({ timeout: 20_000 })
  await expect(page).toHaveTitle(new RegExp(table.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
  const status = page.getByRole('status').filter({ hasText: /of \d+/ })
  await expect(status).toContainText('No rows of 0')

  // Insert two rows in the side panel (defaults shown): along the window's right edge, open on the first value to write.
  for (const title of ['first', 'second']) {
    await page.getByRole('button', { name: 'Insert row' }).click()
    const panel = page.getByRole('form', { name: 'New row' })
    await expect(panel.getByPlaceholder('Default: generated')).toBeVisible()
    await expect(panel.getByLabel(/^title/)).toBeFocused()
    if (title === 'first') {
      const box = (await panel.boundingBox())!
      const width = page.viewportSize()!.width
      expect(box.x).toBeGreaterThan(width * 0.3)
      expect(box.x + box.width).toBeGreaterThan(width - 48)
      await expectAccessible(page, 'Insert row side panel', panel.getByPlaceholder('Default: generated'))
    }
    await panel.getByLabel(/^title/).fill(title)
    await panel.getByRole('button', { name: 'Save row' }).click()
    await expect(grid.getByText(title, { exact: true })).toBeVisible()
  }
  await expect(status).toContainText('of 2')
  await expectAccessible(page, 'Table grid', grid.getByText('second', { exact: true }))

  // Edit one cell in place.
  await grid.getByRole('gridcell', { name: 'title, row 1' }).dblclick()
  const editor = grid.getByLabel('Edit title')
  await editor.fill('first, edited')
  await editor.press('Enter')
  await expect(grid.getByText('first, edited', { exact: true })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Undo last edit' })).toBeEnabled()

  // A foreign key cell: its picker searches the referenced table and the row chosen sets the cell.
  const teams = `e2e teams ${Date.now().toString(36)}`
  const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`
  const ddl = await page.request.post(`/platform/projects/${ref}/database/query`, {
    data: {
      query: `create table public.${quoted(teams)} (id bigint primary key, name text);
        insert into public.${quoted(teams)} select n, 'Team ' || n from generate_series(1, 25) n;
        alter table public.${quoted(table)} add column team bigint references public.${quoted(teams)} (id)`,
    },
  })
  expect(ddl.status(), await ddl.text()).toBe(200)
  await page.reload()
  await grid.getByRole('gridcell', { name: 'team, row 1: NULL' }).dblclick()
  const picker = page.getByRole('dialog', { name: `Choose a row of ${teams}` })
  await expect(picker.getByRole('status')).toHaveText('Rows 1–10 of 25', { timeout: 20_000 })
  await picker.getByRole('searchbox', { name: `Search ${teams} by id or name` }).fill('Team 17')
  await expect(picker.getByRole('status')).toHaveText('Rows 1–1 of 1')
  await expectAccessible(page, 'Foreign key picker', picker.getByRole('button', { name: '17 Team 17' }))
  await picker.getByRole('button', { name: '17 Team 17' }).click()
  await expect(grid.getByRole('gridcell', { name: 'team, row 1: 17' })).toBeVisible()
  await expect(picker).toHaveCount(0)

  // Filter: kept in the URL, so a reload shows the same rows.
  const filter = page.getByRole('form', { name: 'Filter rows' })
  await filter.getByLabel('Column').selectOption('title')
  await filter.getByLabel('Operator').selectOption('ilike')
  await filter.getByLabel('Value').fill('%second%')
  await filter.getByRole('button', { name: 'Add filter' }).click()
  await expect(status).toContainText('of 1')
  await expect(page).toHaveURL(/filters=/)
  await page.reload()
  await expect(page.getByRole('grid', { name: `Rows of ${table}` }).getByText('second', { exact: true })).toBeVisible({ timeout: 20_000 })
  await expect(status).toContainText('of 1')
  await page.getByRole('button', { name: /^Remove filter/ }).click()
  await expect(status).toContainText('of 2')

  // Delete the second row, after confirmation.
  await grid.getByRole('checkbox', { name: 'Select row 2' }).check()
  await page.getByRole('button', { name: 'Delete 1 selected' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete rows' })
  await expect(dialog).toContainText('Delete 1 row of')
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
  await expect(status).toContainText('of 1')
  await expect(grid.getByText('second', { exact: true })).toHaveCount(0)

  // Import a CSV: the rows arrive, and a bad file is refused with its bad rows.
  await page.getByRole('button', { name: 'Import CSV' }).click()
  const importer = page.getByRole('region', { name: 'Import CSV' })
  await importer.getByLabel(/CSV file/).setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from('title\nthird\n"fourth, with a comma"\n') })
  await expect(importer.getByRole('status')).toHaveText('Imported 2 rows from items.csv.', { timeout: 20_000 })
  await expect(status).toContainText('of 3')
  await expect(grid.getByText('fourth, with a comma', { exact: true })).toBeVisible()
  await importer.getByLabel(/CSV file/).setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('title,id\nfifth\n') })
  await expect(importer.getByRole('alert')).toContainText('Line 2: Line 2 has 1 field where the header has 2')
  await expect(status).toContainText('of 3')
  await expectAccessible(page, 'Table grid with an import refused', importer.getByRole('alert'))
})
