import { expect, test } from '@playwright/test'
import { COMING_UP_MS } from '../../playwright.config'
import { expectAccessible } from './axe'
import { createProject, requestStarts, signIn } from './support'

const STATUS_PATH = /\/platform\/projects\/[a-z]{20}\/status$/

test('a project coming up shows "Setting up project", polls every 4 s, and opens when the server turns it healthy', async ({ page, request }) => {
  await signIn(page)
  const project = await createProject(request, { organization_slug: 'demo-pro', name: 'E2E coming up', status: 'COMING_UP' })
  const healthyAt = Date.now() + COMING_UP_MS

  const statusRequests = requestStarts(page, STATUS_PATH)

  await page.goto(`/project/${project.ref}`)
  const building = page.getByRole('heading', { level: 1, name: 'Setting up project' })
  await expect(building).toBeVisible()
  // While coming up, every tool link leads to the building page.
  await expect(page.getByLabel('Table Editor', { exact: true })).toHaveAttribute('href', `/project/${project.ref}/building`)
  await expectAccessible(page, 'building (coming up)', building)

  await expect(building).toBeHidden({ timeout: COMING_UP_MS + 10_000 })
  const shownAt = Date.now()
  await expect(page.getByRole('heading', { level: 1, name: 'E2E coming up' })).toBeVisible()
  await expect(page.getByLabel('Table Editor', { exact: true })).toHaveAttribute('href', `/project/${project.ref}/editor`)
  await expectAccessible(page, 'project home', page.getByRole('heading', { level: 1, name: 'E2E coming up' }))

  // The page shows the healthy project within one poll interval of the server's transition (plus the
  // engine's tick and the refetch).
  expect(shownAt - healthyAt).toBeLessThan(4_000 + 1_500)
  // One status request per 4 s on a fixed beat: consecutive requests 4 s apart, counted from each request's start
  // (a little slack for a real browser's timers and the recording of requests).
  expect(statusRequests.length).toBeGreaterThanOrEqual(2)
  for (let i = 1; i < statusRequests.length; i++) {
    const gap = statusRequests[i] - statusRequests[i - 1]
    expect(gap).toBeGreaterThan(3_800)
    expect(gap).toBeLessThan(4_300)
  }
  const before = statusRequests.length
  await page.waitForTimeout(5_000)
  expect(statusRequests.length).toBe(before)
})

test('leaving the building page stops the status polling', async ({ page, request }) => {
  await signIn(page)
  const project = await createProject(request, { organization_slug: 'demo-pro', name: 'E2E leave building', status: 'UNKNOWN' })
  const statusRequests = requestStarts(page, STATUS_PATH)
  await page.goto(`/project/${project.ref}/editor`)
  await expect(page.getByRole('heading', { level: 1, name: 'Initiating project set up' })).toBeVisible()
  await expectAccessible(page, 'building (initiating)', page.getByRole('heading', { level: 1, name: 'Initiating project set up' }))
  await expect.poll(() => statusRequests.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2)

  // Settings pages render normally for a project coming up: the poll stops there.
  await page.getByRole('link', { name: 'Project Settings' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Initiating project set up' })).toBeHidden()
  const left = statusRequests.length
  await page.waitForTimeout(9_000)
  expect(statusRequests.length).toBe(left)
})
