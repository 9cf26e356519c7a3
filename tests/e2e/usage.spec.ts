import { expect as baseExpect, test, type Page } from '@playwright/test'
import { ProjectList } from '../../src/contracts/projects'
import { expectAccessible } from './axe'
import { DEMO_PASSWORD } from './support'

// Generous waits: this walk opens a project database and reads figures on a machine that may be busy.
const expect = baseExpect.configure({ timeout: 30_000 })

async function recipeBox(page: Page) {
  const projects = ProjectList.parse(await (await page.request.get('/platform/projects')).json())
  const project = projects.find((p) => p.name === 'Recipe Box')
  expect(project).toBeTruthy()
  const settings = (await (await page.request.get(`/platform/props/project/${project!.ref}/settings`)).json()) as {
    services: Array<{ service_api_keys: Array<{ tags: string; api_key: string }> }>
  }
  const anon = settings.services[0].service_api_keys.find((k) => k.tags === 'anon')?.api_key
  expect(anon).toBeTruthy()
  return { ref: project!.ref, anon: anon! }
}

test('REST calls to a demo project show in the org usage (filtered by project), the Reports chart and the Logs list', async ({ page }) => {
  test.setTimeout(420_000)
  // Run alone on a fresh data folder, this walk comes while the server still prepares the project database
  // template after its start (CPU-bound): wait for the first page before the shared sign-in's own wait.
  await page.goto('/sign-in')
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome back' })).toBeVisible({ timeout: 60_000 })
  await page.getByLabel(/e-?mail/i).fill('owner@example.com')
  await page.getByLabel(/password/i).fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: /sign in/i }).click()
  await expect(page).toHaveURL(/\/projects$/, { timeout: 30_000 })
  const { ref, anon } = await recipeBox(page)
  const marker = `e2e${Date.now().toString(36)}`
  const rest = (path: string) => page.request.get(`/p/${ref}/rest/v1/${path}`, { headers: { apikey: anon } })
  // The first call opens the project's database (its demo schema on first use).
  expect((await rest('recipes?select=title&limit=3')).status()).toBe(200)
  let bytes = 0
  for (let i = 0; i < 3; i++) {
    const answer = await rest(`recipes?select=title,servings&title=neq.${marker}`)
    expect(answer.status()).toBe(200)
    bytes += (await answer.body()).length
  }
  expect((await rest(`${marker}_missing`)).status()).toBe(404)
  expect(bytes).toBeGreaterThan(0)

  // Usage: every project of Demo Free Org, then Recipe Box alone.
  await page.goto('/org/demo-free/usage')
  await expect(page.getByRole('heading', { level: 1, name: 'Usage' })).toBeVisible()
  const table = page.getByRole('table', { name: 'Usage per metric' })
  await expect(table.getByRole('rowheader', { name: 'Egress' })).toBeVisible()
  await expect(table.getByRole('row')).toHaveCount(8)
  await expectAccessible(page, 'organization usage', table.getByRole('rowheader', { name: 'Egress' }))
  await page.getByRole('combobox', { name: 'Project' }).selectOption({ label: 'Recipe Box' })
  await expect(page).toHaveURL(/\/org\/demo-free\/usage$/)
  await expect(table.getByRole('rowheader', { name: 'Egress' })).toBeVisible()
  const today = new Date().toISOString().slice(0, 10)
  const egress = page.getByRole('region', { name: 'Egress' })
  await expect(egress.getByRole('img', { name: /^Egress per day from .*: highest (?!0 B)/ })).toBeVisible()
  await egress.getByText('Show as table').click()
  const todayEgress = egress.getByRole('row', { name: new RegExp(`^${today}`) }).getByRole('cell')
  await expect(todayEgress).not.toHaveText('0 B')
  await expect(page.getByRole('region', { name: 'Database size' }).getByRole('img', { name: /^Database size measured per day from .*: highest (?!0 B)/ })).toBeVisible()
  await expectAccessible(page, 'organization usage of one project', page.getByRole('region', { name: 'Database size' }).getByRole('img', { name: /^Database size measured per day from .*: highest (?!0 B)/ }))

  // Reports: the requests of today in the chart (at least the 5 made here).
  await page.goto(`/project/${ref}/reports`)
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible()
  const requestsChart = page.getByRole('img', { name: /^REST requests per day from/ })
  await expect(requestsChart).toBeVisible()
  await page.getByRole('figure', { name: 'REST requests per day' }).getByText('Show as table').click()
  const todayRequests = Number((await page.getByRole('table', { name: 'REST requests per day (table)' }).getByRole('row', { name: new RegExp(`^${today}`) }).getByRole('cell').textContent())?.replace(/,/g, ''))
  expect(todayRequests).toBeGreaterThanOrEqual(5)
  await expect(page.getByRole('img', { name: /^Mean response time per day from .*: highest/ })).toBeVisible()
  await expectAccessible(page, 'Reports', page.getByRole('img', { name: /^Mean response time per day from .*: highest/ }))

  // Logs: newest first, the 404 under 4xx, and a request made now after Refresh.
  await page.goto(`/project/${ref}/logs/explorer`)
  const log = page.getByRole('table', { name: 'Requests' })
  await expect(log.getByRole('row').nth(1)).toContainText(`/rest/v1/${marker}_missing`)
  await expect(log.getByText(`/rest/v1/recipes?select=title,servings&title=neq.${marker}`)).toHaveCount(3)
  await expect(log).not.toContainText(anon)
  await expectAccessible(page, 'Logs', log.getByRole('row').nth(1))
  await page.getByRole('combobox', { name: 'Status' }).selectOption('4xx')
  // Every row of the filtered answer once it has replaced the unfiltered rows (read as one, not row by row: the rows
  // change under a reader while the answer arrives), the 404 among them.
  const statuses = () => log.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.querySelectorAll('td')[1]?.textContent?.trim() ?? ''))
  await expect.poll(async () => (await statuses()).every((status) => /^4\d\d$/.test(status))).toBe(true)
  expect(await statuses()).toContain('404')
  await page.getByRole('combobox', { name: 'Status' }).selectOption('all')
  expect((await rest(`recipes?select=title&title=eq.${marker}-after`)).status()).toBe(200)
  await page.getByRole('button', { name: 'Refresh' }).click()
  await expect(log.getByRole('row').nth(1)).toContainText(`title=eq.${marker}-after`)
})
