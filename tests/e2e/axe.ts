import AxeBuilder from '@axe-core/playwright'
import { expect, type Locator, type Page } from '@playwright/test'
import axe from 'axe-core'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * The engine the scan runs: the project's own axe-core (4.14), not the copy @axe-core/playwright 4.13 bundles (the
 * newest release of the wrapper that installs on Node 20). 4.13's engine reads no oklch() colour — every colour
 * Tailwind 4 writes — so its contrast rule only ever answered "incomplete", never a violation.
 */
const AXE_ENGINE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/**
 * The engine on the page's real timers: a walk that checks polling beats pauses the page's clock (support.ts
 * installClock, which keeps the real timers first), and axe waits on timers between its steps, so on the paused
 * clock a scan would never end. Elsewhere the page's own timers are the real ones.
 */
const AXE_SOURCE = `(function (setTimeout, clearTimeout, setImmediate) {
${AXE_ENGINE}
}).call(window, ...(function (timers) {
  return [timers.setTimeout, timers.clearTimeout, undefined]
})(window.__realTimers || { setTimeout: window.setTimeout.bind(window), clearTimeout: window.clearTimeout.bind(window) }))`

/** Every WCAG 2.x level A and AA success criterion axe checks. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/**
 * The rules run, by id rather than by tag: a tag selection leaves out the rules axe still marks experimental, and
 * some WCAG rules are (label-content-name-mismatch was until 4.14, p-as-heading, td-has-header …). Plus axe's best
 * practices (landmarks, one main, headings …) that are not experimental.
 */
export const RULES = [
  ...axe.getRules(WCAG_TAGS).map((rule) => rule.ruleId),
  ...axe
    .getRules(['best-practice'])
    .filter((rule) => !rule.tags.includes('experimental') && !rule.tags.some((tag) => WCAG_TAGS.includes(tag)))
    .map((rule) => rule.ruleId),
]
const BLOCKING = new Set(['serious', 'critical'])

/**
 * axe on the screen the walk has reached, once `content` (what the screen shows when its data has rendered, a role
 * and name) is visible — never after a fixed wait. Any serious or critical violation fails the walk (softly, so one
 * run lists every screen's), each with its rule, its help text and the elements it found.
 */
export async function expectAccessible(page: Page, screen: string, content: Locator) {
  await expect(content, `${screen}: its content before the scan`).toBeVisible()
  await transitionsSettled(page)
  const blocking = await blockingViolations(page)
  expect.soft(blocking, `axe on ${screen}:\n${blocking.join('\n')}`).toEqual([])
}

/**
 * Waits for the page's finite CSS transitions and animations to end: the scan reads computed styles, and a label
 * caught fading in (the nav's, when the pointer rests on the sidebar) has a contrast it never keeps. Endless ones (a
 * spinner) are left running.
 */
async function transitionsSettled(page: Page) {
  await page.evaluate(() => {
    // The real timers where a walk drives the page's clock (support.ts installClock); a paused animation never ends.
    const timers = (window as unknown as { __realTimers?: { setTimeout: typeof setTimeout } }).__realTimers ?? window
    const finite = document.getAnimations().filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
    return Promise.race([
      Promise.all(finite.map((animation) => animation.finished.catch(() => undefined))),
      new Promise((resolve) => timers.setTimeout(resolve, 5_000)),
    ])
  })
}

/**
 * The serious and critical violations on the page as it is now, one line of text each (with its elements).
 *
 * The scan runs in the page itself (the wrapper's legacy mode) and reports its violations only. By default the wrapper
 * runs axe in pieces, opens a blank page in the context to put the pieces together there, and has every rule report
 * the elements it passed too: the walks' 138 scans took 119 s of their time in a run, and 46 s this way, finding the
 * same violations (the two ways compared on four screens). The blank page is for frames of other origins, which the
 * dashboard has none of: a scan refuses a page that has one instead of leaving it out unseen.
 */
export async function blockingViolations(page: Page) {
  const main = page.mainFrame()
  const foreign = page.frames().filter((frame) => frame !== main && !sameOrigin(frame.url(), main.url()))
  if (foreign.length > 0) throw new Error(`the scan reads frames of the page's own origin only, not ${foreign.map((frame) => frame.url()).join(', ')}`)
  const results = await new AxeBuilder({ page, axeSource: AXE_SOURCE })
    // Before withRules, which adds to the options where this one replaces them.
    .options({ resultTypes: ['violations'] })
    .withRules(RULES)
    .setLegacyMode(true)
    .analyze()
  return results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ''))
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.help}\n${violation.nodes.map((node) => `    ${node.target.join(' ')}  ${node.failureSummary?.replace(/\n/g, ' ') ?? ''}`).join('\n')}`)
}

/** A frame not yet navigated (about:blank, about:srcdoc) has its parent's origin. */
function sameOrigin(frameUrl: string, pageUrl: string) {
  return frameUrl.startsWith('about:') || new URL(frameUrl).origin === new URL(pageUrl).origin
}
