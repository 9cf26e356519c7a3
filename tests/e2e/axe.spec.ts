import { expect, test } from '@playwright/test'
import { blockingViolations, expectAccessible } from './axe'

// The helper itself: what a person's scan with the current axe-core finds, it finds — on markup written as the
// dashboard writes it (Tailwind 4's oklch() colours), with no server behind the page.

test('the scan finds white text on the old primary green (oklch, 3.65:1) and passes the primary token', async ({ page }) => {
  await page.setContent(`<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>Contrast</h1>
    <button style="background: oklch(59.6% 0.145 163.225); color: white; font-size: 14px">New project</button>
    <p style="color: oklch(0.708 0 0); font-size: 12px">abcdefghijklmnopqrst</p></main></body></html>`)
  const found = await blockingViolations(page)
  expect(found.join('\n')).toMatch(/^serious color-contrast:/)
  expect(found.join('\n')).toContain('button')
  expect(found.join('\n')).toContain('p')
})

test('the scan finds an accessible name that does not contain the visible label (label-content-name-mismatch)', async ({ page }) => {
  await page.setContent(`<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>Cards</h1>
    <a href="/project/abc" aria-label="Recipe Box">Recipe Box Healthy eu-west-2 abc</a></main></body></html>`)
  expect((await blockingViolations(page)).join('\n')).toContain('label-content-name-mismatch')
})

test('the screen is scanned once its transitions have ended, not while a label fades in', async ({ page }) => {
  // Dark grey text fading in from nothing: mid-fade it is too light on white; once in, 10:1.
  await page.setContent(`<!doctype html><html lang="en"><head><title>t</title><style>
    span { color: #444; opacity: 0.3; transition: opacity 1.5s linear } span.in { opacity: 1 }</style></head>
    <body><main><h1>Nav</h1><a href="/home"><span>Home</span></a></main></body></html>`)
  await page.locator('span').evaluate((span) => span.classList.add('in'))
  expect((await blockingViolations(page)).join('\n')).toMatch(/^serious color-contrast:/)
  await expectAccessible(page, 'nav fading in', page.getByRole('heading', { name: 'Nav' }))
  expect(await blockingViolations(page)).toEqual([])
})

test('the scan refuses a page with a frame of another origin, which it would not read', async ({ page }) => {
  await page.route('http://elsewhere.test/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><html lang="en"><title>f</title><p>framed</p></html>' }))
  await page.setContent(`<!doctype html><html lang="en"><head><title>t</title></head><body><main><h1>Framed</h1>
    <iframe title="elsewhere" src="http://elsewhere.test/"></iframe></main></body></html>`)
  await expect(page.frameLocator('iframe').getByText('framed')).toBeVisible()
  await expect(blockingViolations(page)).rejects.toThrow(/frames of the page's own origin only, not http:\/\/elsewhere\.test\//)
})
