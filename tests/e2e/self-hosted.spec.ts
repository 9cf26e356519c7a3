import { expect, test } from '@playwright/test'
import { SELF_HOSTED_URL } from '../../playwright.config'
import { expectAccessible } from './axe'
import { createProject, signIn } from './support'

// The self-hosted build (VITE_BUILD_TARGET=self-hosted, served from dist-self-hosted by a server of its own): what the
// spec leaves out of it, and the AI opt-in that does not apply there. The platform build's walks show the other side.
test.use({ baseURL: SELF_HOSTED_URL })

test('the self-hosted build leaves out Search, Log out, Edge Functions, Reports and Project Settings, and needs no AI opt-in', async ({ page }) => {
  await signIn(page)
  // Demo Free Org has not opted in to AI_SQL: on the platform build the AI toggle is disabled there.
  const project = await createProject(page.request, { organization_slug: 'demo-free', name: 'E2E self-hosted', status: 'ACTIVE_HEALTHY' })
  await page.goto(`/project/${project.ref}/sql/1`)
  const nav = page.getByRole('navigation', { name: 'Main navigation' })
  await expect(nav.getByRole('link', { name: 'SQL Editor' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Logs' })).toBeVisible()
  for (const name of ['Edge Functions', 'Reports', 'Project Settings']) await expect(nav.getByRole('link', { name })).toHaveCount(0)
  await expect(nav.getByRole('button', { name: 'Search' })).toHaveCount(0)
  await nav.getByRole('button', { name: 'Account' }).click()
  await expect(page.getByRole('menuitem', { name: 'Account preferences' })).toBeVisible()
  await expect(page.getByRole('menuitem', { name: 'Log out' })).toHaveCount(0)
  await page.keyboard.press('Escape')
  await expectAccessible(page, 'self-hosted SQL Editor', page.getByRole('heading', { level: 1, name: 'SQL Editor' }))

  await page.getByRole('link', { name: 'AI settings', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Supabase AI Settings' })
  const toggle = dialog.getByRole('switch', { name: 'Send anonymous schema metadata' })
  await expect(toggle).toBeEnabled()
  await expect(dialog.getByText('Your organization does not allow sending anonymous data to OpenAI')).toHaveCount(0)
  await toggle.click()
  await expect(dialog.getByText('Successfully saved settings')).toBeVisible()
  await expect(toggle).toBeChecked()
  await expectAccessible(page, 'self-hosted AI settings', dialog.getByText('Successfully saved settings'))
})
