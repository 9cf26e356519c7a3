/**
 * Every address the dashboard links to, built in one place: machines and views import it, so a page that moves
 * moves here once. No React and no view here (machines import it); the route table (src/views/routes) matches the
 * same paths.
 */

/** The sub-pages of an organization (/org/{slug}/{page}). */
export type OrgPage = 'general' | 'team' | 'billing' | 'usage' | 'integrations'

/** The URL parameter that opens the AI settings dialog over any project page (a link, a reload, the command menu). */
export const AI_SETTINGS_PARAM = 'aiSettings'

/**
 * The URL parameter that opens the 'Enable database branching' dialog over any project page (the command menu, the
 * project home, a link or a reload), hosted by the project layout.
 */
export const BRANCHING_PARAM = 'enableBranching'

/** The SQL editor's section: the production build opens a new query, the others the first snippet. */
export function sqlSection(flags: { isProduction: boolean }) {
  return flags.isProduction ? 'sql/new' : 'sql/1'
}

export const href = {
  projects: () => '/projects',
  account: () => '/account/me',
  signIn: () => '/sign-in',
  /** The person's support tickets. */
  supportTickets: () => '/support',

  /** A page of a project by its section, the path after /project/{ref}/ ('' for project home). */
  project: (ref: string, section = '') => {
    const rest = section.replace(/^\/+/, '')
    return rest === '' ? `/project/${ref}` : `/project/${ref}/${rest}`
  },
  /** Settings › Add-ons with the Point in Time Recovery panel open. */
  pitr: (ref: string) => `/project/${ref}/settings/addons?panel=pitr`,
  /** Settings › Infrastructure at one of its sections. */
  infrastructure: (ref: string, anchor: string) => `/project/${ref}/settings/infrastructure#${anchor}`,
  /** The Table Editor at a table (and a page of its rows after the first). */
  tableEditor: (ref: string, table: string | null, page = 0) => {
    if (table === null) return `/project/${ref}/editor`
    const params = new URLSearchParams({ table })
    if (page > 0) params.set('page', String(page + 1))
    return `/project/${ref}/editor?${params.toString()}`
  },

  org: (slug: string, page: OrgPage) => `/org/${slug}/${page}`,
  /** Billing with the subscription plans open. */
  orgPlans: (slug: string) => `/org/${slug}/billing?panel=subscriptionPlan`,
  newProject: (slug: string) => `/new/${slug}`,

  /** /support/new prefilled from the spec's query parameters (category, ref, subject, message). */
  support: (fields: { category: string; ref: string; subject: string; message: string }) =>
    `/support/new?${new URLSearchParams(fields).toString()}`,

  /** The current page's address with the AI settings dialog open. */
  aiSettings: (path: string) => `${path}?${AI_SETTINGS_PARAM}=open`,
  /** The current page's address with the branching dialog open. */
  branching: (path: string) => `${path}?${BRANCHING_PARAM}=open`,
  /** The current page's address with the API docs panel open at its introduction. */
  apiDocsPanel: (path: string) => `${path}?docs=introduction`,
}
