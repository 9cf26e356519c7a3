import { expect, type APIRequestContext, type Page, type Request } from '@playwright/test'
import type { Project } from '../../src/contracts/projects'
import { expectAccessible } from './axe'

export const DEMO_PASSWORD = 'demo1234'

export async function signIn(page: Page, email = 'owner@example.com') {
  await page.goto('/sign-in')
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible()
  await expectAccessible(page, 'sign-in', page.getByRole('heading', { level: 1, name: 'Welcome back' }))
  await page.getByLabel(/e-?mail/i).fill(email)
  await page.getByLabel(/password/i).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: /sign in/i }).click()
  await expect(page).toHaveURL(/\/projects$/)
  await expect(page.getByRole('searchbox', { name: 'Search for a project' })).toBeVisible()
  await expectAccessible(page, 'projects list', page.getByRole('searchbox', { name: 'Search for a project' }))
}

/** Development control: a new project in the given status (the server schedules its lifecycle). */
export async function createProject(request: APIRequestContext, body: { organization_slug: string; name?: string; status?: string; postgrestStatus?: string }) {
  const response = await request.post('/dev/projects', { data: body })
  expect(response.status(), await response.text()).toBeLessThan(300)
  return (await response.json()) as Project
}

/**
 * When the page sent each request whose path matches, in order: `length` counts them at once (a request the page
 * aborts counts too), and each entry is the browser's own start time of the request once it was answered — the test
 * runner's clock at the 'request' event runs late while the runner is busy (an axe scan), which would shrink or
 * stretch the gaps a fixed beat is checked by — or the runner's time for a request never answered.
 */
export function requestStarts(page: Page, path: RegExp): readonly number[] {
  const seen: Array<{ request: Request; at: number }> = []
  page.on('request', (request) => {
    if (path.test(new URL(request.url()).pathname)) seen.push({ request, at: Date.now() })
  })
  return new Proxy(seen, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        const entry = target[Number(key)]
        return entry && (entry.request.timing().startTime || entry.at)
      }
      return Reflect.get(target, key, receiver)
    },
  }) as unknown as readonly number[]
}
