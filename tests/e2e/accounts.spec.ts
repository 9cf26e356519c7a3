import { expect, test } from '@playwright/test'
import { FAST_COMING_UP_MS } from '../../playwright.config'
import { expectAccessible } from './axe'
import { signIn } from './support'

const PERMISSION_TEXT = 'You need additional permissions to view API keys'

test('a new person signs up, creates a project that comes up, invites the Developer, who accepts and sees the restricted view', async ({ page, browser }) => {
  test.setTimeout(120_000)
  const stamp = Date.now().toString(36)
  const email = `newcomer-${stamp}@example.com`
  const slug = `newcomer-${stamp}`

  // Sign up, from the sign-in page's link.
  await page.goto('/sign-in')
  await page.getByRole('link', { name: 'Sign up' }).click()
  await expect(page).toHaveURL(/\/sign-up$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Get started' })).toBeVisible()
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill('short')
  await page.getByRole('button', { name: 'Sign up' }).click()
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible()
  await expectAccessible(page, 'sign-up (field error)', page.getByText('Password must be at least 8 characters'))
  // A taken e-mail is said so, and what was typed stays.
  await page.getByLabel('Email').fill('owner@example.com')
  await page.getByLabel('Password').fill('a long enough password')
  await page.getByRole('button', { name: 'Sign up' }).click()
  await expect(page.getByRole('alert')).toHaveText('An account with this e-mail address already exists. Sign in instead.')
  await expect(page.getByLabel('Email')).toHaveValue('owner@example.com')
  await page.getByLabel('Email').fill(email)
  await page.getByRole('button', { name: 'Sign up' }).click()

  // Signed in, on the project list with the personal organization (the password's slow hash takes a while).
  await expect(page).toHaveURL(/\/projects$/, { timeout: 20_000 })
  const orgHeading = page.getByRole('heading', { level: 2, name: `${slug}'s Org` })
  await expect(orgHeading).toBeVisible()
  await expect(page.getByText('No projects found in this organization')).toBeVisible()
  await expectAccessible(page, 'projects (new person)', page.getByText('No projects found in this organization'))

  // The profile on /account/me.
  await page.goto('/account/me')
  await expect(page.getByLabel('Username')).toHaveValue(slug, { timeout: 20_000 })
  await expect(page.getByText(email, { exact: true })).toBeVisible()
  await page.getByLabel('Username').fill(`new ${stamp}`)
  await expect(page.getByText('Username must be 3 to 40 characters: letters, digits, dots, dashes or underscores')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled()
  await page.getByLabel('Username').fill(`new.${stamp}`)
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Profile saved' })).toBeVisible()
  await expectAccessible(page, 'account (profile saved)', page.getByRole('status').filter({ hasText: 'Profile saved' }))

  // A project in the new organization, through the building screen.
  await page.goto(`/new/${slug}`)
  const name = `Newcomer ${stamp}`
  await page.getByLabel('Project name').fill(name)
  await page.getByLabel('Database password').fill('Kitchen-Drawer-42')
  await page.getByRole('button', { name: 'Create new project' }).click()
  await expect(page).toHaveURL(/\/project\/[a-z]{20}/)
  const ref = /\/project\/([a-z]{20})/.exec(page.url())![1]
  const building = page.getByRole('heading', { name: 'Setting up project' })
  await expect(building).toBeVisible()
  await expectAccessible(page, 'building (new person)', building)
  await expect(building).toBeHidden({ timeout: FAST_COMING_UP_MS + 20_000 })
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()

  // Invite the Developer.
  await page.goto(`/org/${slug}/team`)
  await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible({ timeout: 20_000 })
  await expect(page.getByRole('cell', { name: new RegExp(`^new\\.${stamp}`) })).toBeVisible()
  await expectAccessible(page, 'team (Owner)', page.getByRole('cell', { name: new RegExp(`^new\\.${stamp}`) }))
  await page.getByRole('button', { name: 'Invite member' }).click()
  const dialog = page.getByRole('dialog', { name: 'Invite a member' })
  await dialog.getByLabel('Email address').fill('developer@example.com')
  await dialog.getByLabel('Role').selectOption('Developer')
  await expectAccessible(page, 'invite dialog', dialog.getByLabel('Email address'))
  await dialog.getByRole('button', { name: 'Send invitation' }).click()
  const link = await dialog.getByLabel('Invitation link').inputValue()
  expect(link).toMatch(/\/join\?token=\d+\.[A-Za-z0-9_-]{43}$/)
  await dialog.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByRole('region', { name: 'Pending invitations' }).getByText('developer@example.com')).toBeVisible()

  // The Developer signs in and accepts.
  const developerContext = await browser.newContext()
  const developer = await developerContext.newPage()
  try {
    await signIn(developer, 'developer@example.com')
    await developer.goto(new URL(link).pathname + new URL(link).search)
    await expect(developer.getByRole('heading', { level: 1, name: 'Join organization' })).toBeVisible({ timeout: 20_000 })
    await expectAccessible(developer, 'join', developer.getByRole('heading', { level: 1, name: 'Join organization' }))
    await developer.getByRole('button', { name: 'Accept invitation' }).click()
    await expect(developer.getByRole('status').filter({ hasText: `You joined ${slug}'s Org as Developer.` })).toBeVisible()

    // The restricted view: the new organization's project is listed, its secrets are not shown, the team is read-only.
    await developer.getByRole('link', { name: 'Go to projects' }).click()
    await expect(developer.getByRole('heading', { level: 2, name: `${slug}'s Org` })).toBeVisible()
    await developer.goto(`/project/${ref}/settings/api`)
    await expect(developer.getByRole('group', { name: 'service_role key' }).getByText(PERMISSION_TEXT)).toBeVisible()
    await expect(developer.getByRole('group', { name: 'service_role key' }).getByRole('button', { name: 'Reveal' })).toBeDisabled()
    await developer.goto(`/org/${slug}/team`)
    await expect(developer.getByText('only an Owner or Administrator can invite members or change roles')).toBeVisible()
    await expect(developer.getByRole('button', { name: 'Invite member' })).toHaveCount(0)
    await expect(developer.getByRole('combobox')).toHaveCount(0)
    await expectAccessible(developer, 'team (Developer)', developer.getByText('only an Owner or Administrator can invite members or change roles'))

    // The invitation is used: opening the link again says so.
    await developer.goto(new URL(link).pathname + new URL(link).search)
    await developer.getByRole('button', { name: 'Accept invitation' }).click()
    await expect(developer.getByRole('alert')).toHaveText('This invitation has already been used')
  } finally {
    await developerContext.close()
  }

  // The Owner sees the new member, makes them Read-only, is offered no way to demote or remove the last Owner (the
  // server's refusal of it is in tests/server), then removes the member.
  await page.reload()
  const devRole = page.getByLabel('Role of developer')
  await expect(devRole).toHaveValue('Developer')
  await devRole.selectOption('Read-only')
  await expect(devRole).toHaveValue('Read-only')
  await expect(page.getByLabel(`Role of new.${stamp}`)).toHaveCount(0)
  await expect(page.getByRole('row', { name: new RegExp(`new\\.${stamp}`) })).toContainText('Owner')
  await expect(page.getByRole('button', { name: `Remove new.${stamp}` })).toHaveCount(0)
  await page.getByRole('button', { name: 'Remove developer' }).click()
  await page.getByRole('dialog', { name: 'Remove member' }).getByRole('button', { name: 'Remove member' }).click()
  await expect(page.getByLabel('Role of developer')).toHaveCount(0)
})
