/**
 * Which full-page state a project route shows (spec section 4, "Layout rules"). Pure, so every rule and
 * exception can be pinned by a table test; the project status machine uses it as its routing guard.
 */
import type { PostgrestStatus, ProjectStatus } from '../src/contracts/common'

export type ProjectPage = 'normal' | 'paused' | 'upgrading' | 'pausing' | 'connecting' | 'restoring' | 'building'

/** The part of a project route after /project/{ref}/, without query or hash: '' for home, 'settings/api', … */
type ProjectSection = string

const isSettings = (section: ProjectSection) => section === 'settings' || section.startsWith('settings/')
const isVault = (section: ProjectSection) => section === 'settings/vault'
const isBranches = (section: ProjectSection) => section === 'branches' || section.startsWith('branches/')
const isScheduledBackups = (section: ProjectSection) => section === 'database/backups/scheduled'

/** Pages that keep working while the API server is offline. */
const OFFLINE_EXEMPT = new Set(['settings/general', 'settings/database', 'settings/infrastructure', 'settings/addons'])
const isReports = (section: ProjectSection) => section === 'reports' || section.startsWith('reports/')

/** Restoring and building take over every page but settings (except vault), branches and scheduled backups. */
const needsDatabase = (section: ProjectSection) =>
  !((isSettings(section) && !isVault(section)) || isBranches(section) || isScheduledBackups(section))

export function normalizeSection(path: string): ProjectSection {
  return path.replace(/[?#].*$/, '').replace(/^\/+|\/+$/g, '')
}

export function resolveProjectPage(
  project: { status: ProjectStatus; postgrestStatus: PostgrestStatus },
  rawSection: ProjectSection,
): ProjectPage {
  const section = normalizeSection(rawSection)
  const { status } = project
  if (status === 'INACTIVE') return section === '' || isSettings(section) ? 'normal' : 'paused'
  if (status === 'UPGRADING') return 'upgrading'
  if (status === 'GOING_DOWN' || status === 'PAUSING') return 'pausing'
  if (project.postgrestStatus === 'OFFLINE' && !isReports(section) && !OFFLINE_EXEMPT.has(section)) return 'connecting'
  if ((status === 'RESTORING' || status === 'RESTORATION_FAILED') && needsDatabase(section)) return 'restoring'
  if ((status === 'COMING_UP' || status === 'UNKNOWN') && needsDatabase(section)) return 'building'
  return 'normal'
}

/** While a project is coming up every tool link leads to its building page. */
export function isBuildingStatus(status: ProjectStatus) {
  return status === 'COMING_UP' || status === 'UNKNOWN'
}

/**
 * Whether some route of the project shows a lifecycle page (resolveProjectPage other than 'normal' for some section):
 * all but a healthy project whose API server is online. The app loads those pages' flows for such a project first.
 */
export function mayShowLifecyclePage(project: { status: ProjectStatus; postgrestStatus: PostgrestStatus }): boolean {
  return project.status !== 'ACTIVE_HEALTHY' || project.postgrestStatus === 'OFFLINE'
}
