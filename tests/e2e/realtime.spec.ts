import { expect, test, type Page } from '@playwright/test'
import { expectAccessible } from './axe'
import { refOf, signIn } from './support'

async function runSql(page: Page, ref: string, sql: string, expectText: string) {
  await page.goto(`/project/${ref}/sql/new`)
  const editor = page.getByLabel('SQL query')
  // The SQL Editor's chunk is the first this walk loads, on a machine still starting the other walks' servers.
  await expect(editor).toBeVisible({ timeout: 20_000 })
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

test('Realtime Settings saves a limit through config/realtime, and Channels lists the inspector of another tab as a client', async ({ page, context }) => {
  test.setTimeout(90_000)
  await signIn(page)
  const ref = await refOf(page, 'Acme Storefront')

  await page.goto(`/project/${ref}/realtime/settings`)
  await expect(page.getByRole('heading', { level: 1, name: 'Realtime settings' })).toBeVisible()
  const form = page.getByRole('form', { name: 'Realtime settings' })
  const channels = form.getByRole('textbox', { name: 'Max channels per client' })
  await expect(channels).toHaveValue(/^\d+$/)
  await expectAccessible(page, 'Realtime settings', channels)
  const next = (await channels.inputValue()) === '50' ? '60' : '50'
  await channels.fill(next)
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByRole('status')).toHaveText('Realtime settings saved')
  await page.reload()
  await expect(page.getByRole('form', { name: 'Realtime settings' }).getByRole('textbox', { name: 'Max channels per client' })).toHaveValue(next)

  const inspector = await context.newPage()
  await inspector.goto(`/project/${ref}/realtime/inspector`)
  const join = inspector.getByRole('form', { name: 'Join a channel' })
  await join.getByRole('textbox', { name: 'Channel' }).fill('room-listed')
  await join.getByRole('button', { name: 'Join channel' }).click()
  await expect(inspector.getByRole('status').filter({ hasText: 'Listening on room-listed' })).toBeVisible({ timeout: 20_000 })

  await page.goto(`/project/${ref}/realtime/channels`)
  await expect(page.getByRole('heading', { level: 1, name: 'Realtime channels' })).toBeVisible()
  const clients = page.getByRole('table', { name: 'Clients of room-listed' })
  await expect(clients.getByRole('cell', { name: 'anon', exact: true })).toBeVisible({ timeout: 15_000 })
  await expectAccessible(page, 'Realtime channels', clients)

  // Leaving the channel takes it off the list at the next poll.
  await inspector.getByRole('button', { name: 'Leave channel' }).click()
  await expect(clients).toHaveCount(0, { timeout: 15_000 })
})
