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
  pauseProject: preloadable(() => import('../api/live/pause').then((m) => m.livePauseProjectMachine)),
  upgradeAction: preloadable(() => import('../api/live/upgrade').then((m) => m.liveUpgradeActionMachine)),
  apiKeys: preloadable(() => import('../api/live/apiKeys').then((m) => m.liveApiKeysMachine)),
  sqlEditor: preloadable(() => import('../api/live/sqlEditor').then((m) => m.liveSqlEditorMachine)),
  sqlSnippets: preloadable(() => import('../api/live/sqlSnippets').then((m) => m.liveSqlSnippetsMachine)),
  tableEditor: preloadable(() => import('../api/live/tableEditor').then((m) => m.liveTableEditorMachine)),
  tableGrid: preloadable(() => import('../api/live/tableEditorGrid').then((m) => m.liveTableGridMachine)),
  tableForm: preloadable(() => import('../api/live/tableEditorGrid').then((m) => m.liveTableFormMachine)),
  tableImport: preloadable(() => import('../api/live/tableEditorGrid').then((m) => m.liveTableImportMachine)),
  databaseTables: preloadable(() => import('../api/live/databaseTables').then((m) => m.liveDatabaseTablesMachine)),
  databaseObjects: preloadable(() => import('../api/live/databaseObjects').then((m) => m.liveDatabaseObjectsMachine)),
  storageBuckets: preloadable(() => import('../api/live/storage').then((m) => m.liveStorageBucketsMachine)),
  storageExplorer: preloadable(() => import('../api/live/storageObjects').then((m) => m.liveStorageExplorerMachine)),
  authUsers: preloadable(() => import('../api/live/projectAuth').then((m) => m.liveAuthUsersMachine)),
  authEmails: preloadable(() => import('../api/live/projectAuth').then((m) => m.liveAuthEmailsMachine)),
  authSettings: preloadable(() => import('../api/live/projectAuth').then((m) => m.liveAuthSettingsMachine)),
  edgeFunctions: preloadable(() => import('../api/live/functions').then((m) => m.liveEdgeFunctionsMachine)),
  functionDetail: preloadable(() => import('../api/live/functionRuntime').then((m) => m.liveFunctionDetailMachine)),
  functionTest: preloadable(() => import('../api/live/functionRuntime').then((m) => m.liveFunctionTestMachine)),
  functionCreate: preloadable(() => import('../api/live/functionRuntime').then((m) => m.liveFunctionCreateMachine)),
  functionSecrets: preloadable(() => import('../api/live/functionRuntime').then((m) => m.liveFunctionSecretsMachine)),
  realtimeInspector: preloadable(() => import('../api/live/realtimeInspector').then((m) => m.liveRealtimeInspectorMachine)),
  realtimeChannels: preloadable(() => import('../api/live/realtime').then((m) => m.liveRealtimeChannelsMachine)),
  realtimeSettings: preloadable(() => import('../api/live/realtime').then((m) => m.liveRealtimeSettingsMachine)),
  typeGeneration: preloadable(() => import('../api/live/typeGeneration').then((m) => m.liveTypeGenerationMachine)),
  apiDocs: preloadable(() => import('../api/live/apiDocs').then((m) => m.liveApiDocsMachine)),
  githubIntegrations: preloadable(() => import('../api/live/githubIntegrations').then((m) => m.liveGitHubIntegrationsMachine)),
  repositoryRelink: preloadable(() => import('../api/live/repositoryRelink').then((m) => m.liveRepositoryRelinkMachine)),
  signUp: preloadable(() => import('../api/live/signUp').then((m) => m.liveSignUpMachine)),
  profile: preloadable(() => import('../api/live/profile').then((m) => m.liveProfileMachine)),
  members: preloadable(() => import('../api/live/members').then((m) => m.liveMembersMachine)),
  joinInvitation: preloadable(() => import('../api/live/joinInvitation').then((m) => m.liveJoinInvitationMachine)),
  organizationSettings: preloadable(() => import('../api/live/orgSettings').then((m) => m.liveOrganizationSettingsMachine)),
  planChange: preloadable(() => import('../api/live/orgSettings').then((m) => m.livePlanChangeMachine)),
  aiSettings: preloadable(() => import('../api/live/orgSettings').then((m) => m.liveAiSettingsMachine)),
  orgUsage: preloadable(() => import('../api/live/orgUsage').then((m) => m.liveOrgUsageMachine)),
  projectReports: preloadable(() => import('../api/live/projectReports').then((m) => m.liveProjectReportsMachine)),
  projectLogs: preloadable(() => import('../api/live/projectLogs').then((m) => m.liveProjectLogsMachine)),
  customDomain: preloadable(() => import('../api/live/settings').then((m) => m.liveCustomDomainMachine)),
  projectAddons: preloadable(() => import('../api/live/settings').then((m) => m.liveProjectAddonsMachine)),
  databaseSettings: preloadable(() => import('../api/live/settings').then((m) => m.liveDatabaseSettingsMachine)),
  connect: preloadable(() => import('../api/live/wire').then((m) => m.liveConnectMachine)),
  supportTicket: preloadable(() => import('../api/live/support').then((m) => m.liveSupportTicketMachine)),
  supportTickets: preloadable(() => import('../api/live/support').then((m) => m.liveSupportTicketsMachine)),
  branchStatus: preloadable(() => import('../api/live/branchStatus').then((m) => m.liveBranchStatusMachine)),
  branchingEnablement: preloadable(() => import('../api/live/branchingEnablement').then((m) => m.liveBranchingEnablementMachine)),
}
