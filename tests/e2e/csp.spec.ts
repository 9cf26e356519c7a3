import { expect, test, type Page } from '@playwright/test'
import { createProject, signIn } from './support'

/**
 * The built dashboard under the server's Content-Security-Policy: every screen renders and
 * the browser reports no violation (a blocked style or script would not always break a walk visibly).
 */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = []
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text))
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      void (window as unknown as { reportCspViolation(t: string): void }).reportCspViolation(
        `${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`,
      )
    })
  })
  page.on('console', (msg) => {
    if (/Content[- ]Security[- ]Policy/i.test(msg.text())) violations.push(msg.text())
  })
  return violations
}

test('the dashboard works under the Content-Security-Policy, with no violation on any screen', async ({ page, request }) => {
  const violations = await watchViolations(page)
  const first = await page.goto('/sign-in')
  expect(first?.headers()['content-security-policy']).toContain("frame-ancestors 'none'")
  await signIn(page)
  await expect(page.getByRole('heading').first()).toBeVisible()

  const project = await createProject(request, { organization_slug: 'demo-pro', name: 'CSP walk', status: 'ACTIVE_HEALTHY' })
  for (const path of [`/project/${project.ref}`, `/project/${project.ref}/settings/general`, `/project/${project.ref}/settings/api`, '/account/me']) {
    await page.goto(path)
    await expect(page.locator('#root')).not.toBeEmpty()
    await expect(page.getByRole('heading').first()).toBeVisible()
  }
  // The SQL Editor's code editor adds a style element: the document's nonce must let it in.
  await page.goto(`/project/${project.ref}/sql/new`)
  await page.getByRole('textbox', { name: 'SQL query' }).pressSequentially('select 1')
  await expect(page.getByRole('textbox', { name: 'SQL query' })).toHaveText('select 1')
  expect(violations).toEqual([])
})
