import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { advance, advanceServer, advanceUntilVisible, clockNow, clockedRequests, createProject, installClock, settle, signIn, startBeats } from './support'

// The server's pause and restore steps last longer than these walks (playwright.config.ts): each walk ends them
// itself (advanceServer), with the page on a clock it drives (installClock), so the beats are exact at any load.
const STATUS_PATH = /\/platform\/projects\/[a-z]{20}\/status$/
/** The restoring screen's status poll. */
const RESTORE_BEAT_MS = 4_000

test('pausing a project from its settings shows "Pausing project" until it is paused, then the paused page', async ({ page, request }) => {
  await installClock(page)
  await signIn(page)
  const project = await createProject(request, { organization_slug: 'demo-pro', name: 'E2E pause me', status: 'ACTIVE_HEALTHY' })
  await page.goto(`/project/${project.ref}/settings/general`)
  await expect(page.getByRole('heading', { level: 1, name: 'General settings' })).toBeVisible()
  await expectAccessible(page, 'settings/general', page.getByRole('heading', { level: 1, name: 'General settings' }))
  await page.getByRole('button', { name: 'Pause project' }).click()
  const dialog = page.getByRole('dialog', { name: 'Pause this project' })
  // Headless UI's dialog element has no box of its own; its panel (title and buttons) is what shows.
  await expect(dialog.getByRole('heading', { name: 'Pause this project' })).toBeVisible()
  await expectAccessible(page, 'pause dialog', dialog.getByRole('heading', { name: 'Pause this project' }))
  await startBeats(page)
  await dialog.getByRole('button', { name: 'Confirm pause' }).click()
  // The pause is answered with the clock where it was at the click: the dashboard is pausing from this time on. The
  // pausing page's code was asked for when the dialog opened, so its flow starts with the answer (a flow that started
  // with its code, after the walk had moved the clock on, polled 100 ms late); the screen shows after React's
  // Suspense timer.
  await settle(page)
  const startedAt = await clockNow(page)
  const pausing = page.getByRole('heading', { level: 1, name: 'Pausing project' })
  await advanceUntilVisible(page, pausing)
  await expect(page.getByText(/Running for \d+ s/)).toBeVisible()
  await expectAccessible(page, 'pausing', page.getByText(/Running for \d+ s/))

  // GOING_DOWN for two polls, PAUSING for one, then INACTIVE: the poll after it leaves the pausing page.
  await advance(page, 4_000)
  expect(await clockedRequests(page, STATUS_PATH)).toHaveLength(1)
  await advance(page, 2_000)
  expect(await clockedRequests(page, STATUS_PATH)).toHaveLength(2)
  expect((await advanceServer(request, project.ref)).outcome).toBe('applied')
  await advance(page, 2_000)
  await expect(pausing).toBeVisible()
  expect((await advanceServer(request, project.ref)).outcome).toBe('applied')
  await advance(page, 2_000)
  // Settings render normally for a paused project: the pausing page gives way to the settings page.
  await expect(pausing).toBeHidden()
  await expect(page.getByRole('heading', { level: 1, name: 'General settings' })).toBeVisible()
  await expect(page.getByText('Paused', { exact: true })).toBeVisible()
  // The first status poll comes 4 s after the page opened, then every 2 s on a fixed beat.
  const requests = await clockedRequests(page, STATUS_PATH)
  expect(requests).toHaveLength(4)
  expect(requests[0] - startedAt).toBe(4_000)
  for (let i = 1; i < requests.length; i++) expect(requests[i] - requests[i - 1], `gap ${i} of ${requests.join(', ')}`).toBe(2_000)

  await page.getByRole('link', { name: 'Table Editor' }).first().click()
  await expect(page.getByRole('heading', { level: 1, name: 'Project is paused' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Restore project' })).toBeEnabled()
  await expectAccessible(page, 'paused (Owner)', page.getByRole('button', { name: 'Restore project' }))
})

test('restoring a paused project shows "Restoration in progress", then "Restoration complete!" and returns to it', async ({ page, request }) => {
  await installClock(page)
  await signIn(page)
  const project = await createProject(request, { organization_slug: 'demo-pro', name: 'E2E restore me', status: 'INACTIVE' })
  await page.goto(`/project/${project.ref}/editor`)
  await expect(page.getByRole('heading', { level: 1, name: 'Project is paused' })).toBeVisible()
  // The Pro plan: a compute billing note and the settings link, no upgrade link.
  await expect(page.getByRole('link', { name: 'Project settings', exact: true })).toHaveAttribute('href', `/project/${project.ref}/settings/general`)
  await expect(page.getByRole('link', { name: 'Upgrade to Pro' })).toHaveCount(0)

  await page.getByRole('button', { name: 'Restore project' }).click()
  const dialog = page.getByRole('dialog', { name: 'Restore this project' })
  await expect(dialog.getByRole('button', { name: 'Confirm restore' })).toBeVisible()
  await expectAccessible(page, 'restore dialog', dialog.getByRole('button', { name: 'Confirm restore' }))
  await startBeats(page)
  await dialog.getByRole('button', { name: 'Confirm restore' }).click()
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('Restoring project')
  await advanceUntilVisible(page, page.getByRole('heading', { level: 1, name: 'Restoration in progress' }))
  await expectAccessible(page, 'restoring', page.getByRole('heading', { level: 1, name: 'Restoration in progress' }))
  // Still restoring after a beat; the beat after the server has restored it shows it complete.
  await advance(page, RESTORE_BEAT_MS)
  await expect(page.getByRole('heading', { level: 1, name: 'Restoration in progress' })).toBeVisible()
  expect((await advanceServer(request, project.ref)).outcome).toBe('applied')
  await advance(page, RESTORE_BEAT_MS)
  await expect(page.getByRole('heading', { level: 1, name: 'Restoration complete!' })).toBeVisible()
  await expectAccessible(page, 'restoration complete', page.getByRole('heading', { level: 1, name: 'Restoration complete!' }))
  await page.getByRole('button', { name: 'Return to project' }).click()
  await advanceUntilVisible(page, page.getByRole('heading', { level: 1, name: 'Table Editor' }))
  await expectAccessible(page, 'project page (Table Editor)', page.getByRole('heading', { level: 1, name: 'Table Editor' }))
})

test('a failed restore shows the recorded error with a Contact support link', async ({ page, request }) => {
  await installClock(page)
  await signIn(page)
  const project = await createProject(request, { organization_slug: 'demo-pro', name: 'E2E failing restore', status: 'INACTIVE' })
  const fail = await request.post(`/dev/projects/${project.ref}/fail-next-restore`, { data: { fail: true } })
  expect(fail.status()).toBe(200)
  await page.goto(`/project/${project.ref}/editor`)
  await page.getByRole('button', { name: 'Restore project' }).click()
  await startBeats(page)
  await page.getByRole('dialog', { name: 'Restore this project' }).getByRole('button', { name: 'Confirm restore' }).click()
  await advanceUntilVisible(page, page.getByRole('heading', { level: 1, name: 'Restoration in progress' }))
  await advanceServer(request, project.ref)
  await advance(page, RESTORE_BEAT_MS)
  await expect(page.getByRole('heading', { level: 1, name: 'Restoration failed' })).toBeVisible()
  await expect(page.getByRole('alert')).toContainText('could not be restored')
  await expectAccessible(page, 'restoration failed', page.getByRole('alert'))
  const support = page.getByRole('link', { name: 'Contact support' })
  const href = new URL((await support.getAttribute('href'))!, 'http://x')
  expect(href.pathname).toBe('/support/new')
  expect(href.searchParams.get('category')).toBe('Database_unresponsive')
  expect(href.searchParams.get('ref')).toBe(project.ref)
  await support.click()
  await advanceUntilVisible(page, page.getByLabel('Project reference'))
  await expect(page.getByLabel('Project reference')).toHaveValue(project.ref)
  await expectAccessible(page, 'support form', page.getByLabel('Project reference'))
})

test("the Developer's restore attempt shows the permission error and the tooltip", async ({ page, request }) => {
  const project = await createProject(request, { organization_slug: 'demo-pro', name: 'E2E developer restore', status: 'INACTIVE' })
  await signIn(page, 'developer@example.com')
  await page.goto(`/project/${project.ref}/editor`)
  const restore = page.getByRole('button', { name: 'Restore project' })
  await expect(restore).toBeEnabled()
  await restore.hover()
  await expect(page.getByRole('tooltip')).toHaveText('You need additional permissions to resume this project')
  await expectAccessible(page, 'paused (Developer, tooltip shown)', page.getByRole('tooltip'))
  await restore.click()
  await expect(page.getByRole('alert')).toHaveText('You do not have the required permissions to restore this project')
  await expectAccessible(page, 'paused (Developer, permission error)', page.getByRole('alert'))
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('the free organization over its free project limit shows the blocking modal', async ({ page, request }) => {
  const project = await createProject(request, { organization_slug: 'demo-free', name: 'E2E free restore', status: 'INACTIVE' })
  await signIn(page)
  await page.goto(`/project/${project.ref}/database/tables`)
  await expect(page.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/org/demo-free/billing?panel=subscriptionPlan')
  await page.getByRole('button', { name: 'Restore project' }).click()
  const modal = page.getByRole('dialog', { name: 'Free project limit reached' })
  await expect(modal.getByRole('heading', { name: 'Free project limit reached' })).toBeVisible()
  await expect(modal).toContainText('owner@example.com')
  await expect(modal).toContainText('delete, pause or upgrade one of their projects first')
  await expectAccessible(page, 'free project limit dialog', modal.getByRole('heading', { name: 'Free project limit reached' }))
  await modal.getByRole('button', { name: 'Understood' }).click()
  await expect(modal).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 1, name: 'Project is paused' })).toBeVisible()
})
