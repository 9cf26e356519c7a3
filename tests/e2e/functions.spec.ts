import { createHash } from 'node:crypto'
import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { refOf, signIn } from './support'

test('a function deployed from a template answers the Test panel, shows its call in the logs, and takes a new version from the code editor', async ({ page }) => {
  // The first call starts a Deno worker (a cold start), and a new version another.
  test.setTimeout(150_000)
  await signIn(page)
  const ref = await refOf(page, 'Recipe Box')
  const slug = `e2e-hello-${Date.now().toString(36)}`

  // From the list, 'Deploy a new function' with the Hello World template.
  await page.goto(`/project/${ref}/functions`)
  await expect(page.getByRole('table', { name: 'Functions' })).toBeVisible()
  await page.getByRole('link', { name: 'Deploy a new function' }).click()
  const name = page.getByLabel('Function name')
  await expect(name).toBeVisible()
  await expectAccessible(page, 'Deploy a new function', name)
  await name.fill(slug)
  await expect(page.getByRole('textbox', { name: 'Code of index.ts' })).toContainText(/Deno\.serve/)
  await page.getByRole('button', { name: 'Deploy function' }).click()

  // Its page: the URL under the project's URL, version 1, verify_jwt on.
  await expect(page).toHaveURL(new RegExp(`/project/${ref}/functions/${slug}$`))
  const url = page.getByText(new RegExp(`/p/${ref}/functions/v1/${slug}$`))
  await expect(url).toBeVisible()
  await expect(page.getByRole('switch', { name: 'Enforce JWT verification' })).toHaveAttribute('aria-checked', 'true')

  // The Test panel: POST with the anon key; the answer's status, body and time.
  const panel = page.getByRole('region', { name: 'Test' })
  const send = panel.getByRole('button', { name: 'Send request' })
  // The panel loads the keys and the project's users: the first call to a fresh server's auth service opens its tables.
  await expect(send).toBeEnabled({ timeout: 15_000 })
  await expectAccessible(page, 'function overview with the Test panel', send)
  await send.click()
  const response = panel.getByRole('region', { name: 'Response' })
  await expect(response.getByRole('status')).toHaveText(/^200 OK · \d+ ms$/, { timeout: 60_000 })
  await expect(response.getByLabel('Response body')).toHaveText('{"message":"Hello Functions!"}')
  await expectAccessible(page, 'Test panel with an answer', response.getByLabel('Response body'))

  // The logs: the call with its status, and the function's console line; the filter narrows them.
  await page.getByRole('navigation', { name: 'Function' }).getByRole('link', { name: 'Logs' }).click()
  const entries = page.getByRole('table', { name: 'Log entries' })
  await expect(entries.getByText(`POST | 200 | /${slug}`)).toBeVisible({ timeout: 10_000 })
  await expect(entries.getByText('greeting Functions')).toBeVisible()
  await expectAccessible(page, 'function logs', entries.getByText('greeting Functions'))
  await page.getByLabel('Search messages').fill('greeting')
  await expect(entries.getByRole('row')).toHaveCount(2)

  // The code: edited in the browser and deployed as version 2, which the Test panel then gets its answer from.
  await page.getByRole('navigation', { name: 'Function' }).getByRole('link', { name: 'Code' }).click()
  await expect(page.getByRole('heading', { name: 'Files of version 1' })).toBeVisible()
  await expectAccessible(page, 'function code', page.getByLabel('Code of index.ts'))
  await page.getByRole('button', { name: 'Edit' }).click()
  const code = page.getByLabel('Code of index.ts')
  await code.fill((await code.inputValue()).replace('Hello ${name}!', 'Bonjour ${name}!'))
  await page.getByRole('button', { name: 'Deploy new version' }).click()
  await expect(page.getByRole('heading', { name: 'Files of version 2' })).toBeVisible()
  await page.getByRole('navigation', { name: 'Function' }).getByRole('link', { name: 'Overview' }).click()
  await page.getByRole('region', { name: 'Test' }).getByRole('button', { name: 'Send request' }).click()
  await expect(page.getByLabel('Response body')).toHaveText('{"message":"Bonjour Functions!"}', { timeout: 60_000 })
})

test('Edge Function Secrets lists digests only, adds several at once and deletes one', async ({ page }) => {
  await signIn(page)
  const ref = await refOf(page, 'Recipe Box')
  await page.goto(`/project/${ref}/functions/secrets`)
  await expect(page.getByRole('heading', { level: 1, name: 'Edge Function Secrets' })).toBeVisible()
  const save = page.getByRole('button', { name: 'Save secrets' })
  await expect(save).toBeVisible()
  await page.getByLabel('Name of secret 1').fill('E2E_FIRST')
  await page.getByLabel('Value of secret 1').fill('first value')
  await page.getByRole('button', { name: 'Add another' }).click()
  await page.getByLabel('Name of secret 2').fill('E2E_SECOND')
  await page.getByLabel('Value of secret 2').fill('second value')
  await save.click()
  const table = page.getByRole('table', { name: 'Secrets' })
  await expect(table.getByRole('rowheader', { name: 'E2E_SECOND' })).toBeVisible()
  // The SHA-256 digest of the value, never the value.
  await expect(table.getByRole('row', { name: /E2E_FIRST/ })).toContainText(createHash('sha256').update('first value').digest('hex'))
  await expect(page.getByText('first value')).toHaveCount(0)
  await expectAccessible(page, 'Edge Function Secrets', table.getByRole('rowheader', { name: 'E2E_SECOND' }))
  await page.getByRole('button', { name: 'Delete E2E_FIRST' }).click()
  const confirm = page.getByRole('alertdialog', { name: 'Delete the secret E2E_FIRST?' })
  await expectAccessible(page, 'delete a secret', confirm)
  await confirm.getByRole('button', { name: 'Delete secret' }).click()
  await expect(table.getByRole('rowheader', { name: 'E2E_FIRST' })).toHaveCount(0)
  await expect(table.getByRole('rowheader', { name: 'E2E_SECOND' })).toBeVisible()
})

test("the Test panel sends as a signed-in user the function sees; the overview charts the calls; the logs tail new calls while open", async ({ page }) => {
  // A cold start for the new function.
  test.setTimeout(120_000)
  await signIn(page)
  const ref = await refOf(page, 'Recipe Box')
  const slug = `e2e-whoami-${Date.now().toString(36)}`
  const email = `e2e-tester-${Date.now().toString(36)}@example.com`

  // A user of the project's auth, and a function that answers who its caller is (the gateway has checked the JWT).
  const created = await page.request.post(`/platform/auth/${ref}/users`, { data: { email, password: 'e2e-password-1', email_confirm: true } })
  expect(created.status()).toBe(200)
  const fn = await page.request.post(`/v1/projects/${ref}/functions`, {
    data: {
      slug,
      name: slug,
      verify_jwt: true,
      body: `Deno.serve((req) => {
  const token = (req.headers.get('authorization') ?? '').replace(/^Bearer /, '')
  const claims = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')))
  console.log('caller ' + claims.role)
  return Response.json({ role: claims.role, email: claims.email ?? null })
})`,
    },
  })
  expect(fn.status()).toBe(201)

  // The Test panel as that user.
  await page.goto(`/project/${ref}/functions/${slug}`)
  const panel = page.getByRole('region', { name: 'Test' })
  await panel.getByLabel('Role').selectOption('user')
  const userSelect = panel.getByLabel('User')
  await userSelect.selectOption({ label: email })
  await expectAccessible(page, 'Test panel as a user', userSelect)
  await panel.getByRole('button', { name: 'Send request' }).click()
  const response = panel.getByRole('region', { name: 'Response' })
  await expect(response.getByRole('status')).toHaveText(/^200 OK · \d+ ms$/, { timeout: 60_000 })
  await expect(response.getByLabel('Response body')).toHaveText(JSON.stringify({ role: 'authenticated', email }))

  // The overview's chart counts the call once the log has it.
  const chart = page.getByRole('figure', { name: 'Invocations per minute' })
  await expect(chart.getByRole('img')).toHaveAccessibleName(/: 1 calls, 0 failed/, { timeout: 10_000 })
  await expectAccessible(page, 'function overview with the invocations chart', chart.getByRole('img'))

  // The logs, left open: a call made elsewhere appears without a refresh.
  await page.getByRole('navigation', { name: 'Function' }).getByRole('link', { name: 'Logs' }).click()
  const entries = page.getByRole('table', { name: 'Log entries' })
  await expect(entries.getByText(`POST | 200 | /${slug}`)).toHaveCount(1)
  await expectAccessible(page, 'function logs tailing', entries.getByText(`POST | 200 | /${slug}`))
  const api = await page.request.get(`/platform/props/project/${ref}/api`)
  const anon = ((await api.json()) as { autoApiService: { defaultApiKey: string } }).autoApiService.defaultApiKey
  const call = await page.request.get(`/p/${ref}/functions/v1/${slug}`, { headers: { apikey: anon, authorization: `Bearer ${anon}` } })
  expect(await call.json()).toEqual({ role: 'anon', email: null })
  await expect(entries.getByText(`GET | 200 | /${slug}`)).toBeVisible({ timeout: 10_000 })
  await expect(entries.getByText('caller anon')).toBeVisible()
})
