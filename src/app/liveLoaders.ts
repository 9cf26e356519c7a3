/**
 * The machines only a later screen runs, each loaded with its live actors (src/api/live) and the contracts they
 * parse. This module is a chunk of its own, fetched with the first of them a session needs: its dynamic imports,
 * with the lists of chunks each one preloads, stay off the first load of a page (./logic.ts).
 */
import type { AppLogic, Loader } from '../views/shell/logic'

type OnDemand = { [K in keyof AppLogic as AppLogic[K] extends Loader<unknown> ? K : never]: AppLogic[K] }

export const LIVE_LOADERS = {
  accessTokens: () => import('../api/live/accessTokens').then((m) => m.liveAccessTokensMachine),
  organization: () => import('../api/live/organization').then((m) => m.liveOrganizationMachine),
  newProject: () => import('../api/live/newProject').then((m) => m.liveNewProjectMachine),
  pauseProject: () => import('../api/live/pause').then((m) => m.livePauseProjectMachine),
  upgradeAction: () => import('../api/live/upgrade').then((m) => m.liveUpgradeActionMachine),
  apiKeys: () => import('../api/live/apiKeys').then((m) => m.liveApiKeysMachine),
  sqlEditor: () => import('../api/live/sqlEditor').then((m) => m.liveSqlEditorMachine),
  sqlSnippets: () => import('../api/live/sqlSnippets').then((m) => m.liveSqlSnippetsMachine),
  tableEditor: () => import('../api/live/tableEditor').then((m) => m.liveTableEditorMachine),
  tableGrid: () => import('../api/live/tableEditorGrid').then((m) => m.liveTableGridMachine),
  tableForm: () => import('../api/live/tableEditorGrid').then((m) => m.liveTableFormMachine),
  tableImport: () => import('../api/live/tableEditorGrid').then((m) => m.liveTableImportMachine),
  databaseTables: () => import('../api/live/databaseTables').then((m) => m.liveDatabaseTablesMachine),
  databaseObjects: () => import('../api/live/databaseObjects').then((m) => m.liveDatabaseObjectsMachine),
  storageBuckets: () => import('../api/live/storage').then((m) => m.liveStorageBucketsMachine),
  storageExplorer: () => import('../api/live/storageObjects').then((m) => m.liveStorageExplorerMachine),
  authUsers: () => import('../api/live/projectAuth').then((m) => m.liveAuthUsersMachine),
  authEmails: () => import('../api/live/projectAuth').then((m) => m.liveAuthEmailsMachine),
  authSettings: () => import('../api/live/projectAuth').then((m) => m.liveAuthSettingsMachine),
  edgeFunctions: () => import('../api/live/functions').then((m) => m.liveEdgeFunctionsMachine),
  functionDetail: () => import('../api/live/functionRuntime').then((m) => m.liveFunctionDetailMachine),
  functionTest: () => import('../api/live/functionRuntime').then((m) => m.liveFunctionTestMachine),
  functionCreate: () => import('../api/live/functionRuntime').then((m) => m.liveFunctionCreateMachine),
  functionSecrets: () => import('../api/live/functionRuntime').then((m) => m.liveFunctionSecretsMachine),
  realtimeInspector: () => import('../api/live/realtimeInspector').then((m) => m.liveRealtimeInspectorMachine),
  typeGeneration: () => import('../api/live/typeGeneration').then((m) => m.liveTypeGenerationMachine),
  apiDocs: () => import('../api/live/apiDocs').then((m) => m.liveApiDocsMachine),
  githubIntegrations: () => import('../api/live/githubIntegrations').then((m) => m.liveGitHubIntegrationsMachine),
  repositoryRelink: () => import('../api/live/repositoryRelink').then((m) => m.liveRepositoryRelinkMachine),
  signUp: () => import('../api/live/signUp').then((m) => m.liveSignUpMachine),
  profile: () => import('../api/live/profile').then((m) => m.liveProfileMachine),
  members: () => import('../api/live/members').then((m) => m.liveMembersMachine),
  joinInvitation: () => import('../api/live/joinInvitation').then((m) => m.liveJoinInvitationMachine),
  organizationSettings: () => import('../api/live/orgSettings').then((m) => m.liveOrganizationSettingsMachine),
  planChange: () => import('../api/live/orgSettings').then((m) => m.livePlanChangeMachine),
  aiSettings: () => import('../api/live/orgSettings').then((m) => m.liveAiSettingsMachine),
  orgUsage: () => import('../api/live/orgUsage').then((m) => m.liveOrgUsageMachine),
  projectReports: () => import('../api/live/projectReports').then((m) => m.liveProjectReportsMachine),
  projectLogs: () => import('../api/live/projectLogs').then((m) => m.liveProjectLogsMachine),
  customDomain: () => import('../api/live/settings').then((m) => m.liveCustomDomainMachine),
  projectAddons: () => import('../api/live/settings').then((m) => m.liveProjectAddonsMachine),
  databaseSettings: () => import('../api/live/settings').then((m) => m.liveDatabaseSettingsMachine),
  connect: () => import('../api/live/wire').then((m) => m.liveConnectMachine),
  supportTicket: () => import('../api/live/support').then((m) => m.liveSupportTicketMachine),
  supportTickets: () => import('../api/live/support').then((m) => m.liveSupportTicketsMachine),
  branchStatus: () => import('../api/live/branchStatus').then((m) => m.liveBranchStatusMachine),
  branchingEnablement: () => import('../api/live/branchingEnablement').then((m) => m.liveBranchingEnablementMachine),
} satisfies Partial<OnDemand>

/** AppLogic's keys whose machine loads through this chunk. */
export type LiveLoaderName = keyof typeof LIVE_LOADERS
