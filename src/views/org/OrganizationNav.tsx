/**
 * The organization's pages, one link each, above every organization page (General, Team, Integrations, Billing,
 * Usage): the way between them without going back to the projects list.
 */
import { Link } from 'wouter'
import { type OrgPage, href } from '../../href'
import { cx } from '../shell/ui'

export type OrganizationSection = OrgPage

const SECTIONS: Array<[OrganizationSection, string]> = [
  ['general', 'General'],
  ['team', 'Team'],
  ['integrations', 'Integrations'],
  ['billing', 'Billing'],
  ['usage', 'Usage'],
]

export function OrganizationNav({ slug, current }: { slug: string; current: OrganizationSection }) {
  return (
    <nav aria-label="Organization" className="border-b border-neutral-200 px-6 dark:border-neutral-800">
      <ul className="mx-auto flex max-w-5xl gap-1 text-sm">
        {SECTIONS.map(([section, label]) => (
          <li key={section}>
            <Link
              href={href.org(slug, section)}
              aria-current={section === current ? 'page' : undefined}
              className={cx(
                'inline-block border-b-2 px-3 py-2.5',
                section === current
                  ? 'border-neutral-900 font-medium text-neutral-900 dark:border-white dark:text-white'
                  : 'border-transparent text-neutral-600 hover:text-neutral-900 dark:text-neutral-300 dark:hover:text-white',
              )}
            >
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  )
}
