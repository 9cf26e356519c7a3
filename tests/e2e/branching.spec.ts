/**
 * Branching in Chromium (spec 4 and the branching room): enabling branching on Acme Storefront (connected to the demo's
 * notes-app) with a git branch the repository lacks, then with main; the branch built and watched until it passes; its
 * SQL Editor reads the seeded rows of its own database; and the broken-migrations repository's branch naming the
 * failing file, statement and Postgres error. Each page is checked with axe.
 */
import { expect, test } from '@playwright/test'
import { BranchList } from '../../src/contracts/branching'
import { RepositoryList } from '../../src/contracts/github'
import { expectAccessible } from './axe'
import { createProject, projectNamed, signIn } from './support'

// Each branch is a project database built step by step (LIFECYCLE_BRANCH_STEP_MS, 0.5 s by default), the first one
// from a fresh template: give the builds time.
const BUILD_MS = 60_000

test("enabling branching with a wrong git branch, then the right one; the branch comes up and its SQL Editor reads the seed's rows", async ({ page }) => {
  test.setTimeout(180_000)
  await signIn(page)
  const acme = await projectNamed(page, 'Acme Storefront')

  await page.goto(`/project/${acme.ref}/branches`)
  await expect(page.getByRole('heading', { level: 1, name: 'Branches' })).toBeVisible()
  await page.getByRole('button', { name: 'Enable branching' }).click()
  const dialog = page.getByRole('dialog', { name: 'Enable database branching' })
  await expect(dialog.getByText('demo-pro/notes-app')).toBeVisible()
  const gitBranch = dialog.getByLabel('Git branch')
  await expect(gitBranch).toBeEnabled()

  // A branch the repository does not have: the server's check says so.
  await gitBranch.fill('nope')
  // Leaving the field as a person does (Tab): the check runs on blur.
  await gitBranch.press('Tab')
  await expect(dialog.getByText('Unable to find branch from demo-pro/notes-app')).toBeVisible()
  const enable = dialog.getByRole('button', { name: 'Enable branching' })
  await expect(enable).toBeDisabled()
  await expectAccessible(page, 'Enable database branching, branch not found', dialog.getByText('Unable to find branch from demo-pro/notes-app'))

  // The right one: found, and the plan of what will run is shown before anything runs.
  await gitBranch.fill('main')
  await expect(dialog.getByText('Branch main found in demo-pro/notes-app')).toBeVisible()
  const plan = dialog.getByRole('region', { name: 'What will run' })
  // The plan compares the repository's migrations with those the project's database has recorded: after other
  // walks, that database may have to be opened again first (seconds on a busy machine).
  await expect(plan.getByText('20240108090000_create_notebooks.sql')).toBeVisible({ timeout: 20_000 })
  await expect(plan.getByText('Then the seed supabase/seed.sql runs once.')).toBeVisible()
  await expect(enable).toBeEnabled()
  await expectAccessible(page, 'Enable database branching, the plan', plan.getByText('20240108090000_create_notebooks.sql'))
  await enable.click()
  await expect(page.getByText('Successfully created new branch')).toBeVisible()
  await expect(dialog).toBeHidden()

  // The row is watched until the build ends.
  const row = page.getByRole('table', { name: 'Branches' }).getByRole('row').filter({ hasText: 'main' }).last()
  await expect(row.getByText('Migrations passed', { exact: true })).toBeVisible({ timeout: BUILD_MS })
  await expect(page.getByText('Watching the branches being built…')).toBeHidden()
  await row.getByRole('button', { name: /^Open branch / }).click()
  const detail = page.getByRole('region', { name: /^Branch / })
  await expect(detail.getByRole('table', { name: 'Migrations' }).getByText('supabase/seed.sql (seed)')).toBeVisible()
  await expectAccessible(page, 'Branches with a built branch', detail.getByRole('table', { name: 'Migrations' }).getByText('supabase/seed.sql (seed)'))

  // The branch project works like any project: its SQL Editor reads the seeded rows of its own database.
  const branches = await page.request.get(`/v1/projects/${acme.ref}/branches`)
  const branch = BranchList.parse(await branches.json()).find((b) => b.git_branch === 'main' && b.status === 'MIGRATIONS_PASSED')
  expect(branch).toBeTruthy()
  await page.goto(`/project/${branch!.project_ref}/sql/new`)
  const editor = page.getByLabel('SQL query')
  await expect(editor).toBeVisible({ timeout: BUILD_MS })
  await editor.fill('select n.title, b.title as notebook from public.notes n join public.notebooks b on b.id = n.notebook_id order by n.id;')
  await page.getByRole('button', { name: 'Run' }).click()
  const results = page.getByRole('table', { name: 'Query results' })
  await expect(results.getByText('Release checklist')).toBeVisible({ timeout: 20_000 })
  await expect(page.getByRole('status').filter({ hasText: '3 rows' })).toBeVisible()
})

test("the failing repository's branch names the file, the statement and the Postgres error", async ({ page }) => {
  test.setTimeout(180_000)
  await signIn(page)
  const parent = await createProject(page.request, { organization_slug: 'demo-pro', name: `Broken parent ${Date.now().toString(36)}` })
  const repositories = RepositoryList.parse(await (await page.request.get(`/platform/integrations/github/repositories?organization_id=${parent.organization_id}`)).json())
  const broken = repositories.repositories.find((r) => r.name.endsWith('/broken-migrations'))
  expect(broken).toBeTruthy()
  const connected = await page.request.post('/platform/integrations/github/connections', {
    data: { installation_id: broken!.installation_id, project_ref: parent.ref, repository_id: broken!.id },
  })
  expect(connected.status(), await connected.text()).toBe(201)
  const created = await page.request.post(`/v1/projects/${parent.ref}/branches`, { data: { branch_name: 'broken', git_branch: 'main' } })
  expect(created.status(), await created.text()).toBe(201)

  await page.goto(`/project/${parent.ref}/branches`)
  const row = page.getByRole('table', { name: 'Branches' }).getByRole('row').filter({ hasText: 'broken' })
  await expect(row.getByText('Migrations failed', { exact: true })).toBeVisible({ timeout: BUILD_MS })
  await row.getByRole('button', { name: 'Open branch broken' }).click()
  const migrations = page.getByRole('region', { name: 'Branch broken' }).getByRole('table', { name: 'Migrations' })
  const failed = migrations.getByRole('row').filter({ hasText: '20240202080000_add_todo_owner.sql' })
  // The results come with the branch's comparison, which opens both databases (a process each): on a busy machine,
  // seconds.
  await expect(failed.getByText('42P01: relation "public.todo" does not exist')).toBeVisible({ timeout: 20_000 })
  await expect(failed.getByText('alter table public.todo add column owner text')).toBeVisible()
  await expect(migrations.getByRole('row').filter({ hasText: '20240203080000_todos_index.sql' }).getByText('skipped')).toBeVisible()
  await expectAccessible(page, 'Branches with a failed branch', failed.getByText('42P01: relation "public.todo" does not exist'))
})
