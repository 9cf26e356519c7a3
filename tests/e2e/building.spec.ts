import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { advance, advanceServer, clockNow, clockedRequests, createProject, installClock, signIn, startBeats } from './support'

const STATUS_PATH = /\/platform\/projects\/[a-z]{20}\/status$/
const BEAT_MS = 4_000

/** Consecutive requests exactly one beat apart on the page's clock. */
function expectBeat(starts: number[], beat: number) {
  for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1], `gap ${i} of ${starts.join(', ')}`).toBe(beat)
}

test('a project coming up shows "Setting up project", polls every 4 s, and opens when the server turns it healthy', async ({ page, request }) => {
  await installClock(page)
  await signIn(page)
  // The server's coming up lasts longer than the walk (playwright.config.ts): the walk ends it (advanceServer).
  const project = await createProject(request, { organization_slug: 'demo-pro', name: 'E2E coming up', status: 'COMING_UP' })

  await page.goto(`/project/${project.ref}`)
  const building = page.getByRole('heading', { level: 1, name: 'Setting up project' })
  await expect(building).toBeVisible()
  await startBeats(page)
  // While coming up, every tool link leads to the building page.
  await expect(page.getByLabel('Table Editor', { exact: true })).toHaveAttribute('href', `/project/${project.ref}/building`)
  await expectAccessible(page, 'building (coming up)', building)

  // Three beats while the project is coming up: one status request each, 4 s apart on the page's clock.
  const first = (await clockedRequests(page, STATUS_PATH)).length
  await advance(page, 3 * BEAT_MS)
  expect((await clockedRequests(page, STATUS_PATH)).length).toBe(first + 3)
  await expect(building).toBeVisible()

  await advanceServer(request, project.ref)
  const healthyAt = await clockNow(page)
  // The next beat reads the healthy status: the page opens the project then, with no more time passing.
  await advance(page, BEAT_MS)
  await expect(building).toBeHidden()
  await expect(page.getByRole('heading', { level: 1, name: 'E2E coming up' })).toBeVisible()
  await expect(page.getByLabel('Table Editor', { exact: true })).toHaveAttribute('href', `/project/${project.ref}/editor`)
  await expectAccessible(page, 'project home', page.getByRole('heading', { level: 1, name: 'E2E coming up' }))

  const starts = await clockedRequests(page, STATUS_PATH)
  // The page showed the healthy project on the first beat after the server's transition.
  expect(starts.at(-1)! - healthyAt).toBeGreaterThan(0)
  expect(starts.at(-1)! - healthyAt).toBeLessThanOrEqual(BEAT_MS)
  // One status request per 4 s on a fixed beat, counted from each request's start.
  expect(starts.length).toBeGreaterThanOrEqual(4)
  expectBeat(starts, BEAT_MS)
  // Healthy: the polling has stopped.
  await advance(page, 5_000)
  expect(await clockedRequests(page, STATUS_PATH)).toHaveLength(starts.length)
})

test('leaving the building page stops the status polling', async ({ page, request }) => {
  await installClock(page)
  await signIn(page)
  const project = await createProject(request, { organization_slug: 'demo-pro', name: 'E2E leave building', status: 'UNKNOWN' })
  await page.goto(`/project/${project.ref}/editor`)
  await expect(page.getByRole('heading', { level: 1, name: 'Initiating project set up' })).toBeVisible()
  await startBeats(page)
  await expectAccessible(page, 'building (initiating)', page.getByRole('heading', { level: 1, name: 'Initiating project set up' }))
  const first = (await clockedRequests(page, STATUS_PATH)).length
  await advance(page, 2 * BEAT_MS)
  const polled = await clockedRequests(page, STATUS_PATH)
  expect(polled.length).toBe(first + 2)
  expectBeat(polled, BEAT_MS)

  // Settings pages render normally for a project coming up: the poll stops there.
  await page.getByRole('link', { name: 'Project Settings' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Initiating project set up' })).toBeHidden()
  const left = (await clockedRequests(page, STATUS_PATH)).length
  await advance(page, 9_000)
  expect(await clockedRequests(page, STATUS_PATH)).toHaveLength(left)
})
