import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import { expectAccessible } from './axe'
import { advance, advanceServer, advanceUntilVisible, clockNow, clockedRequests, createProject, installClock, signIn, startBeats } from './support'

// The server's upgrade steps last longer than these walks (playwright.config.ts): each walk runs them itself
// (advanceServer), with the page on a clock it drives (installClock), so the beats are exact at any load.
const STATUS_PATH = /\/v1\/projects\/[a-z]{20}\/upgrade\/status$/
const LIVE_PATH = /\/platform\/projects\/[a-z]{20}\/live$/
/** An older gateway's test of the API server: its REST schema endpoint. */
const REST_PATH = /\/platform\/projects\/[a-z]{20}\/api\/rest$/
/** The upgrading screen's status poll, and the connecting screen's test of the API server. */
const UPGRADE_BEAT_MS = 5_000
const LIVE_BEAT_MS = 4_000

/** Consecutive requests exactly one beat apart on the page's clock. */
function expectBeat(starts: number[], beat: number) {
  for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1], `gap ${i} of ${starts.join(', ')}`).toBe(beat)
}

/**
 * The connecting screen, from its first beat on: two tests of the API server 4 s apart while it is offline (the screen
 * stays), then the server comes online and the page shows `opened` on the next beat, with no more time passing.
 * Answers the tests' times (the page's clock).
 */
async function connectsOnNextBeat(page: Page, request: APIRequestContext, ref: string, path: RegExp, connecting: Locator, opened: Locator) {
  const first = (await clockedRequests(page, path)).length
  await advance(page, 2 * LIVE_BEAT_MS)
  const offline = await clockedRequests(page, path)
  expect(offline.length).toBe(first + 2)
  expectBeat(offline, LIVE_BEAT_MS)
  // Still offline: the screen stays.
  await expect(connecting).toBeVisible()

  await request.post(`/dev/projects/${ref}/postgrest`, { data: { postgrestStatus: 'ONLINE' } })
  const onlineAt = await clockNow(page)
  await advance(page, LIVE_BEAT_MS)
  await expect(opened).toBeVisible()
  const tests = await clockedRequests(page, path)
  expect(tests.at(-1)! - onlineAt).toBeGreaterThan(0)
  expect(tests.at(-1)! - onlineAt).toBeLessThanOrEqual(LIVE_BEAT_MS)
  return tests
}

const STEP_LABELS = [
  'Prepare new server',
  'Launch upgraded server',
  'Detach storage from upgraded server',
  'Attach storage to current server',
  'Start data upgrade',
  'Complete data upgrade',
  'Detach storage from current server',
  'Optimize database',
]

test('an upgrade started from settings/infrastructure runs its eight steps to "Upgrade completed!"', async ({ page, request }) => {
  await installClock(page)
  await signIn(page)
  const project = await createProject(request, { organization_slug: 'demo-pro', name: 'E2E upgrade' })

  await page.goto(`/project/${project.ref}/settings/infrastructure`)
  await expect(page.getByText('Postgres 17 is available for this project.')).toBeVisible()
  await expectAccessible(page, 'settings/infrastructure', page.getByText('Postgres 17 is available for this project.'))
  await page.getByRole('button', { name: 'Upgrade Postgres' }).click()
  const dialog = page.getByRole('dialog', { name: 'Upgrade Postgres' })
  await expect(dialog.getByLabel('Target version')).toHaveValue('17')
  await expectAccessible(page, 'upgrade dialog', dialog.getByLabel('Target version'))
  await startBeats(page)
  await dialog.getByRole('button', { name: 'Confirm upgrade' }).click()

  await advanceUntilVisible(page, page.getByRole('heading', { level: 1, name: 'Upgrading project' }))
  const steps = page.getByRole('list', { name: 'Upgrade steps' }).getByRole('listitem')
  await expect(steps).toHaveCount(8)
  for (const [i, label] of STEP_LABELS.entries()) await expect(steps.nth(i)).toContainText(label)
  await expect(page.getByText(/Started at \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \(UTC\)/)).toBeVisible()
  await expect(page.getByText(/Running for \d+ s/)).toBeVisible()
  await expectAccessible(page, 'upgrading', page.getByText(/Running for \d+ s/))
  // The first step done, the beat after it shows it completed while a later one is in progress.
  expect((await advanceServer(request, project.ref)).outcome).toMatch(/^applied/)
  await advance(page, UPGRADE_BEAT_MS)
  await expect(steps.first()).toContainText('Completed')
  await expect(page.getByRole('heading', { level: 1, name: 'Upgrading project' })).toBeVisible()
  // The other seven steps, a beat after each; the beat after the last shows the upgrade completed.
  for (let step = 2; step <= 8; step++) {
    expect((await advanceServer(request, project.ref)).outcome).toMatch(/^applied/)
    await advance(page, UPGRADE_BEAT_MS)
  }
  await expect(page.getByRole('heading', { level: 1, name: 'Upgrade completed!' })).toBeVisible()
  await expect(page.getByText(/upgraded to Postgres 17/)).toBeVisible()
  await expectAccessible(page, 'upgrade completed', page.getByText(/upgraded to Postgres 17/))
  // The poll ran every 5 s on a fixed beat, counted from each read's start.
  const polls = await clockedRequests(page, STATUS_PATH)
  expect(polls.length).toBeGreaterThanOrEqual(8)
  expectBeat(polls, UPGRADE_BEAT_MS)
  await page.getByRole('button', { name: 'Return to project' }).click()
  await advanceUntilVisible(page, page.getByRole('heading', { level: 1, name: 'Infrastructure' }))
  await expect(page.getByText('Your project is on the latest Postgres version.')).toBeVisible()
  await expect(page.getByText('Postgres 17.4')).toBeVisible()
  await advance(page, 6_000)
  expect(await clockedRequests(page, STATUS_PATH)).toHaveLength(polls.length)
})

test('a failing upgrade shows the failure page with a prefilled Contact support link', async ({ page, request }) => {
  await installClock(page)
  await signIn(page)
  const project = await createProject(request, { organization_slug: 'demo-pro', name: 'E2E failing upgrade' })
  expect((await request.post(`/dev/projects/${project.ref}/fail-next-upgrade`, { data: { at_step: 3 } })).ok()).toBe(true)
  const started = await page.request.post(`/v1/projects/${project.ref}/upgrade`, { data: { target_version: '17' } })
  expect(started.status()).toBe(201)

  await page.goto(`/project/${project.ref}`)
  await expect(page.getByRole('heading', { level: 1, name: 'Upgrading project' })).toBeVisible()
  await startBeats(page)
  // Steps 1 and 2 pass, step 3 fails: the beat after it shows the failure.
  for (let step = 1; step <= 3; step++) expect((await advanceServer(request, project.ref)).outcome).toMatch(/^applied/)
  await advance(page, UPGRADE_BEAT_MS)
  await expect(page.getByRole('heading', { level: 1, name: 'We ran into an issue while upgrading your project' })).toBeVisible()
  await expect(page.getByText('Your project is back online and its data is unaffected', { exact: false })).toBeVisible()
  const initiated = page.locator('time')
  await expect(initiated).toHaveText(/^\d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \(UTC\)$/)
  await expect(initiated).toHaveAttribute('title', /local time/)
  await expect(page.getByText('2_volume_detachchment_from_upgraded_instance_failed')).toBeVisible()
  await expectAccessible(page, 'upgrade failed', page.getByText('2_volume_detachchment_from_upgraded_instance_failed'))

  const support = page.getByRole('link', { name: 'Contact support' })
  const href = new URL((await support.getAttribute('href'))!, 'http://x')
  expect(href.pathname).toBe('/support/new')
  expect(href.searchParams.get('category')).toBe('Database_unresponsive')
  expect(href.searchParams.get('ref')).toBe(project.ref)
  expect(href.searchParams.get('subject')).toBe('Upgrade failed for project')
  expect(href.searchParams.get('message')).toContain('Target Postgres version: 17')
  expect(href.searchParams.get('message')).toContain('Error: 2_volume_detachchment_from_upgraded_instance_failed')
  expect(href.searchParams.get('message')).toMatch(/Initiated at: \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \(UTC\)/)
  await support.click()
  await expect(page).toHaveURL(/\/support\/new\?/)
  await advanceUntilVisible(page, page.getByLabel('Subject'))
  await expect(page.getByLabel('Subject')).toHaveValue('Upgrade failed for project')
  await expect(page.getByLabel('Message')).toHaveValue(/Target Postgres version: 17/)
  await expectAccessible(page, 'support form (prefilled)', page.getByLabel('Message'))
})

test('a project whose API server goes offline shows "Connecting to project", tests /live every 4 s and recovers', async ({ page, request }) => {
  await installClock(page)
  await signIn(page)
  const project = await createProject(request, { organization_slug: 'demo-pro', name: 'E2E connecting' })
  await page.goto(`/project/${project.ref}/editor`)
  await expect(page.getByRole('heading', { level: 1, name: 'Table Editor' })).toBeVisible()

  await request.post(`/dev/projects/${project.ref}/postgrest`, { data: { postgrestStatus: 'OFFLINE' } })
  await page.reload()
  const connecting = page.getByRole('heading', { level: 1, name: 'Connecting to project' })
  await expect(connecting).toBeVisible()
  await expect(page.getByText('please wait 2 minutes before opening a support ticket', { exact: false })).toBeVisible()
  await startBeats(page)
  await expectAccessible(page, 'connecting', connecting)
  const live = await connectsOnNextBeat(page, request, project.ref, LIVE_PATH, connecting, page.getByRole('heading', { level: 1, name: 'Table Editor' }))
  expectBeat(live, LIVE_BEAT_MS)
  await advance(page, 5_000)
  expect(await clockedRequests(page, LIVE_PATH)).toHaveLength(live.length)
})

test('an older gateway (kps-v3.1.0) is tested with the REST schema endpoint', async ({ page, request }) => {
  await installClock(page)
  await signIn(page)
  const projects = (await (await page.request.get('/platform/projects')).json()) as Array<{ ref: string; name: string }>
  const legacy = projects.find((p) => p.name === 'Legacy Blog')!
  try {
    await page.goto(`/project/${legacy.ref}/api`)
    const connecting = page.getByRole('heading', { level: 1, name: 'Connecting to project' })
    await expect(connecting).toBeVisible()
    await startBeats(page)
    await connectsOnNextBeat(page, request, legacy.ref, REST_PATH, connecting, page.getByRole('heading', { level: 1, name: 'API Docs' }))
    // The older gateway is never asked for /live.
    expect(await clockedRequests(page, LIVE_PATH)).toHaveLength(0)
  } finally {
    await request.post(`/dev/projects/${legacy.ref}/postgrest`, { data: { postgrestStatus: 'OFFLINE' } })
  }
})

test('the usage badge appears when a metric is over its limit, and the banner when a warning is raised', async ({ page, request }) => {
  await signIn(page)
  const project = await createProject(request, { organization_slug: 'demo-free', name: 'E2E resources' })
  const badge = page.getByRole('link', { name: 'Exceeding usage limits' })
  try {
    await page.goto(`/project/${project.ref}/editor`)
    await expect(page.getByRole('heading', { level: 1, name: 'Table Editor' })).toBeVisible()
    await expect(badge).toBeHidden()
    await expect(page.getByText('Your project is running out of', { exact: false })).toBeHidden()

    // Free plan includes 5 GB of egress.
    await request.post(`/dev/projects/${project.ref}/usage`, { data: { metric: 'EGRESS', usage: 12 } })
    await request.post(`/dev/projects/${project.ref}/resource-warnings`, { data: { resource: 'cpu_exhaustion', level: 'warning' } })
    await page.goto(`/project/${project.ref}/editor`)
    await expect(badge).toBeVisible()
    await expect(badge).toHaveAttribute('href', '/org/demo-free/usage')
    const banner = page.getByRole('status').filter({ hasText: 'Your project is running out of CPU' })
    await expect(banner).toBeVisible()
    await expect(banner).toHaveAttribute('data-variant', 'warning')
    await expectAccessible(page, 'project page with usage badge and warning banner', banner)

    // Hidden on the infrastructure page unless read-only.
    await page.goto(`/project/${project.ref}/settings/infrastructure`)
    await expect(page.getByRole('heading', { level: 1, name: 'Infrastructure' })).toBeVisible()
    await expect(page.getByText('Your project is running out of CPU')).toBeHidden()

    // Critical: destructive.
    await request.post(`/dev/projects/${project.ref}/resource-warnings`, { data: { resource: 'disk_space_exhaustion', level: 'critical' } })
    await page.goto(`/project/${project.ref}/editor`)
    const critical = page.getByRole('alert').filter({ hasText: 'Your project has exhausted its' })
    await expect(critical).toBeVisible()
    await expect(critical).toHaveAttribute('data-variant', 'destructive')
    await expectAccessible(page, 'project page with critical banner', critical)

    // Read-only: shown on infrastructure, hidden on settings/database.
    await request.post(`/dev/projects/${project.ref}/read-only`, { data: { enabled: true } })
    await page.goto(`/project/${project.ref}/settings/infrastructure`)
    await expect(page.getByRole('alert').filter({ hasText: 'Your project is in read-only mode' })).toBeVisible()
    await expectAccessible(page, 'settings/infrastructure (read-only)', page.getByRole('alert').filter({ hasText: 'Your project is in read-only mode' }))
    await page.goto(`/project/${project.ref}/settings/database`)
    await expect(page.getByRole('heading', { level: 1, name: 'Database settings' })).toBeVisible()
    await expect(page.getByText('Your project is in read-only mode')).toBeHidden()

    await page.goto(`/project/${project.ref}`)
    await badge.click()
    await expect(page).toHaveURL(/\/org\/demo-free\/usage$/)
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
    await expectAccessible(page, 'organization usage', page.getByRole('heading', { level: 1 }).first())
  } finally {
    // The usage is the organization's: leave demo-free under its limits for the other walks.
    await request.post(`/dev/projects/${project.ref}/usage`, { data: { metric: 'EGRESS', usage: 0 } })
  }
})
