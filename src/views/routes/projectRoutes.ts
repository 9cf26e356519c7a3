/**
 * The project routes of the spec's route table: their titles, the product they belong to (for the side menu
 * and the navigation bar's active entry) and the navigation entries. Data only, below the layout and the project
 * views that both read it.
 */
import type { Permission } from '../../contracts/common'
import type { BuildFlags } from '../shell/contexts'
import type { IconName } from '../shell/Icon'

export type ProductId =
  | 'home'
  | 'building'
  | 'editor'
  | 'sql'
  | 'database'
  | 'branches'
  | 'auth'
  | 'storage'
  | 'functions'
  | 'realtime'
  | 'reports'
  | 'logs'
  | 'api'
  | 'settings'

interface ProjectRoute {
  /** The path after /project/{ref}/ ('' for home). */
  section: string
  title: string
  product: ProductId
}

export function sqlSection(flags: Pick<BuildFlags, 'isProduction'>) {
  return flags.isProduction ? 'sql/new' : 'sql/1'
}

const ROUTES: ProjectRoute[] = [
  { section: 'building', title: 'Building', product: 'building' },
  { section: 'editor', title: 'Table Editor', product: 'editor' },
  { section: 'database/tables', title: 'Database', product: 'database' },
  { section: 'database/backups/scheduled', title: 'Scheduled backups', product: 'database' },
  { section: 'branches', title: 'Branches', product: 'branches' },
  { section: 'auth/users', title: 'Authentication', product: 'auth' },
  { section: 'storage/buckets', title: 'Storage', product: 'storage' },
  { section: 'functions', title: 'Edge Functions', product: 'functions' },
  { section: 'realtime/inspector', title: 'Realtime', product: 'realtime' },
  { section: 'reports', title: 'Reports', product: 'reports' },
  { section: 'logs/explorer', title: 'Logs', product: 'logs' },
  { section: 'api', title: 'API Docs', product: 'api' },
  { section: 'api/graphiql', title: 'GraphiQL', product: 'api' },
  { section: 'settings/general', title: 'General settings', product: 'settings' },
  { section: 'settings/database', title: 'Database settings', product: 'settings' },
  { section: 'settings/api', title: 'API settings', product: 'settings' },
  { section: 'settings/auth', title: 'Auth settings', product: 'settings' },
  { section: 'settings/storage', title: 'Storage settings', product: 'settings' },
  { section: 'settings/infrastructure', title: 'Infrastructure', product: 'settings' },
  { section: 'settings/addons', title: 'Add-ons', product: 'settings' },
  { section: 'settings/vault', title: 'Vault', product: 'settings' },
  { section: 'settings/integrations', title: 'Integrations', product: 'settings' },
]

/** The route a section shows, or null for an unknown one (a 404 inside the project). Home is ''. */
export function findProjectRoute(section: string): ProjectRoute | null {
  if (section === '') return { section: '', title: 'Home', product: 'home' }
  // /sql/new is the production SQL editor; any /sql/{id} (the non-production build uses /sql/1) opens a snippet.
  if (section === 'sql/new' || /^sql\/[\w-]+$/.test(section)) return { section, title: 'SQL Editor', product: 'sql' }
  if (section === 'settings') return ROUTES.find((route) => route.section === 'settings/general') ?? null
  return ROUTES.find((route) => route.section === section) ?? null
}

export type DatabaseTool = 'sql' | 'tableEditor' | 'databaseTables'

/** The database tool a location's path opens (/project/{ref}/sql/new, …/editor, …/database/tables), or null. */
export function databaseToolOf(path: string): DatabaseTool | null {
  const match = /^\/project\/[^/]+\/(.+?)\/*$/.exec(path)
  if (!match) return null
  const section = match[1]
  if (findProjectRoute(section)?.product === 'sql') return 'sql'
  if (section === 'editor') return 'tableEditor'
  if (section === 'database/tables') return 'databaseTables'
  return null
}

export type ProductPage = 'storageBuckets' | 'edgeFunctions'

/** The product page a location's path opens (/project/{ref}/storage/buckets, …/functions), or null. */
export function productPageOf(path: string): ProductPage | null {
  const match = /^\/project\/[^/]+\/(.+?)\/*$/.exec(path)
  if (!match) return null
  if (match[1] === 'storage/buckets') return 'storageBuckets'
  if (match[1] === 'functions') return 'edgeFunctions'
  return null
}

/** Whether a location's path is the API docs page (/project/{ref}/api; GraphiQL is its own page). */
export function isApiDocsPage(path: string): boolean {
  return /^\/project\/[^/]+\/api\/*$/.test(path)
}

/** Every page of a project, for the command menu. */
export function allProjectRoutes(flags: Pick<BuildFlags, 'isProduction'>): ProjectRoute[] {
  return [
    { section: '', title: 'Project home', product: 'home' },
    { section: sqlSection(flags), title: 'SQL Editor', product: 'sql' },
    ...ROUTES.filter((route) => route.product !== 'building'),
  ]
}

export interface NavEntry {
  id: string
  label: string
  section: string
  product: ProductId
  group: 'home' | 'tools' | 'product' | 'other' | 'settings'
  icon: IconName
  feature?: keyof BuildFlags['features']
  permission?: Permission
  platformOnly?: boolean
  /** The Project API entry may open the API docs panel instead of navigating. */
  opensApiDocs?: boolean
}

function navEntries(flags: Pick<BuildFlags, 'isProduction'>): NavEntry[] {
  return [
    { id: 'home', label: 'Home', section: '', product: 'home', group: 'home', icon: 'home' },
    { id: 'editor', label: 'Table Editor', section: 'editor', product: 'editor', group: 'tools', icon: 'table' },
    { id: 'sql', label: 'SQL Editor', section: sqlSection(flags), product: 'sql', group: 'tools', icon: 'sql' },
    { id: 'database', label: 'Database', section: 'database/tables', product: 'database', group: 'tools', icon: 'database' },
    { id: 'auth', label: 'Authentication', section: 'auth/users', product: 'auth', group: 'product', icon: 'auth', feature: 'auth', permission: 'project_auth:all' },
    { id: 'storage', label: 'Storage', section: 'storage/buckets', product: 'storage', group: 'product', icon: 'storage', feature: 'storage', permission: 'project_storage:all' },
    {
      id: 'functions',
      label: 'Edge Functions',
      section: 'functions',
      product: 'functions',
      group: 'product',
      icon: 'functions',
      feature: 'edgeFunctions',
      permission: 'project_edge_function:all',
      platformOnly: true,
    },
    { id: 'realtime', label: 'Realtime', section: 'realtime/inspector', product: 'realtime', group: 'product', icon: 'realtime', feature: 'realtime', permission: 'realtime:all' },
    { id: 'reports', label: 'Reports', section: 'reports', product: 'reports', group: 'other', icon: 'reports', platformOnly: true },
    { id: 'logs', label: 'Logs', section: 'logs/explorer', product: 'logs', group: 'other', icon: 'logs' },
    { id: 'api', label: 'API Docs', section: 'api', product: 'api', group: 'other', icon: 'api', opensApiDocs: true },
    { id: 'settings', label: 'Project Settings', section: 'settings/general', product: 'settings', group: 'settings', icon: 'settings', platformOnly: true },
  ]
}

/** Entries the person sees: build flags, product switches and permissions in the project's organization. */
export function visibleNavEntries(flags: BuildFlags, permissions: readonly Permission[]): NavEntry[] {
  return navEntries(flags).filter(
    (entry) =>
      (!entry.platformOnly || flags.isPlatform) &&
      (entry.feature === undefined || flags.features[entry.feature]) &&
      (entry.permission === undefined || permissions.includes(entry.permission)),
  )
}

interface SideMenuItem {
  label: string
  section: string
}

/** The sub-pages of a product, listed in the side menu. */
const SIDE_MENUS: Partial<Record<ProductId, { title: string; items: SideMenuItem[] }>> = {
  database: {
    title: 'Database',
    items: [
      { label: 'Tables', section: 'database/tables' },
      { label: 'Scheduled backups', section: 'database/backups/scheduled' },
      { label: 'Branches', section: 'branches' },
    ],
  },
  branches: {
    title: 'Database',
    items: [
      { label: 'Tables', section: 'database/tables' },
      { label: 'Scheduled backups', section: 'database/backups/scheduled' },
      { label: 'Branches', section: 'branches' },
    ],
  },
  auth: { title: 'Authentication', items: [{ label: 'Users', section: 'auth/users' }] },
  storage: { title: 'Storage', items: [{ label: 'Buckets', section: 'storage/buckets' }] },
  functions: { title: 'Edge Functions', items: [{ label: 'Functions', section: 'functions' }] },
  realtime: { title: 'Realtime', items: [{ label: 'Inspector', section: 'realtime/inspector' }] },
  reports: { title: 'Reports', items: [{ label: 'Reports', section: 'reports' }] },
  logs: { title: 'Logs', items: [{ label: 'Log explorer', section: 'logs/explorer' }] },
  api: {
    title: 'API Docs',
    items: [
      { label: 'Introduction', section: 'api' },
      { label: 'GraphiQL', section: 'api/graphiql' },
    ],
  },
  settings: {
    title: 'Project Settings',
    items: [
      { label: 'General', section: 'settings/general' },
      { label: 'Database', section: 'settings/database' },
      { label: 'API', section: 'settings/api' },
      { label: 'Authentication', section: 'settings/auth' },
      { label: 'Storage', section: 'settings/storage' },
      { label: 'Infrastructure', section: 'settings/infrastructure' },
      { label: 'Add-ons', section: 'settings/addons' },
      { label: 'Vault', section: 'settings/vault' },
      { label: 'Integrations', section: 'settings/integrations' },
    ],
  },
}

export function sideMenuFor(product: ProductId, flags: Pick<BuildFlags, 'isProduction'>) {
  if (product === 'sql') return { title: 'SQL Editor', items: [{ label: 'New query', section: sqlSection(flags) }] }
  if (product === 'editor') return { title: 'Table Editor', items: [{ label: 'Tables', section: 'editor' }] }
  return SIDE_MENUS[product] ?? null
}
