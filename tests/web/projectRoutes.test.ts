/**
 * The project's route table, pinned: each page's title and product, the side menu it shows, which pages load on
 * their first visit and the machines that load beside them, and the addresses that are not a page.
 */
import { renderHook } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { useRouter } from 'wouter'
import { LIVE_LOGIC } from '../../src/app/logic'
import { commandRoutes, PROJECT_ROUTES, projectRouteOf, sectionOf, sideMenuOf, visibleNavEntries } from '../../src/views/routes/projectRoutes'
import type { AppLogic } from '../../src/views/shell/logic'
import { PLATFORM_FLAGS } from '../fakePlatform'

const parser = renderHook(() => useRouter().parser).result.current
const DEV = { isProduction: false }

/** The name of each machine loader a page preloads (AppLogic's key), so the table reads as names. */
function machineNames(logic: AppLogic, loaders: unknown[]) {
  return loaders.map((loader) => Object.entries(logic).find(([, value]) => value === loader)?.[0] ?? 'unknown')
}

describe('the project route table', () => {
  it('titles each page and names its product', () => {
    const rows = ['', 'building', 'editor', 'sql/1', 'sql/new', 'database/tables', 'database/functions', 'database/triggers', 'database/types', 'database/indexes', 'database/extensions', 'database/roles', 'database/publications', 'database/backups/scheduled', 'branches', 'auth/users', 'auth/policies', 'auth/emails', 'storage/buckets', 'functions', 'functions/secrets', 'functions/new', 'functions/hello-world', 'functions/hello-world/code', 'functions/hello-world/logs', 'realtime/inspector', 'realtime/channels', 'realtime/settings', 'reports', 'logs/explorer', 'api', 'api/graphiql', 'settings', 'settings/general', 'settings/database', 'settings/api', 'settings/auth', 'settings/storage', 'settings/infrastructure', 'settings/addons', 'settings/vault', 'settings/integrations'].map(
      (section) => {
        const route = projectRouteOf(section, parser)
        return [section, route?.title, route?.product]
      },
    )
    expect(rows).toEqual([
      ['', 'Home', 'home'],
      ['building', 'Building', 'building'],
      ['editor', 'Table Editor', 'editor'],
      ['sql/1', 'SQL Editor', 'sql'],
      ['sql/new', 'SQL Editor', 'sql'],
      ['database/tables', 'Database', 'database'],
      ['database/functions', 'Database Functions', 'database'],
      ['database/triggers', 'Database Triggers', 'database'],
      ['database/types', 'Enumerated Types', 'database'],
      ['database/indexes', 'Database Indexes', 'database'],
      ['database/extensions', 'Database Extensions', 'database'],
      ['database/roles', 'Database Roles', 'database'],
      ['database/publications', 'Database Publications', 'database'],
      ['database/backups/scheduled', 'Scheduled backups', 'database'],
      ['branches', 'Branches', 'branches'],
      ['auth/users', 'Authentication', 'auth'],
      ['auth/policies', 'Policies', 'auth'],
      ['auth/emails', 'Authentication', 'auth'],
      ['storage/buckets', 'Storage', 'storage'],
      ['functions', 'Edge Functions', 'functions'],
      ['functions/secrets', 'Edge Function Secrets', 'functions'],
      ['functions/new', 'Deploy a new function', 'functions'],
      ['functions/hello-world', 'Edge Function', 'functions'],
      ['functions/hello-world/code', 'Edge Function', 'functions'],
      ['functions/hello-world/logs', 'Edge Function', 'functions'],
      ['realtime/inspector', 'Realtime', 'realtime'],
      ['realtime/channels', 'Realtime channels', 'realtime'],
      ['realtime/settings', 'Realtime settings', 'realtime'],
      ['reports', 'Reports', 'reports'],
      ['logs/explorer', 'Logs', 'logs'],
      ['api', 'API Docs', 'api'],
      ['api/graphiql', 'GraphiQL', 'api'],
      ['settings', 'General settings', 'settings'],
      ['settings/general', 'General settings', 'settings'],
      ['settings/database', 'Database settings', 'settings'],
      ['settings/api', 'API settings', 'settings'],
      ['settings/auth', 'Auth settings', 'settings'],
      ['settings/storage', 'Storage settings', 'settings'],
      ['settings/infrastructure', 'Infrastructure', 'settings'],
      ['settings/addons', 'Add-ons', 'settings'],
      ['settings/vault', 'Vault', 'settings'],
      ['settings/integrations', 'Integrations', 'settings'],
    ])
  })

  it('is a 404 for any other address under the project', () => {
    for (const section of ['nowhere', 'sql', 'sql/a/b', 'settings/general/more', 'database', 'editor/x', 'functions/9lives', 'functions/hello-world/details', 'functions/a/b/c']) {
      expect(projectRouteOf(section, parser), section).toBeNull()
    }
  })

  it('shows each product its side menu, the database menu on Branches too, none at home or while building', () => {
    const menus = Object.fromEntries(
      PROJECT_ROUTES.map((route) => {
        const menu = sideMenuOf(route, DEV)
        return [sectionOf(route, DEV), menu && `${menu.title}: ${menu.items.map((item) => `${item.label} → ${item.section}`).join(', ')}`]
      }),
    )
    const database =
      'Database: Tables → database/tables, Functions → database/functions, Triggers → database/triggers, Enumerated Types → database/types, Indexes → database/indexes, Extensions → database/extensions, Roles → database/roles, Publications → database/publications, Scheduled backups → database/backups/scheduled, Branches → branches'
    const auth = 'Authentication: Users → auth/users, Policies → auth/policies, Emails → auth/emails'
    const settings =
      'Project Settings: General → settings/general, Database → settings/database, API → settings/api, Authentication → settings/auth, Storage → settings/storage, Infrastructure → settings/infrastructure, Add-ons → settings/addons, Vault → settings/vault, Integrations → settings/integrations'
    expect(menus).toEqual({
      '': null,
      building: null,
      editor: 'Table Editor: Tables → editor',
      'editor/create': 'Table Editor: Tables → editor',
      'editor/table/:table': 'Table Editor: Tables → editor',
      'editor/table/:table/edit': 'Table Editor: Tables → editor',
      'sql/1': 'SQL Editor: New query → sql/1',
      'database/tables': database,
      'database/functions': database,
      'database/triggers': database,
      'database/types': database,
      'database/indexes': database,
      'database/extensions': database,
      'database/roles': database,
      'database/publications': database,
      'database/backups/scheduled': database,
      branches: database,
      'auth/users': auth,
      'auth/policies': auth,
      'auth/emails': auth,
      'storage/buckets': 'Storage: Buckets → storage/buckets',
      'storage/buckets/:bucket': 'Storage: Buckets → storage/buckets',
      functions: 'Edge Functions: Functions → functions, Secrets → functions/secrets',
      'functions/secrets': 'Edge Functions: Functions → functions, Secrets → functions/secrets',
      'functions/new': 'Edge Functions: Functions → functions, Secrets → functions/secrets',
      'functions/{slug}': 'Edge Functions: Functions → functions, Secrets → functions/secrets',
      'realtime/inspector': 'Realtime: Inspector → realtime/inspector, Channels → realtime/channels, Settings → realtime/settings',
      'realtime/channels': 'Realtime: Inspector → realtime/inspector, Channels → realtime/channels, Settings → realtime/settings',
      'realtime/settings': 'Realtime: Inspector → realtime/inspector, Channels → realtime/channels, Settings → realtime/settings',
      reports: 'Reports: Reports → reports',
      'logs/explorer': 'Logs: Log explorer → logs/explorer',
      api: 'API Docs: Introduction → api, GraphiQL → api/graphiql',
      'api/graphiql': 'API Docs: Introduction → api, GraphiQL → api/graphiql',
      'settings/general': settings,
      'settings/database': settings,
      'settings/api': settings,
      'settings/auth': settings,
      'settings/storage': settings,
      'settings/infrastructure': settings,
      'settings/addons': settings,
      'settings/vault': settings,
      'settings/integrations': settings,
    })
    expect(sideMenuOf(projectRouteOf('sql/new', parser)!, { isProduction: true })?.items).toEqual([{ label: 'New query', section: 'sql/new' }])
  })

  it('loads every page but project home and the building page on its first visit, with the machines it runs', () => {
    const loading = Object.fromEntries(
      PROJECT_ROUTES.map((route) => [
        sectionOf(route, DEV),
        route.page.lazy ? machineNames(LIVE_LOGIC, route.page.machines?.(LIVE_LOGIC) ?? []) : 'first load',
      ]),
    )
    expect(loading).toEqual({
      '': 'first load',
      building: 'first load',
      editor: ['tableEditor'],
      'editor/create': ['tableForm'],
      'editor/table/:table': ['tableGrid', 'tableImport'],
      'editor/table/:table/edit': ['tableForm'],
      'sql/1': ['sqlEditor', 'sqlSnippets'],
      'database/tables': ['databaseTables'],
      'database/functions': ['databaseObjects'],
      'database/triggers': ['databaseObjects'],
      'database/types': ['databaseObjects'],
      'database/indexes': ['databaseObjects'],
      'database/extensions': ['databaseObjects'],
      'database/roles': ['databaseObjects'],
      'database/publications': ['databaseObjects'],
      'database/backups/scheduled': [],
      branches: ['branchStatus'],
      'auth/users': ['authUsers'],
      'auth/policies': ['databaseObjects'],
      'auth/emails': ['authEmails'],
      'storage/buckets': ['storageBuckets'],
      'storage/buckets/:bucket': ['storageExplorer'],
      functions: ['edgeFunctions'],
      'functions/secrets': ['functionSecrets'],
      'functions/new': ['functionCreate'],
      'functions/{slug}': ['functionDetail', 'functionTest'],
      'realtime/inspector': ['realtimeInspector'],
      'realtime/channels': ['realtimeChannels'],
      'realtime/settings': ['realtimeSettings'],
      reports: ['projectReports'],
      'logs/explorer': ['projectLogs'],
      api: ['apiDocs'],
      'api/graphiql': [],
      'settings/general': ['pauseProject', 'customDomain'],
      'settings/database': ['databaseSettings'],
      'settings/api': ['apiKeys', 'customDomain', 'postgrestSettings'],
      'settings/auth': ['authSettings'],
      'settings/storage': ['storageBuckets'],
      'settings/infrastructure': ['upgradeAction'],
      'settings/addons': ['projectAddons'],
      'settings/vault': [],
      'settings/integrations': ['githubIntegrations', 'repositoryRelink'],
    })
    // Every lazy page is a component that can start loading before it renders (SignedIn and the frame rely on it).
    for (const route of PROJECT_ROUTES.filter((row) => row.page.lazy && row.section !== 'api')) {
      expect(route.page.Page, sectionOf(route, DEV)).toHaveProperty('preload')
    }
  })

  it('puts the lifecycle gate before every page', () => {
    expect(PROJECT_ROUTES.filter((route) => !route.gate).map((route) => sectionOf(route, DEV))).toEqual([])
  })

  it('gives the navigation bar its entries and the command menu every page but the building one', () => {
    expect(visibleNavEntries(PLATFORM_FLAGS, []).map((entry) => `${entry.label} → ${entry.section}`)).toEqual([
      'Home → ',
      'Table Editor → editor',
      'SQL Editor → sql/1',
      'Database → database/tables',
      // Every member browses storage, whatever the permissions.
      'Storage → storage/buckets',
      'Reports → reports',
      'Logs → logs/explorer',
      'API Docs → api',
      'Project Settings → settings/general',
    ])
    expect(commandRoutes(DEV).map((route) => route.title)).toEqual([
      'Project home',
      'SQL Editor',
      'Table Editor',
      'Create a new table',
      'Database',
      'Database Functions',
      'Database Triggers',
      'Enumerated Types',
      'Database Indexes',
      'Database Extensions',
      'Database Roles',
      'Database Publications',
      'Scheduled backups',
      'Branches',
      'Authentication',
      'Policies',
      'Auth emails',
      'Storage',
      'Edge Functions',
      'Edge Function Secrets',
      'Realtime',
      'Realtime channels',
      'Realtime settings',
      'Reports',
      'Logs',
      'API Docs',
      'GraphiQL',
      'General settings',
      'Database settings',
      'API settings',
      'Auth settings',
      'Storage settings',
      'Infrastructure',
      'Add-ons',
      'Vault',
      'Integrations',
    ])
  })
})
