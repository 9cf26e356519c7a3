/**
 * The machines the app runs, each with its live actors (src/api/live) or the browser's preferences. Those only a
 * later screen runs are loaders: their code (machine, live actors, the contracts they parse) loads with that screen.
 */
import { commandMenuMachine } from '../../machines/commandMenu.machine'
import { featurePreviewsMachine } from '../../machines/featurePreviews.machine'
import { navBarMachine } from '../../machines/navBar.machine'
import { themeMachine } from '../../machines/theme.machine'
import { liveProjectListMachine } from '../api/live/projectList'
import { liveProjectStatusMachine } from '../api/live/projectStatus'
import { liveResourceWarningsMachine } from '../api/live/resourceWarnings'
import { liveSessionMachine } from '../api/live/session'
import { preloadable } from '../views/shell/lazy'
import type { AppLogic } from '../views/shell/logic'
import { applyThemeClass, writePreviews, writeTheme } from './preferences'

export const LIVE_LOGIC: AppLogic = {
  session: liveSessionMachine,
  theme: themeMachine.provide({
    actions: {
      applyTheme: (_, params) => applyThemeClass(params.className),
      persistTheme: (_, params) => writeTheme(params.theme),
    },
  }),
  featurePreviews: featurePreviewsMachine.provide({
    actions: { persistPreviews: (_, params) => writePreviews(params.enabled) },
  }),
  commandMenu: commandMenuMachine,
  navBar: navBarMachine,
  projectList: liveProjectListMachine,
  accessTokens: preloadable(() => import('../api/live/accessTokens').then((m) => m.liveAccessTokensMachine)),
  organization: preloadable(() => import('../api/live/organization').then((m) => m.liveOrganizationMachine)),
  newProject: preloadable(() => import('../api/live/newProject').then((m) => m.liveNewProjectMachine)),
  projectStatus: liveProjectStatusMachine,
  resourceWarnings: liveResourceWarningsMachine,
  pauseProject: preloadable(() => import('../api/live/pauseProject').then((m) => m.livePauseProjectMachine)),
  upgradeAction: preloadable(() => import('../api/live/upgradeAction').then((m) => m.liveUpgradeActionMachine)),
  apiKeys: preloadable(() => import('../api/live/apiKeys').then((m) => m.liveApiKeysMachine)),
  sqlEditor: preloadable(() => import('../api/live/sqlEditor').then((m) => m.liveSqlEditorMachine)),
  tableEditor: preloadable(() => import('../api/live/tableEditor').then((m) => m.liveTableEditorMachine)),
  databaseTables: preloadable(() => import('../api/live/databaseTables').then((m) => m.liveDatabaseTablesMachine)),
  storageBuckets: preloadable(() => import('../api/live/storageBuckets').then((m) => m.liveStorageBucketsMachine)),
  edgeFunctions: preloadable(() => import('../api/live/edgeFunctions').then((m) => m.liveEdgeFunctionsMachine)),
  typeGeneration: preloadable(() => import('../api/live/typeGeneration').then((m) => m.liveTypeGenerationMachine)),
  apiDocs: preloadable(() => import('../api/live/apiDocs').then((m) => m.liveApiDocsMachine)),
  branchStatus: preloadable(() => import('../api/live/branchStatus').then((m) => m.liveBranchStatusMachine)),
}
