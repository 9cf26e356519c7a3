import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { refOf, signIn } from './support'

test('the SQL Editor completes a table it just made, saves the query, finds it after a reload and runs it', async ({ page }) => {
  await signIn(page)
  const ref = await refOf(page, 'Acme Storefront')
  const suffix = Date.now().toString(36)
  const table = `e2e_sqled_${suffix}`
  const name = `Labels ${suffix}`

  await page.goto(`/project/${ref}/sql/new`)
  const editor = page.getByRole('textbox', { name: 'SQL query' })
  await expect(editor).toBeVisible()
  await editor.fill(`create table ${table} (id bigint primary key, label text not null);\ninsert into ${table} values (1, 'written by the walk');`)
  await page.getByRole('button', { name: 'Run' }).click()
  // The first query opens the project's database (a worker, and the demo schema on first use): give it time.
  await expect(page.getByRole('tab', { name: /INSERT/ })).toBeVisible({ timeout: 20_000 })

  // The run changed the schema, so the catalog is read again: the new table is offered as it is typed.
  await editor.fill('')
  await editor.pressSequentially(`select label from ${table.slice(0, -3)}`)
  const option = page.getByRole('option').filter({ hasText: table })
  await expect(option).toBeVisible()
  await expectAccessible(page, 'SQL Editor completion', option)
  await editor.press('Enter')
  await expect(editor).toHaveText(`select label from ${table}`)

  // Saved for this person, it is listed again after a reload.
  await page.getByRole('button', { name: 'Save query' }).click()
  const dialog = page.getByRole('dialog', { name: 'Save query' })
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name)
  await dialog.getByRole('button', { name: 'Save' }).click()
  const saved = page.getByRole('list', { name: 'Saved queries' })
  await expect(saved.getByRole('button', { name, exact: true })).toBeVisible()

  await page.reload()
  await expect(editor).toBeVisible()
  await editor.fill('select 1')
  await saved.getByRole('button', { name, exact: true }).click()
  await expect(editor).toHaveText(`select label from ${table}`)
  await page.getByRole('button', { name: 'Run' }).click()
  const results = page.getByRole('table', { name: 'Query results' })
  await expect(results.getByText('written by the walk')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Results' }).getByRole('status').filter({ hasText: '1 row' })).toBeVisible()
  await expectAccessible(page, 'SQL Editor with a saved query run', results.getByText('written by the walk'))
})
