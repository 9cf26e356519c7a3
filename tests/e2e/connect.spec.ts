import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { refOf, signIn } from './support'

const run = promisify(execFile)
const PSQL = '/usr/lib/postgresql/15/bin/psql'
const PASSWORD = 'Kitchen-Drawer-42'

test('the database password is reset in Settings › Database, and the psql string copied from Connect connects with it', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await signIn(page)
  const ref = await refOf(page, 'Acme Storefront')

  // Settings › Database: a new password, held to the rule until it is strong enough.
  await page.goto(`/project/${ref}/settings/database`)
  await page.getByRole('button', { name: 'Reset database password' }).click()
  const reset = page.getByRole('dialog', { name: 'Reset database password' })
  await reset.getByLabel('New password').fill('short')
  await expect(reset.getByRole('button', { name: 'Reset password' })).toBeDisabled()
  await reset.getByLabel('New password').fill(PASSWORD)
  await expectAccessible(page, 'reset database password', reset.getByRole('button', { name: 'Reset password' }))
  await reset.getByRole('button', { name: 'Reset password' }).click()
  await expect(page.getByText('Database password reset: connect with the new one from now on.')).toBeVisible()

  // The project home's Connect dialog: psql's string, copied.
  await page.goto(`/project/${ref}`)
  await page.getByRole('button', { name: 'Connect' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect to your project' })
  await dialog.getByRole('combobox', { name: 'Type' }).selectOption('psql')
  const shown = dialog.getByLabel('Connection string')
  await expect(shown).toContainText('psql "postgresql://postgres.')
  await expectAccessible(page, 'connect dialog', shown)
  await dialog.getByRole('button', { name: 'Copy' }).click()
  await expect(dialog.getByRole('button', { name: 'Copied' })).toBeVisible()
  const copied = await page.evaluate(() => navigator.clipboard.readText())
  expect(copied).toBe(await shown.textContent())

  // The copied command, with the password in its place, runs Debian's psql against the project's database.
  const uri = /^psql "(.+)"$/.exec(copied)![1].replace('[YOUR-PASSWORD]', encodeURIComponent(PASSWORD))
  const { stdout } = await run(PSQL, [uri, '-At', '-c', 'select current_user, count(*) >= 0 from pg_class'], { env: { PATH: process.env.PATH }, timeout: 60_000 })
  expect(stdout.trim()).toMatch(/^[^|]+\|t$/)
})
