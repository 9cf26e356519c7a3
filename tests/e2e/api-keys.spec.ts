import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { ProjectSettings } from '../../src/contracts/keys'
import { expectAccessible } from './axe'
import { createProject, DEMO_PASSWORD, refOf, signIn } from './support'

const PERMISSION_TEXT = 'You need additional permissions to view API keys'

/** The Owner's view of a project's keys, read through the API with its own session (a separate request context). */
async function ownerSettings(request: APIRequestContext, ref: string) {
  const signedIn = await request.post('/platform/auth/sign-in', { data: { email: 'owner@example.com', password: DEMO_PASSWORD } })
  expect(signedIn.status()).toBe(200)
  const res = await request.get(`/platform/props/project/${ref}/settings`)
  expect(res.status()).toBe(200)
  const settings = ProjectSettings.parse(await res.json())
  const key = (tag: string) => settings.services[0].service_api_keys.find((k) => k.tags === tag)!.api_key
  return { anon: key('anon'), serviceRole: key('service_role'), secret: settings.project.jwt_secret! }
}

const row = (page: Page, name: string) => page.getByRole('group', { name })

test('the Owner reveals the service_role key and copies it to the clipboard', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await signIn(page)
  const ref = await refOf(page, 'Recipe Box')
  const keys = await ownerSettings(request, ref)

  await page.goto(`/project/${ref}/settings/api`)
  await expect(page.getByRole('heading', { name: 'Project API keys' })).toBeVisible()
  const service = row(page, 'service_role key')
  await expect(service.getByText('secret', { exact: true })).toBeVisible()
  await expect(row(page, 'anon key').getByText('public', { exact: true })).toBeVisible()
  await expect(row(page, 'anon key').getByText(keys.anon)).toBeVisible()
  // Masked until revealed: the value is not in the page at all.
  await expect(service.getByLabel('masked')).toBeVisible()
  expect(await page.content()).not.toContain(keys.serviceRole)
  expect(await page.content()).not.toContain(keys.secret)
  await expect(row(page, 'anon key').getByRole('button', { name: 'Reveal' })).toHaveCount(0)
  await expectAccessible(page, 'settings/api (Owner)', service.getByLabel('masked'))

  await service.getByRole('button', { name: 'Reveal' }).click()
  await expect(service.getByText(keys.serviceRole)).toBeVisible()
  await service.getByRole('button', { name: 'Copy' }).click()
  await expect(service.getByRole('button', { name: 'Copied' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(keys.serviceRole)
  // 'Copied' for 2 s, then 'Copy' again.
  await expect(service.getByRole('button', { name: 'Copy' })).toBeVisible({ timeout: 3_500 })

  await service.getByRole('button', { name: 'Hide' }).click()
  await expect(service.getByLabel('masked')).toBeVisible()

  // The Project Configuration panel: URL and the JWT secret, masked until revealed.
  const secretRow = row(page, 'JWT Secret')
  await expect(row(page, 'URL').getByText(new RegExp(`/p/${ref}$`))).toBeVisible()
  await secretRow.getByRole('button', { name: 'Reveal' }).click()
  await expect(secretRow.getByText(keys.secret)).toBeVisible()
  await expectAccessible(page, 'settings/api (Owner, secrets revealed)', secretRow.getByText(keys.secret))
})

test('the Developer sees the permission text and no key, neither in the page nor on the wire', async ({ page, request }) => {
  const bodies: string[] = []
  page.on('response', async (response) => {
    try {
      bodies.push(await response.text())
    } catch {
      // redirects and aborted requests have no body
    }
  })
  await signIn(page, 'developer@example.com')
  const ref = await refOf(page, 'Recipe Box')
  const keys = await ownerSettings(request, ref)

  await page.goto(`/project/${ref}/settings/api`)
  await expect(row(page, 'anon key').getByText(PERMISSION_TEXT)).toBeVisible()
  await expect(row(page, 'service_role key').getByText(PERMISSION_TEXT)).toBeVisible()
  await expect(row(page, 'JWT Secret').getByText(PERMISSION_TEXT)).toBeVisible()
  await expect(row(page, 'service_role key').getByRole('button', { name: 'Reveal' })).toBeDisabled()
  await expect(row(page, 'service_role key').getByRole('button', { name: 'Copy' })).toBeDisabled()
  await expect(page.getByRole('button', { name: 'Generate a new JWT secret' })).toBeDisabled()
  await expectAccessible(page, 'settings/api (Developer)', row(page, 'JWT Secret').getByText(PERMISSION_TEXT))

  const html = await page.content()
  for (const value of [keys.anon, keys.serviceRole, keys.secret]) expect(html).not.toContain(value)
  await page.waitForLoadState('networkidle')
  expect(bodies.length).toBeGreaterThan(3)
  for (const body of bodies) {
    expect(body).not.toContain(keys.serviceRole)
    expect(body).not.toContain(keys.secret)
  }
})

test('a rotation shows "JWT secret is being updated", then new keys that differ from the old ones', async ({ page, request }) => {
  await signIn(page)
  const project = await createProject(request, { organization_slug: 'demo-pro', name: 'E2E rotation', status: 'ACTIVE_HEALTHY' })
  const old = await ownerSettings(request, project.ref)

  await page.goto(`/project/${project.ref}/settings/api`)
  const anon = row(page, 'anon key')
  await expect(anon.getByText(old.anon)).toBeVisible()

  await page.getByRole('button', { name: 'Generate a new JWT secret' }).click()
  const dialog = page.getByRole('dialog', { name: 'Generate a new JWT secret' })
  await expect(dialog.getByText('Every API key changes.')).toBeVisible()
  await expectAccessible(page, 'JWT secret dialog', dialog.getByText('Every API key changes.'))
  await dialog.getByRole('button', { name: 'Generate new JWT secret' }).click()

  await expect(anon.getByText('JWT secret is being updated')).toBeVisible()
  await expect(row(page, 'service_role key').getByText('JWT secret is being updated')).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: 'Updating JWT secret...' })).toBeVisible()
  await expect(row(page, 'service_role key').getByRole('button', { name: 'Copy' })).toBeDisabled()
  await expectAccessible(page, 'settings/api (JWT secret being updated)', page.getByRole('status').filter({ hasText: 'Updating JWT secret...' }))

  const fresh = await (async () => {
    await expect(anon.getByText('JWT secret is being updated')).toBeHidden({ timeout: 10_000 })
    return ownerSettings(request, project.ref)
  })()
  expect(fresh.anon).not.toBe(old.anon)
  expect(fresh.serviceRole).not.toBe(old.serviceRole)
  expect(fresh.secret).not.toBe(old.secret)
  await expect(anon.getByText(fresh.anon)).toBeVisible()
  const service = row(page, 'service_role key')
  await service.getByRole('button', { name: 'Reveal' }).click()
  await expect(service.getByText(fresh.serviceRole)).toBeVisible()
  expect(await page.content()).not.toContain(old.anon)
})

test('a failed rotation says so and keeps the old keys', async ({ page, request }) => {
  await signIn(page)
  const project = await createProject(request, { organization_slug: 'demo-free', name: 'E2E failed rotation', status: 'ACTIVE_HEALTHY' })
  const old = await ownerSettings(request, project.ref)
  expect((await request.post(`/dev/projects/${project.ref}/fail-next-jwt-update`)).status()).toBe(200)

  await page.goto(`/project/${project.ref}/settings/api`)
  await page.getByRole('button', { name: 'Generate a new JWT secret' }).click()
  const dialog = page.getByRole('dialog', { name: 'Generate a new JWT secret' })
  await dialog.getByRole('radio', { name: 'Create my own secret' }).check()
  await dialog.getByLabel('Custom JWT secret').fill('too-short')
  await expect(dialog.getByRole('button', { name: 'Generate new JWT secret' })).toBeDisabled()
  await expectAccessible(page, 'JWT secret dialog (custom secret)', dialog.getByLabel('Custom JWT secret'))
  await dialog.getByLabel('Custom JWT secret').fill('an-e2e-custom-secret-of-enough-length-0123456789')
  await dialog.getByRole('button', { name: 'Generate new JWT secret' }).click()

  await expect(row(page, 'anon key').getByText('JWT secret is being updated')).toBeVisible()
  await expect(row(page, 'anon key').getByText('JWT secret update failed, new API key may have issues')).toBeVisible({ timeout: 10_000 })
  await expect(page.getByRole('alert').filter({ hasText: 'JWT secret update failed' })).toBeVisible()
  await expectAccessible(page, 'settings/api (JWT secret update failed)', page.getByRole('alert').filter({ hasText: 'JWT secret update failed' }))
  expect(await ownerSettings(request, project.ref)).toEqual(old)
})
