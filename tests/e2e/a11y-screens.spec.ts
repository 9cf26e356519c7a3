import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { refOf, signIn } from './support'

/**
 * The screens an outside accessibility audit scanned by hand once their data had rendered, each scanned the same way
 * here: the project list (its cards and primary buttons), and the screens with a primary button — branches, storage
 * buckets, the project's and the organization's integrations, the organization's team and the account's tokens.
 */

test('the project list, its cards and the screens with a primary button pass axe once their content has rendered', async ({ page }) => {
  test.setTimeout(120_000)
  // signIn scans the project list once its search box shows; the cards are what the list renders then.
  await signIn(page)
  const acmeCard = page.getByRole('link', { name: /^Acme Storefront\b/ })
  await expectAccessible(page, '/projects with its cards', acmeCard)
  const ref = await refOf(page, 'Acme Storefront')

  await page.goto(`/project/${ref}/branches`)
  const branches = page.getByRole('table', { name: 'Branches' }).or(page.getByText('No preview branches yet', { exact: false }))
  await expectAccessible(page, 'branches', branches)

  await page.goto(`/project/${ref}/storage/buckets`)
  // The demo database is made on first use: give it time.
  await expect(page.getByRole('table', { name: 'Buckets' }).getByText('product-images')).toBeVisible({ timeout: 20_000 })
  await expectAccessible(page, 'storage buckets', page.getByRole('button', { name: 'New bucket' }))

  await page.goto(`/project/${ref}/settings/integrations`)
  await expectAccessible(page, 'project integrations', page.getByRole('button', { name: 'Add GitHub repository' }))

  await page.goto('/org/demo-pro/team')
  await expectAccessible(page, 'organization team', page.getByRole('button', { name: 'Invite member' }))

  await page.goto('/org/demo-pro/integrations')
  await expectAccessible(page, 'organization integrations', page.getByRole('list', { name: 'Installations' }).getByRole('listitem').first())

  await page.goto('/account/me')
  await expectAccessible(page, 'account tokens', page.getByRole('region', { name: 'Access tokens' }).getByLabel('Token name'))
})
