/**
 * The pages of a project (/project/{ref}/…), one row each: the path under the project, the page's title, the product
 * it belongs to (the navigation bar's active entry), the side menu it shows and its entry there, the page (on the
 * first load, or loaded on its first visit with the machines it runs), whether the lifecycle gate stands before it,
 * and the navigation bar's entry of a product. The frame, the navigation bar and the command menu all read it.
 *
 * Page modules are imported here, never the other way round: a project view links with src/href.ts.
 */
import type { ComponentType } from 'react'
import { matchRoute, type Parser } from 'wouter'
import type { Permission } from '../../contracts/common'
import { sqlSection } from '../../href'
import { LazyApiDocsPage } from '../project/apiDocs/lazy'
import { ProjectHome, ProjectReadyPage } from '../project/home/ProjectHome'
import type { BuildFlags } from '../shell/contexts'
import type { IconName } from '../shell/Icon'
import { lazyComponent } from '../shell/lazy'
import type { AppLogic, Loader } from '../shell/logic'
import { Loading } from '../shell/ui'

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

/** The side menus, by their title. */
const SIDE_MENUS = {
  editor: 'Table Editor',
  sql: 'SQL Editor',
  database: 'Database',
  auth: 'Authentication',
  storage: 'Storage',
  functions: 'Edge Functions',
  realtime: 'Realtime',
  reports: 'Reports',
  logs: 'Logs',
  api: 'API Docs',
  settings: 'Project Settings',
} as const
export type SideMenuId = keyof typeof SIDE_MENUS

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

/** A page: on the first load, or its own chunk loaded on the first visit together with the machines it runs. */
export interface RoutePage {
  Page: ComponentType<object>
  lazy: boolean
  /** The machines (AppLogic's loaders) the page runs, fetched beside its code. */
  machines?: (logic: AppLogic) => Array<Loader<unknown>>
}

export interface ProjectRoute {
  /** wouter's pattern under /project/{ref} ('/' is project home). */
  path: string | RegExp
  /** The section its links lead to (the path after /project/{ref}/); the SQL editor's depends on the build. */
  section: string | ((flags: Pick<BuildFlags, 'isProduction'>) => string)
  title: string
  product: ProductId
  /** The side menu the page shows beside it (hidden for a paused project), and its own entry there. */
  side?: SideMenuId
  menuLabel?: string
  /** Whether the lifecycle gate (building, paused, restoring… screens by the project's status) stands before it. */
  gate: boolean
  page: RoutePage
  /** The navigation bar's entry of the product (the row its link leads to). */
  nav?: Omit<NavEntry, 'section' | 'product'>
  /** Its label in the command menu; false when the command menu does not list it. */
  command?: string | false
}

const pageLoading = <Loading label="Loading page…" />

function lazyPage(load: () => Promise<ComponentType<object>>, machines?: (logic: AppLogic) => Array<Loader<unknown>>): RoutePage {
  return { Page: lazyComponent<object>(() => load().then((Page) => ({ default: Page })), pageLoading, machines), lazy: true, machines }
}

const firstLoad = (Page: ComponentType<object>): RoutePage => ({ Page, lazy: false })

// Pages that share a module share its chunk.
const settingsPages = () => import('../project/settings/SettingsPages')
const plainPages = () => import('../project/placeholders/PlainPages')
const authPages = () => import('../project/auth/AuthUsersPage')
const authEmailsPage = () => import('../project/auth/AuthEmailsPage')
const databaseObjectPages = () => import('../project/databaseObjects/DatabaseObjectsPages')

export const PROJECT_ROUTES: ProjectRoute[] = [
  {
    path: '/',
    section: '',
    title: 'Home',
    product: 'home',
    gate: true,
    page: firstLoad(ProjectHome),
    nav: { id: 'home', label: 'Home', group: 'home', icon: 'home' },
    command: 'Project home',
  },
  {
    path: '/building',
    section: 'building',
    title: 'Building',
    product: 'building',
    gate: true,
    page: firstLoad(ProjectReadyPage),
    command: false,
  },
  {
    path: '/editor',
    section: 'editor',
    title: 'Table Editor',
    product: 'editor',
    side: 'editor',
    menuLabel: 'Tables',
    gate: true,
    page: lazyPage(() => import('../project/database/TableEditorPage').then((m) => m.TableEditorPage), (logic) => [logic.tableEditor]),
    nav: { id: 'editor', label: 'Table Editor', group: 'tools', icon: 'table' },
  },
  {
    path: '/editor/create',
    section: 'editor/create',
    title: 'Table Editor',
    product: 'editor',
    side: 'editor',
    gate: true,
    page: lazyPage(() => import('../project/tableEditor/TableFormPage').then((m) => m.TableFormPage), (logic) => [logic.tableForm]),
    command: 'Create a new table',
  },
  {
    path: '/editor/table/:table/edit',
    section: 'editor/table/:table/edit',
    title: 'Table Editor',
    product: 'editor',
    side: 'editor',
    gate: true,
    page: lazyPage(() => import('../project/tableEditor/TableFormPage').then((m) => m.TableAlterPage), (logic) => [logic.tableForm]),
    command: false,
  },
  {
    path: '/editor/table/:table',
    section: 'editor/table/:table',
    title: 'Table Editor',
    product: 'editor',
    side: 'editor',
    gate: true,
    page: lazyPage(() => import('../project/tableEditor/TableGridPage').then((m) => m.TableGridPage), (logic) => [logic.tableGrid, logic.tableImport]),
    command: false,
  },
  {
    // /sql/new is the production SQL editor; any /sql/{id} (the non-production build uses /sql/1) opens a snippet.
    path: /^\/sql\/(?<id>[\w-]+)\/?$/,
    section: sqlSection,
    title: 'SQL Editor',
    product: 'sql',
    side: 'sql',
    menuLabel: 'New query',
    gate: true,
    page: lazyPage(() => import('../project/database/SqlEditorPage').then((m) => m.SqlEditorPage), (logic) => [logic.sqlEditor, logic.sqlSnippets]),
    nav: { id: 'sql', label: 'SQL Editor', group: 'tools', icon: 'sql' },
  },
  {
    path: '/database/tables',
    section: 'database/tables',
    title: 'Database',
    product: 'database',
    side: 'database',
    menuLabel: 'Tables',
    gate: true,
    page: lazyPage(() => import('../project/database/DatabaseTablesPage').then((m) => m.DatabaseTablesPage), (logic) => [logic.databaseTables]),
    nav: { id: 'database', label: 'Database', group: 'tools', icon: 'database' },
  },
  {
    path: '/database/functions',
    section: 'database/functions',
    title: 'Database Functions',
    product: 'database',
    side: 'database',
    menuLabel: 'Functions',
    gate: true,
    page: lazyPage(() => databaseObjectPages().then((m) => m.FunctionsPage), (logic) => [logic.databaseObjects]),
  },
  {
    path: '/database/triggers',
    section: 'database/triggers',
    title: 'Database Triggers',
    product: 'database',
    side: 'database',
    menuLabel: 'Triggers',
    gate: true,
    page: lazyPage(() => databaseObjectPages().then((m) => m.TriggersPage), (logic) => [logic.databaseObjects]),
  },
  {
    path: '/database/types',
    section: 'database/types',
    title: 'Enumerated Types',
    product: 'database',
    side: 'database',
    menuLabel: 'Enumerated Types',
    gate: true,
    page: lazyPage(() => databaseObjectPages().then((m) => m.TypesPage), (logic) => [logic.databaseObjects]),
  },
  {
    path: '/database/indexes',
    section: 'database/indexes',
    title: 'Database Indexes',
    product: 'database',
    side: 'database',
    menuLabel: 'Indexes',
    gate: true,
    page: lazyPage(() => databaseObjectPages().then((m) => m.IndexesPage), (logic) => [logic.databaseObjects]),
  },
  {
    path: '/database/extensions',
    section: 'database/extensions',
    title: 'Database Extensions',
    product: 'database',
    side: 'database',
    menuLabel: 'Extensions',
    gate: true,
    page: lazyPage(() => databaseObjectPages().then((m) => m.ExtensionsPage), (logic) => [logic.databaseObjects]),
  },
  {
    path: '/database/roles',
    section: 'database/roles',
    title: 'Database Roles',
    product: 'database',
    side: 'database',
    menuLabel: 'Roles',
    gate: true,
    page: lazyPage(() => databaseObjectPages().then((m) => m.RolesPage), (logic) => [logic.databaseObjects]),
  },
  {
    path: '/database/publications',
    section: 'database/publications',
    title: 'Database Publications',
    product: 'database',
    side: 'database',
    menuLabel: 'Publications',
    gate: true,
    page: lazyPage(() => databaseObjectPages().then((m) => m.PublicationsPage), (logic) => [logic.databaseObjects]),
  },
  {
    path: '/database/backups/scheduled',
    section: 'database/backups/scheduled',
    title: 'Scheduled backups',
    product: 'database',
    side: 'database',
    menuLabel: 'Scheduled backups',
    gate: true,
    page: lazyPage(() => plainPages().then((m) => m.ScheduledBackupsPage)),
  },
  {
    path: '/branches',
    section: 'branches',
    title: 'Branches',
    product: 'branches',
    side: 'database',
    menuLabel: 'Branches',
    gate: true,
    page: lazyPage(() => import('../project/branches/BranchesPage').then((m) => m.BranchesPage), (logic) => [logic.branchStatus]),
  },
  {
    path: '/auth/users',
    section: 'auth/users',
    title: 'Authentication',
    product: 'auth',
    side: 'auth',
    menuLabel: 'Users',
    gate: true,
    page: lazyPage(() => authPages().then((m) => m.AuthUsersPage), (logic) => [logic.authUsers]),
    nav: { id: 'auth', label: 'Authentication', group: 'product', icon: 'auth', feature: 'auth', permission: 'project_auth:all' },
  },
  {
    path: '/auth/policies',
    section: 'auth/policies',
    title: 'Policies',
    product: 'auth',
    side: 'auth',
    menuLabel: 'Policies',
    gate: true,
    page: lazyPage(() => databaseObjectPages().then((m) => m.PoliciesPage), (logic) => [logic.databaseObjects]),
  },
  {
    path: '/auth/emails',
    section: 'auth/emails',
    title: 'Authentication',
    product: 'auth',
    side: 'auth',
    menuLabel: 'Emails',
    gate: true,
    page: lazyPage(() => authEmailsPage().then((m) => m.AuthEmailsPage), (logic) => [logic.authEmails]),
    command: 'Auth emails',
  },
  {
    path: '/storage/buckets',
    section: 'storage/buckets',
    title: 'Storage',
    product: 'storage',
    side: 'storage',
    menuLabel: 'Buckets',
    gate: true,
    page: lazyPage(() => import('../project/storage/StorageBucketsPage').then((m) => m.StorageBucketsPage), (logic) => [logic.storageBuckets]),
    // Every member browses storage (a Read-only member or a Developer reads and downloads only), so no permission hides it.
    nav: { id: 'storage', label: 'Storage', group: 'product', icon: 'storage', feature: 'storage' },
  },
  {
    // A bucket's files; its side menu is the Storage menu, with Buckets as the entry it belongs under.
    path: '/storage/buckets/:bucket',
    section: 'storage/buckets/:bucket',
    title: 'Storage',
    product: 'storage',
    side: 'storage',
    gate: true,
    page: lazyPage(() => import('../project/storage/StorageExplorerPage').then((m) => m.StorageExplorerPage), (logic) => [logic.storageExplorer]),
    command: false,
  },
  {
    path: '/functions',
    section: 'functions',
    title: 'Edge Functions',
    product: 'functions',
    side: 'functions',
    menuLabel: 'Functions',
    gate: true,
    page: lazyPage(() => import('../project/functions/EdgeFunctionsPage').then((m) => m.EdgeFunctionsPage), (logic) => [logic.edgeFunctions]),
    nav: {
      id: 'functions',
      label: 'Edge Functions',
      group: 'product',
      icon: 'functions',
      feature: 'edgeFunctions',
      permission: 'project_edge_function:all',
      platformOnly: true,
    },
  },
  {
    path: '/functions/secrets',
    section: 'functions/secrets',
    title: 'Edge Function Secrets',
    product: 'functions',
    side: 'functions',
    menuLabel: 'Secrets',
    gate: true,
    page: lazyPage(() => import('../project/functions/SecretsPage').then((m) => m.SecretsPage), (logic) => [logic.functionSecrets]),
  },
  {
    path: '/functions/new',
    section: 'functions/new',
    title: 'Deploy a new function',
    product: 'functions',
    side: 'functions',
    gate: true,
    page: lazyPage(() => import('../project/functions/NewFunctionPage').then((m) => m.NewFunctionPage), (logic) => [logic.functionCreate]),
    command: false,
  },
  {
    // A function's page and its tabs (/functions/{slug}, /code, /logs); 'secrets' and 'new' above are pages of their own.
    path: /^\/functions\/(?<slug>[A-Za-z][A-Za-z0-9_-]*)(?:\/(?<tab>code|logs))?\/?$/,
    // A pattern, not a link: each function's links are built with its slug (functions/{slug}, …/code, …/logs).
    section: 'functions/{slug}',
    title: 'Edge Function',
    product: 'functions',
    side: 'functions',
    gate: true,
    page: lazyPage(() => import('../project/functions/FunctionPage').then((m) => m.FunctionPage), (logic) => [logic.functionDetail, logic.functionTest]),
    command: false,
  },
  {
    path: '/realtime/inspector',
    section: 'realtime/inspector',
    title: 'Realtime',
    product: 'realtime',
    side: 'realtime',
    menuLabel: 'Inspector',
    gate: true,
    page: lazyPage(() => import('../project/realtime/RealtimeInspectorPage').then((m) => m.RealtimeInspectorPage), (logic) => [logic.realtimeInspector]),
    nav: { id: 'realtime', label: 'Realtime', group: 'product', icon: 'realtime', feature: 'realtime', permission: 'realtime:all' },
  },
  {
    path: '/realtime/channels',
    section: 'realtime/channels',
    title: 'Realtime channels',
    product: 'realtime',
    side: 'realtime',
    menuLabel: 'Channels',
    gate: true,
    page: lazyPage(() => import('../project/realtime/RealtimeChannelsPage').then((m) => m.RealtimeChannelsPage), (logic) => [logic.realtimeChannels]),
  },
  {
    path: '/realtime/settings',
    section: 'realtime/settings',
    title: 'Realtime settings',
    product: 'realtime',
    side: 'realtime',
    menuLabel: 'Settings',
    gate: true,
    page: lazyPage(() => import('../project/realtime/RealtimeSettingsPage').then((m) => m.RealtimeSettingsPage), (logic) => [logic.realtimeSettings]),
  },
  {
    path: '/reports',
    section: 'reports',
    title: 'Reports',
    product: 'reports',
    side: 'reports',
    menuLabel: 'Reports',
    gate: true,
    page: lazyPage(() => import('../project/observability/ReportsPage').then((m) => m.ReportsPage), (logic) => [logic.projectReports]),
    nav: { id: 'reports', label: 'Reports', group: 'other', icon: 'reports', platformOnly: true },
  },
  {
    path: '/logs/explorer',
    section: 'logs/explorer',
    title: 'Logs',
    product: 'logs',
    side: 'logs',
    menuLabel: 'Log explorer',
    gate: true,
    page: lazyPage(() => import('../project/observability/LogsPage').then((m) => m.LogsPage), (logic) => [logic.projectLogs]),
    nav: { id: 'logs', label: 'Logs', group: 'other', icon: 'logs' },
  },
  {
    path: '/api',
    section: 'api',
    title: 'API Docs',
    product: 'api',
    side: 'api',
    menuLabel: 'Introduction',
    gate: true,
    // Its views load with the API docs panel's (one loader for both).
    page: { Page: LazyApiDocsPage, lazy: true, machines: (logic) => [logic.apiDocs] },
    nav: { id: 'api', label: 'API Docs', group: 'other', icon: 'api', opensApiDocs: true },
  },
  {
    path: '/api/graphiql',
    section: 'api/graphiql',
    title: 'GraphiQL',
    product: 'api',
    side: 'api',
    menuLabel: 'GraphiQL',
    gate: true,
    page: lazyPage(() => plainPages().then((m) => m.GraphiqlPage)),
  },
  {
    path: '/settings/general',
    section: 'settings/general',
    title: 'General settings',
    product: 'settings',
    side: 'settings',
    menuLabel: 'General',
    gate: true,
    page: lazyPage(() => import('../project/settings/GeneralSettingsPage').then((m) => m.GeneralSettingsPage), (logic) => [logic.pauseProject, logic.customDomain]),
    nav: { id: 'settings', label: 'Project Settings', group: 'settings', icon: 'settings', platformOnly: true },
  },
  {
    path: '/settings/database',
    section: 'settings/database',
    title: 'Database settings',
    product: 'settings',
    side: 'settings',
    menuLabel: 'Database',
    gate: true,
    page: lazyPage(() => settingsPages().then((m) => m.DatabaseSettingsPage), (logic) => [logic.databaseSettings]),
  },
  {
    path: '/settings/api',
    section: 'settings/api',
    title: 'API settings',
    product: 'settings',
    side: 'settings',
    menuLabel: 'API',
    gate: true,
    page: lazyPage(() => import('../project/settings/ApiSettingsPage').then((m) => m.ApiSettingsPage), (logic) => [logic.apiKeys, logic.customDomain]),
  },
  {
    path: '/settings/auth',
    section: 'settings/auth',
    title: 'Auth settings',
    product: 'settings',
    side: 'settings',
    menuLabel: 'Authentication',
    gate: true,
    page: lazyPage(() => import('../project/auth/AuthSettingsPage').then((m) => m.AuthSettingsPage), (logic) => [logic.authSettings]),
  },
  {
    path: '/settings/storage',
    section: 'settings/storage',
    title: 'Storage settings',
    product: 'settings',
    side: 'settings',
    menuLabel: 'Storage',
    gate: true,
    page: lazyPage(() => settingsPages().then((m) => m.StorageSettingsPage), (logic) => [logic.storageBuckets]),
  },
  {
    path: '/settings/infrastructure',
    section: 'settings/infrastructure',
    title: 'Infrastructure',
    product: 'settings',
    side: 'settings',
    menuLabel: 'Infrastructure',
    gate: true,
    page: lazyPage(() => import('../project/settings/UpgradePostgresPanel').then((m) => m.InfrastructureSettingsPage), (logic) => [logic.upgradeAction]),
  },
  {
    path: '/settings/addons',
    section: 'settings/addons',
    title: 'Add-ons',
    product: 'settings',
    side: 'settings',
    menuLabel: 'Add-ons',
    gate: true,
    page: lazyPage(() => settingsPages().then((m) => m.AddonsSettingsPage), (logic) => [logic.projectAddons]),
  },
  {
    path: '/settings/vault',
    section: 'settings/vault',
    title: 'Vault',
    product: 'settings',
    side: 'settings',
    menuLabel: 'Vault',
    gate: true,
    page: lazyPage(() => plainPages().then((m) => m.VaultPage)),
  },
  {
    path: '/settings/integrations',
    section: 'settings/integrations',
    title: 'Integrations',
    product: 'settings',
    side: 'settings',
    menuLabel: 'Integrations',
    gate: true,
    page: lazyPage(() => import('../org/integrations/IntegrationsPage').then((m) => m.ProjectIntegrationsPage), (logic) => [logic.githubIntegrations, logic.repositoryRelink]),
  },
]

/** /settings is General settings under another address (no entry of its own in a menu). */
const SETTINGS_ALIAS: ProjectRoute = { ...PROJECT_ROUTES.find((route) => route.section === 'settings/general')!, path: '/settings', menuLabel: undefined, command: false }

/** The row of a section (the path after /project/{ref}/, '' for home), matched as wouter matches; null is a 404. */
export function projectRouteOf(section: string, parser: Parser): ProjectRoute | null {
  const path = `/${section.replace(/^\/+|\/+$/g, '')}`
  for (const route of [...PROJECT_ROUTES, SETTINGS_ALIAS]) if (matchRoute(parser, route.path, path)[0]) return route
  return null
}

export const sectionOf = (route: ProjectRoute, flags: Pick<BuildFlags, 'isProduction'>) =>
  typeof route.section === 'string' ? route.section : route.section(flags)

/**
 * '{page} | {project} | {organization}' (useDocumentTitle adds ' | Supabase'): the page's title, then the project's
 * and its organization's names once known; project home is the project and the organization. Null while nothing is
 * known (the title stays as it was).
 */
export function pageTitleOf(route: ProjectRoute | null, projectName: string | null, organizationName: string | null): string | null {
  if (route === null) return 'Page not found'
  const parts = [route.product === 'home' ? null : route.title, projectName, organizationName].filter((part): part is string => part !== null && part !== '')
  return parts.length === 0 ? null : parts.join(' | ')
}

/** The side menu a page shows: its title and entries (the rows listed in it, in the table's order). */
export function sideMenuOf(route: ProjectRoute, flags: Pick<BuildFlags, 'isProduction'>) {
  if (route.side === undefined) return null
  const side = route.side
  return {
    title: SIDE_MENUS[side],
    items: PROJECT_ROUTES.filter((row) => row.side === side && row.menuLabel !== undefined).map((row) => ({ label: row.menuLabel!, section: sectionOf(row, flags) })),
  }
}

/** Every page of a project for the command menu: project home and the SQL editor first, then the table's order. */
export function commandRoutes(flags: Pick<BuildFlags, 'isProduction'>): Array<{ section: string; title: string }> {
  const listed = PROJECT_ROUTES.filter((route) => route.command !== false)
  const first = listed.filter((route) => route.product === 'home' || route.product === 'sql')
  return [...first, ...listed.filter((route) => !first.includes(route))].map((route) => ({
    section: sectionOf(route, flags),
    title: typeof route.command === 'string' ? route.command : route.title,
  }))
}

/** The navigation bar's entries the person sees: build flags, product switches and permissions in the project's organization. */
export function visibleNavEntries(flags: BuildFlags, permissions: readonly Permission[]): NavEntry[] {
  return PROJECT_ROUTES.flatMap((route) => (route.nav ? [{ ...route.nav, section: sectionOf(route, flags), product: route.product }] : [])).filter(
    (entry) =>
      (!entry.platformOnly || flags.isPlatform) &&
      (entry.feature === undefined || flags.features[entry.feature]) &&
      (entry.permission === undefined || permissions.includes(entry.permission)),
  )
}
