import { expect, test } from '@playwright/test'
import { expectAccessible } from './axe'
import { refOf, signIn } from './support'

test('a user added in Authentication is found by search, gets a magic link read in Emails; sign-ups turned off are refused', async ({ page }) => {
  // Six screens scanned by axe, and the project's database opened on first use: longer than one screen's walk.
  test.setTimeout(150_000)
  await signIn(page)
  const ref = await refOf(page, 'Acme Storefront')
  const email = `e2e-${Date.now().toString(36)}@example.com`

  // Users: the list (or its empty state) once the project's auth service has answered.
  await page.goto(`/project/${ref}/auth/users`)
  const addUser = page.getByRole('button', { name: 'Add user' })
  // The first call opens the project's database (a worker): give it time.
  await expect(addUser).toBeEnabled({ timeout: 20_000 })
  await expectAccessible(page, 'Authentication users', addUser)

  // Add user: created with a password, confirmed at once.
  await addUser.click()
  const add = page.getByRole('dialog', { name: 'Add user' })
  await add.getByLabel('Email address').fill(email)
  await add.getByLabel('User password').fill('correct horse battery')
  await expectAccessible(page, 'Add user dialog', add.getByRole('button', { name: 'Create user' }))
  await add.getByRole('button', { name: 'Create user' }).click()
  await expect(page.getByRole('status').filter({ hasText: `User ${email} created` })).toBeVisible()
  await expect(add).toBeHidden()

  // Found by search: the only row.
  const search = page.getByRole('search', { name: 'Search users' })
  await search.getByRole('searchbox').fill(email.toUpperCase())
  await search.getByRole('button', { name: 'Search' }).click()
  const users = page.getByRole('table', { name: 'Users' })
  await expect(users.getByRole('rowheader', { name: email })).toBeVisible()
  await expect(users.getByRole('row')).toHaveCount(2)
  await expect(page.getByRole('navigation', { name: 'Pages of users' })).toContainText('1–1 of 1 user')
  await expectAccessible(page, 'Authentication users, searched', users.getByRole('rowheader', { name: email }))

  // The user's panel: send a magic link.
  await page.getByRole('button', { name: `View user ${email}` }).click()
  const panel = page.getByRole('dialog', { name: 'User' })
  await expect(panel.getByLabel('User metadata')).toBeVisible()
  await expectAccessible(page, 'user panel', panel.getByRole('button', { name: 'Send magic link' }))
  await panel.getByRole('button', { name: 'Send magic link' }).click()
  await expect(panel.getByRole('status').filter({ hasText: `Magic link sent to ${email}` })).toBeVisible()
  await panel.getByRole('button', { name: 'Close' }).click()
  await expect(panel).toBeHidden()

  // Emails: the magic link, newest first, with its link on the project URL.
  await page.getByRole('link', { name: 'Emails', exact: true }).click()
  await expect(page).toHaveURL(new RegExp(`/project/${ref}/auth/emails$`))
  const mails = page.getByRole('list', { name: 'Messages' })
  const first = mails.getByRole('button').first()
  await expect(first).toContainText('Your Magic Link')
  await expect(first).toContainText(`E-mail to ${email}`)
  await first.click()
  const message = page.getByRole('article', { name: 'Your Magic Link' })
  const link = message.getByRole('link', { name: 'Open the link in this e-mail' })
  await expect(link).toHaveAttribute('href', new RegExp(`/p/${ref}/auth/v1/verify\\?token=[0-9a-f]+&type=magiclink`))
  await expectAccessible(page, 'Authentication emails', link)

  // The link signs the user in: the service redirects to the Site URL with a session in the fragment.
  const verify = await page.request.get((await link.getAttribute('href'))!, { maxRedirects: 0 })
  expect(verify.status()).toBe(303)
  expect(verify.headers().location).toMatch(/#access_token=ey/)

  // Settings › Authentication: sign-ups off, saved, and the service refuses a sign-up at once.
  await page.goto(`/project/${ref}/settings/auth`)
  const allow = page.getByRole('switch', { name: 'Allow new users to sign up' })
  await expect(allow).toBeChecked()
  await expectAccessible(page, 'Auth settings', allow)
  await allow.uncheck()
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Auth settings saved' })).toBeVisible()
  await expect(allow).not.toBeChecked()

  const keys = (await (await page.request.get(`/v1/projects/${ref}/api-keys`)).json()) as Array<{ name: string; api_key: string }>
  const anon = keys.find((k) => k.name === 'anon')!.api_key
  const signUp = () =>
    page.request.post(`/p/${ref}/auth/v1/signup`, { headers: { apikey: anon, 'content-type': 'application/json' }, data: { email: `new-${email}`, password: 'long enough' } })
  const refused = await signUp()
  expect(refused.status()).toBe(422)
  expect(await refused.json()).toMatchObject({ error_code: 'signup_disabled' })

  // Back on, as the other walks on this server expect it.
  await page.reload()
  await expect(allow).not.toBeChecked()
  await allow.check()
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Auth settings saved' })).toBeVisible()
  expect((await signUp()).status()).toBe(200)
})
