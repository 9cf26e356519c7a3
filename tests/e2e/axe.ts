import AxeBuilder from '@axe-core/playwright'
import { expect, type Page } from '@playwright/test'

/** WCAG 2.0/2.1 A and AA rules, and axe's best practices (landmarks, one main, headings …). */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']
const BLOCKING = new Set(['serious', 'critical'])

/**
 * axe on the screen the walk has reached: any serious or critical violation fails the walk (softly, so one run
 * lists every screen's), each with its rule, its help text and the elements it found.
 */
export async function expectAccessible(page: Page, screen: string) {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze()
  const blocking = results.violations
    .filter((violation) => BLOCKING.has(violation.impact ?? ''))
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.help}\n${violation.nodes.map((node) => `    ${node.target.join(' ')}  ${node.failureSummary?.replace(/\n/g, ' ') ?? ''}`).join('\n')}`)
  expect.soft(blocking, `axe on ${screen}:\n${blocking.join('\n')}`).toEqual([])
}
