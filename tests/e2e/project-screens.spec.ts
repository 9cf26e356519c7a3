import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { createProject, signIn } from './support'

test('an unknown project ref shows the not-found page, with the way back to the projects', async ({ page }) => {
  await signIn(page)
  await page.goto('/project/zzzzzzzzzzzzzzzzzzzz/editor')
  await expect(page.getByRole('heading', { level: 1, name: 'Project not found' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Table Editor' })).toHaveCount(0)
  await expectAccessible(page, 'project not found', page.getByRole('heading', { level: 1, name: 'Project not found' }))
  await page.getByRole('link', { name: 'Back to your projects' }).click()
  await expect(page).toHaveURL(/\/projects$/)
})

test('custom domain: refused on the free plan; on the Pro plan an active hostname becomes the API URL', async ({ page }) => {
  // Two new projects, five screens and three scans: on a busy machine more than the default minute.
  test.setTimeout(120_000)
  await signIn(page)
  const free = await createProject(page.request, { organization_slug: 'demo-free', name: 'E2E free domain', status: 'ACTIVE_HEALTHY' })
  await page.goto(`/project/${free.ref}/settings/general`)
  const freeSection = page.getByRole('region', { name: 'Custom domains' })
  await expect(freeSection.getByText("this project's organization is not allowed to set one up")).toBeVisible({ timeout: 20_000 })
  await expectAccessible(page, 'general settings, free plan', freeSection.getByText("this project's organization is not allowed to set one up"))

  const pro = await createProject(page.request, { organization_slug: 'demo-pro', name: 'E2E pro domain', status: 'ACTIVE_HEALTHY' })
  await page.goto(`/project/${pro.ref}/settings/general`)
  await expect(page.getByRole('region', { name: 'Custom domains' }).getByText('No custom domain')).toBeVisible({ timeout: 20_000 })
  const set = await page.request.post(`/dev/projects/${pro.ref}/custom-hostname`, { data: { hostname: 'api.e2e-domain.test', status: '5_services_reconfigured' } })
  expect(set.status(), await set.text()).toBeLessThan(300)

  await page.goto(`/project/${pro.ref}/settings/general`)
  await expect(page.getByRole('region', { name: 'Custom domains' }).getByText('api.e2e-domain.test').first()).toBeVisible({ timeout: 20_000 })
  await expectAccessible(page, 'general settings, custom domain', page.getByRole('region', { name: 'Custom domains' }).getByText('api.e2e-domain.test').first())
  await page.goto(`/project/${pro.ref}/settings/api`)
  await expect(page.getByRole('region', { name: 'Project Configuration' }).getByLabel('URL value')).toHaveText('https://api.e2e-domain.test', { timeout: 20_000 })
  await expectAccessible(page, 'API settings, custom domain', page.getByRole('region', { name: 'Project Configuration' }).getByLabel('URL value'))
})

test('the support form sends a ticket, which /support lists', async ({ page }) => {
  await signIn(page)
  const subject = `E2E ticket ${Date.now().toString(36)}`
  await page.goto('/support/new')
  await expect(page.getByRole('heading', { level: 1, name: 'Contact support' })).toBeVisible()
  await page.getByLabel('Category').selectOption({ label: 'Database unresponsive' })
  await page.getByLabel('Subject').fill(subject)
  await page.getByLabel('Message').fill('Every query times out')
  await expectAccessible(page, 'support form', page.getByLabel('Message'))
  await page.getByRole('button', { name: 'Send support request' }).click()
  await expect(page.getByRole('status').filter({ hasText: `Support request sent: ${subject}` })).toBeVisible()
  await page.getByRole('link', { name: 'Your support requests' }).click()
  await expect(page).toHaveURL(/\/support$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Support requests' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: subject })).toBeVisible()
  await expectAccessible(page, 'support requests', page.getByRole('heading', { level: 2, name: subject }))
})

test("the API page's Data API settings save the REST API's row cap, which the Management API then reads", async ({ page }) => {
  test.setTimeout(90_000)
  await signIn(page)
  const project = await createProject(page.request, { organization_slug: 'demo-pro', name: 'E2E data api', status: 'ACTIVE_HEALTHY' })
  await page.goto(`/project/${project.ref}/settings/api`)
  const form = page.getByRole('form', { name: 'Data API settings' })
  await expect(form.getByLabel('Max rows')).toHaveValue('1000', { timeout: 20_000 })
  await expectAccessible(page, 'API settings, Data API settings', form.getByLabel('Max rows'))
  await form.getByLabel('Max rows').fill('5')
  await form.getByRole('button', { name: 'Save' }).click()
  await expect(form.getByRole('status')).toHaveText('Data API settings saved', { timeout: 30_000 })
  const read = await page.request.get(`/v1/projects/${project.ref}/postgrest`)
  expect(read.status(), await read.text()).toBe(200)
  expect(await read.json()).toMatchObject({ db_schema: 'public', max_rows: 5 })
})
