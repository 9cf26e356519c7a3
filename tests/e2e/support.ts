import { expect, type APIRequestContext, type Page } from '@playwright/test'
import type { Project } from '../../src/contracts/projects'
import { expectAccessible } from './axe'

export const DEMO_PASSWORD = 'demo1234'

export async function signIn(page: Page, email = 'owner@example.com') {
  await page.goto('/sign-in')
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible()
  await expectAccessible(page, 'sign-in')
  await page.getByLabel(/e-?mail/i).fill(email)
  await page.getByLabel(/password/i).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: /sign in/i }).click()
  await expect(page).toHaveURL(/\/projects$/)
  await expect(page.getByRole('searchbox', { name: 'Search for a project' })).toBeVisible()
  await expectAccessible(page, 'projects list')
}

/** Development control: a new project in the given status (the server schedules its lifecycle). */
export async function createProject(request: APIRequestContext, body: { organization_slug: string; name?: string; status?: string; postgrestStatus?: string }) {
  const response = await request.post('/dev/projects', { data: body })
  expect(response.status(), await response.text()).toBeLessThan(300)
  return (await response.json()) as Project
}
