import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { createProject, signIn } from './support'

// Each walk puts Demo Free Org back as the demo has it (free plan, no opt-in): other walks rely on it.
test('opting the organization in to AI lets a member turn on sending schema metadata', async ({ page }) => {
  await signIn(page)
  try {
    const project = await createProject(page.request, { organization_slug: 'demo-free', name: 'E2E AI settings', status: 'ACTIVE_HEALTHY' })
    // Before the opt-in: the dialog over the SQL Editor says the organization does not allow it.
    await page.goto(`/project/${project.ref}/sql/1`)
    await page.getByRole('link', { name: 'AI settings', exact: true }).click()
    let dialog = page.getByRole('dialog', { name: 'Supabase AI Settings' })
    await expect(dialog.getByText('Your organization does not allow sending anonymous data to OpenAI')).toBeVisible()
    const toggle = dialog.getByRole('switch', { name: 'Send anonymous schema metadata' })
    await expect(toggle).toBeDisabled()
    await expectAccessible(page, 'AI settings, not opted in', toggle)
    await dialog.getByRole('link', { name: 'Organization settings' }).click()

    // The organization's general settings: the Owner opts in.
    await expect(page).toHaveURL(/\/org\/demo-free\/general$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Organization settings' })).toBeVisible()
    await expect(page.getByRole('definition').getByText('demo-free', { exact: true })).toBeVisible()
    await expectAccessible(page, 'organization settings', page.getByRole('definition').getByText('demo-free', { exact: true }))
    const optIn = page.getByRole('switch', { name: 'Share anonymous schema metadata with the AI' })
    await expect(optIn).not.toBeChecked()
    await optIn.click()
    await page.getByRole('button', { name: 'Save' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Organization settings saved' })).toBeVisible()

    // Back in the project: the toggle is enabled and saves.
    await page.goto(`/project/${project.ref}/sql/1?aiSettings=open`)
    dialog = page.getByRole('dialog', { name: 'Supabase AI Settings' })
    await expect(toggle).toBeEnabled()
    await expect(dialog.getByText('Your organization does not allow sending anonymous data to OpenAI')).toHaveCount(0)
    await toggle.click()
    await expect(dialog.getByText('Successfully saved settings')).toBeVisible()
    await expect(toggle).toBeChecked()
    await expectAccessible(page, 'AI settings, saved', dialog.getByText('Successfully saved settings'))
    // Kept on the server: a reload shows it on.
    await page.reload()
    await expect(page.getByRole('dialog', { name: 'Supabase AI Settings' }).getByRole('switch', { name: 'Send anonymous schema metadata' })).toBeChecked()
  } finally {
    await page.request.patch('/platform/organizations/demo-free', { data: { opt_in_tags: [] } })
  }
})

test("changing Demo Free Org's plan to Pro lifts the free project limit on restoring a paused project", async ({ page }) => {
  await signIn(page)
  try {
    const project = await createProject(page.request, { organization_slug: 'demo-free', name: 'E2E plan restore', status: 'INACTIVE' })
    await page.goto(`/project/${project.ref}/database/tables`)
    // The Owner starts over the free limit: the blocking dialog.
    await page.getByRole('button', { name: 'Restore project' }).click()
    const limit = page.getByRole('dialog', { name: 'Free project limit reached' })
    await expect(limit.getByRole('heading', { name: 'Free project limit reached' })).toBeVisible()
    await limit.getByRole('button', { name: 'Understood' }).click()
    await expect(limit).toHaveCount(0)

    await page.getByRole('link', { name: 'Upgrade to Pro' }).click()
    await expect(page).toHaveURL(/\/org\/demo-free\/billing\?panel=subscriptionPlan$/)
    await expect(page.getByRole('heading', { name: 'Change subscription plan' })).toBeVisible()
    await expectAccessible(page, 'billing, plans', page.getByRole('heading', { name: 'Change subscription plan' }))
    await page.getByRole('button', { name: 'Change to Pro' }).click()
    const confirm = page.getByRole('dialog', { name: 'Change to the Pro plan' })
    await expect(confirm.getByRole('heading', { name: 'Change to the Pro plan' })).toBeVisible()
    await expectAccessible(page, 'plan change dialog', confirm.getByRole('heading', { name: 'Change to the Pro plan' }))
    await confirm.getByRole('button', { name: 'Confirm Pro plan' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Your organization is now on the Pro plan' })).toBeVisible()

    // At once: restoring asks for confirmation instead of blocking.
    await page.goto(`/project/${project.ref}/database/tables`)
    await page.getByRole('button', { name: 'Restore project' }).click()
    const restore = page.getByRole('dialog', { name: 'Restore this project' })
    await expect(restore.getByRole('heading', { name: 'Restore this project' })).toBeVisible()
    await expect(page.getByRole('dialog', { name: 'Free project limit reached' })).toHaveCount(0)
  } finally {
    await page.request.put('/platform/organizations/demo-free/billing/subscription', { data: { plan: 'free' } })
  }
})
