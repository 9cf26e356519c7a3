/**
 * The machines the app runs, each with its live actors (src/api/live) or the browser's preferences. Those only a
 * later screen runs are loaders: their code (machine, live actors, the contracts they parse) loads with that screen.
 */
import { commandMenuMachine } from '../../machines/commandMenu.machine'
import { featurePreviewsMachine } from '../../machines/featurePreviews.machine'
import { navBarMachine } from '../../machines/navBar.machine'
import { themeMachine } from '../../machines/theme.machine'
import { liveProjectListMachine, liveProjectStatusMachine } from '../api/live/projects'
import { liveResourceWarningsMachine } from '../api/live/resourceWarnings'
import { liveSessionMachine } from '../api/live/session'
import { preloadable } from '../views/shell/lazy'
import type { AppLogic, Loader } from '../views/shell/logic'
import type { LiveLoaderName } from './liveLoaders'
import { applyThemeClass, writePreviews, writeTheme } from './preferences'

/**
 * A later screen's machine: loaded through ./liveLoaders, the one chunk that holds those screens' imports, so the
 * first load carries one import instead of one per machine (each with the list of chunks it preloads). The first
 * machine a session needs costs one more small fetch; the others find that chunk already there.
 */
const onDemand = <K extends LiveLoaderName>(name: K): AppLogic[K] =>
  preloadable(() => import('./liveLoaders').then((m) => (m.LIVE_LOADERS[name] as Loader<unknown>)())) as AppLogic[K]

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
  accessTokens: onDemand('accessTokens'),
  organization: onDemand('organization'),
  newProject: onDemand('newProject'),
  projectStatus: liveProjectStatusMachine,
  resourceWarnings: liveResourceWarningsMachine,
  pauseProject: onDemand('pauseProject'),
  upgradeAction: onDemand('upgradeAction'),
  apiKeys: onDemand('apiKeys'),
  sqlEditor: onDemand('sqlEditor'),
  sqlSnippets: onDemand('sqlSnippets'),
  tableEditor: onDemand('tableEditor'),
  tableGrid: onDemand('tableGrid'),
  tableForm: onDemand('tableForm'),
  tableImport: onDemand('tableImport'),
  databaseTables: onDemand('databaseTables'),
  databaseObjects: onDemand('databaseObjects'),
  storageBuckets: onDemand('storageBuckets'),
  storageExplorer: onDemand('storageExplorer'),
  authUsers: onDemand('authUsers'),
  authEmails: onDemand('authEmails'),
  authSettings: onDemand('authSettings'),
  edgeFunctions: onDemand('edgeFunctions'),
  functionDetail: onDemand('functionDetail'),
  functionTest: onDemand('functionTest'),
  functionCreate: onDemand('functionCreate'),
  functionSecrets: onDemand('functionSecrets'),
  realtimeInspector: onDemand('realtimeInspector'),
  typeGeneration: onDemand('typeGeneration'),
  apiDocs: onDemand('apiDocs'),
  githubIntegrations: onDemand('githubIntegrations'),
  repositoryRelink: onDemand('repositoryRelink'),
  signUp: onDemand('signUp'),
  profile: onDemand('profile'),
  members: onDemand('members'),
  joinInvitation: onDemand('joinInvitation'),
  organizationSettings: onDemand('organizationSettings'),
  planChange: onDemand('planChange'),
  aiSettings: onDemand('aiSettings'),
  orgUsage: onDemand('orgUsage'),
  projectReports: onDemand('projectReports'),
  projectLogs: onDemand('projectLogs'),
  customDomain: onDemand('customDomain'),
  projectAddons: onDemand('projectAddons'),
  databaseSettings: onDemand('databaseSettings'),
  connect: onDemand('connect'),
  supportTicket: onDemand('supportTicket'),
  supportTickets: onDemand('supportTickets'),
  branchStatus: onDemand('branchStatus'),
  branchingEnablement: onDemand('branchingEnablement'),
}
