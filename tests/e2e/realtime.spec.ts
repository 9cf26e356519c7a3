import { expect, test, type Page } from '@playwright/test'
import { ProjectList } from '../../src/contracts/projects'
import { expectAccessible } from './axe'
import { signIn } from './support'

async function refOf(page: Page, name: string) {
  const res = await page.request.get('/platform/projects')
  const project = ProjectList.parse(await res.json()).find((p) => p.name === name)
  expect(project, name).toBeTruthy()
  return project!.ref
}

async function runSql(page: Page, ref: string, sql: string, expectText: string) {
  await page.goto(`/project/${ref}/sql/new`)
  const editor = page.getByLabel('SQL query')
  await expect(editor).toBeVisible()
  await editor.fill(sql)
  await page.getByRole('button', { name: 'Run' }).click()
  // The first query opens the project's database: give it time. A script's statements each have a result tab; the
  // last one (the select) holds the rows.
  const statements = sql.split(';').filter((part) => part.trim()).length
  if (statements > 1) await page.getByRole('tab', { name: `${statements}. SELECT` }).click({ timeout: 20_000 })
  await expect(page.getByRole('table', { name: 'Query results' }).getByText(expectText)).toBeVisible({ timeout: 20_000 })
}

test('the Realtime inspector joins a channel, shows a row inserted in the SQL Editor of another tab as it arrives, and sends a broadcast', async ({ page, context }) => {
  test.setTimeout(90_000)
  await signIn(page)
  const ref = await refOf(page, 'Acme Storefront')
  const table = `live_${Date.now().toString(36)}`
  await runSql(
    page,
    ref,
    `create table public.${table} (id bigint generated always as identity primary key, body text not null);\n` +
      `alter publication supabase_realtime add table public.${table};\n` +
      `select 'published' as state;`,
    'published',
  )

  await page.goto(`/project/${ref}/realtime/inspector`)
  await expect(page.getByRole('heading', { level: 1, name: 'Realtime inspector' })).toBeVisible()
  const join = page.getByRole('form', { name: 'Join a channel' })
  await join.getByRole('textbox', { name: 'Channel' }).fill('room-e2e')
  await join.getByRole('button', { name: 'Join channel' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Listening on room-e2e' })).toBeVisible({ timeout: 20_000 })
  await expectAccessible(page, 'Realtime inspector, listening', page.getByRole('button', { name: 'Send broadcast' }))

  const other = await context.newPage()
  await runSql(other, ref, `insert into public.${table} (body) values ('sent from the SQL Editor') returning body;`, 'sent from the SQL Editor')

  const messages = page.getByRole('list', { name: 'Messages' })
  await expect(messages.getByRole('button').filter({ hasText: 'INSERT' })).toBeVisible({ timeout: 10_000 })
  await messages.getByRole('button').filter({ hasText: 'INSERT' }).click()
  await expect(page.getByLabel('Message JSON')).toContainText('sent from the SQL Editor')
  await expectAccessible(page, 'Realtime inspector with a message', page.getByLabel('Message JSON'))

  // A broadcast sent from the inspector comes back to it (the channel hears itself).
  await page.getByRole('form', { name: 'Send a broadcast' }).getByRole('textbox', { name: 'Event' }).fill('wave')
  await page.getByRole('button', { name: 'Send broadcast' }).click()
  await expect(messages.getByRole('button').filter({ hasText: 'wave' })).toBeVisible()
})
