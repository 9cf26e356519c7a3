import { expect as baseExpect, test, type Page } from '@playwright/test'
import { expectAccessible } from './axe'
import { DEMO_PASSWORD, refOf } from './support'

// The walk waits on a shared, busy machine: a longer wait per step than the default 5 s, never a fixed sleep.
const expect = baseExpect.configure({ timeout: 20_000 })
test.setTimeout(300_000)

async function signIn(page: Page, email = 'owner@example.com') {
  await page.goto('/sign-in')
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible()
  await page.getByLabel(/e-?mail/i).fill(email)
  await page.getByLabel(/password/i).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: /sign in/i }).click()
  await expect(page).toHaveURL(/\/projects$/)
}

const LINKED = 'Successfully linked project to repository!'

const panel = (page: Page) => page.getByRole('dialog', { name: 'Add GitHub repository' })
const connections = (page: Page) => page.getByRole('list', { name: 'Connections' })

test('links a project to a demo repository from the side panel, relinks it from its settings, and shows it on the organization page', async ({ page }) => {
  await signIn(page)
  await page.goto('/org/demo-free/integrations')
  await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible()
  const installations = page.getByRole('list', { name: 'Installations' })
  await expect(installations.getByText('demo-free (Organization)')).toBeVisible()
  await expect(installations.getByText(/Added by owner@example.com/)).toBeVisible()
  await expectAccessible(page, 'organization integrations', installations.getByText(/Added by owner@example.com/))

  await page.getByRole('button', { name: 'Add GitHub repository' }).click()
  const linker = panel(page)
  await expect(linker.getByRole('radio', { name: /^demo-free\/notes-app/ })).toBeVisible()
  const connect = linker.getByRole('button', { name: 'Connect' })
  await expect(connect).toBeDisabled()
  await expectAccessible(page, 'Add GitHub repository panel', linker.getByRole('radio', { name: /^demo-free\/notes-app/ }))

  // Text search in each picker; an empty search result says so.
  await linker.getByRole('searchbox', { name: 'Search repositories' }).fill('zzz')
  await expect(linker.getByText('No results found.')).toBeVisible()
  await linker.getByRole('searchbox', { name: 'Search repositories' }).fill('notes')
  await expect(linker.getByRole('radio', { name: /landing-page/ })).toHaveCount(0)
  await linker.getByRole('radio', { name: /^demo-free\/notes-app/ }).check()
  await expect(connect).toBeDisabled()
  await linker.getByRole('searchbox', { name: 'Search projects' }).fill('recipe')
  await linker.getByRole('radio', { name: /^Recipe Box/ }).check()
  await expect(connect).toBeEnabled()
  await connect.click()

  await expect(page.getByText(LINKED)).toBeVisible()
  await expect(linker).toBeHidden()
  await expect(connections(page).getByText('demo-free/notes-app')).toBeVisible()
  await expect(connections(page).getByText(/→ Recipe Box/)).toBeVisible()

  // Relink from the project's settings: the project comes chosen, its link is replaced.
  const ref = await refOf(page, 'Recipe Box')
  await page.goto(`/project/${ref}/settings/integrations`)
  await expect(connections(page).getByText('demo-free/notes-app')).toBeVisible()
  await page.getByRole('button', { name: 'Add GitHub repository' }).click()
  await expect(panel(page).getByRole('radio', { name: /^Recipe Box/ })).toBeChecked()
  await panel(page).getByRole('radio', { name: /^demo-free\/landing-page/ }).check()
  await expect(panel(page).getByText('The project is linked to demo-free/notes-app: connecting replaces that link.')).toBeVisible()
  await panel(page).getByRole('button', { name: 'Connect' }).click()
  await expect(page.getByText(LINKED)).toBeVisible()
  await expect(connections(page).getByText('demo-free/landing-page')).toBeVisible()
  await expect(connections(page).getByText('demo-free/notes-app')).toHaveCount(0)
  await expectAccessible(page, 'project integrations settings', connections(page).getByText('demo-free/landing-page'))

  // A repository that already has a connection cannot be linked to another project.
  await page.getByRole('button', { name: 'Add GitHub repository' }).click()
  await panel(page).getByRole('radio', { name: /^Legacy Blog/ }).check()
  await panel(page).getByRole('radio', { name: /^demo-free\/landing-page/ }).check()
  await expect(panel(page).getByRole('alert')).toHaveText(
    'Unable to connect to demo-free/landing-page: Selected repository already has an installed connection to a project',
  )
  await expect(panel(page).getByRole('button', { name: 'Connect' })).toBeDisabled()
  await panel(page).getByRole('button', { name: 'Cancel' }).click()
  await expect(panel(page)).toBeHidden()

  // The organization page shows the connection.
  await page.goto('/org/demo-free/integrations')
  await expect(connections(page).getByText('demo-free/landing-page')).toBeVisible()
  await expect(connections(page).getByText(/→ Recipe Box/)).toBeVisible()
  await expect(connections(page).getByText(/Added by owner@example.com/)).toBeVisible()
})

test('the install step: a person who has not authorized GitHub installs it in a popup, and the panel lists the repositories', async ({ page }) => {
  await signIn(page, 'developer@example.com')
  await page.goto('/org/demo-pro/integrations')
  await page.getByRole('button', { name: 'Add GitHub repository' }).click()
  const install = panel(page).getByRole('button', { name: 'Install GitHub' })
  await expect(install).toBeVisible()
  await expectAccessible(page, 'install step', install)

  const [popup] = await Promise.all([page.waitForEvent('popup'), install.click()])
  await popup.waitForLoadState()
  expect(popup.viewportSize()).toEqual({ width: 600, height: 800 })
  await expect(panel(page).getByText('Waiting for the GitHub install window…')).toBeVisible()
  // The page closes itself once it has recorded the installation: wait for that from before the click, or the
  // close can come first and the wait never end.
  const closed = popup.waitForEvent('close')
  await popup.getByRole('button', { name: 'Authorize' }).click()
  await closed

  await expect(panel(page).getByRole('radio', { name: /^demo-pro\/notes-app/ })).toBeVisible()
  await expect(panel(page).getByRole('radio', { name: /^demo-pro\/notes-app/ })).toHaveAccessibleName(/Linked to Acme Storefront/)
})
