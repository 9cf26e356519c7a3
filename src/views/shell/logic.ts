/**
 * The one wiring point of the machines: the app (src/app) provides every machine it runs with its live actors;
 * tests hand in other versions through the same context. Inside a project route the app provides it again with
 * the project's wiring (its pause and upgrade actions refresh that project). Views create their actors from it,
 * never call .provide() and never import src/api.
 * The machines of the page's shell and of the open project's lifecycle are there at once; those only a later screen
 * runs come as loaders, so their code (machine, live actors, contracts) stays off the first load: the screen reads
 * one with `useLoaded` (./lazy), behind its loading treatment.
 */
import { createContext, useContext } from 'react'
import type { accessTokensMachine } from '../../../machines/accessTokens.machine'
import type { apiKeysMachine } from '../../../machines/apiKeys.machine'
import type { commandMenuMachine } from '../../../machines/commandMenu.machine'
import type { featurePreviewsMachine } from '../../../machines/featurePreviews.machine'
import type { navBarMachine } from '../../../machines/navBar.machine'
import type { organizationMachine } from '../../../machines/organization.machine'
import type { pauseProjectMachine } from '../../../machines/pauseProject.machine'
import type { projectListMachine } from '../../../machines/projectList.machine'
import type { projectStatusMachine } from '../../../machines/projectStatus.machine'
import type { resourceWarningsMachine } from '../../../machines/resourceWarnings.machine'
import type { sessionMachine } from '../../../machines/session.machine'
import type { themeMachine } from '../../../machines/theme.machine'
import type { upgradeActionMachine } from '../../../machines/upgradeAction.machine'
import type { databaseTablesMachine } from '../../../machines/databaseTables.machine'
import type { databaseObjectsMachine } from '../../../machines/databaseObjects.machine'
import type { newProjectMachine } from '../../../machines/newProject.machine'
import type { sqlEditorMachine } from '../../../machines/sqlEditor.machine'
import type { sqlSnippetsMachine } from '../../../machines/sqlSnippets.machine'
import type { tableEditorMachine } from '../../../machines/tableEditor.machine'
import type { tableGridMachine } from '../../../machines/tableGrid.machine'
import type { tableFormMachine } from '../../../machines/tableForm.machine'
import type { tableImportMachine } from '../../../machines/tableImport.machine'
import type { edgeFunctionsMachine } from '../../../machines/edgeFunctions.machine'
import type { realtimeInspectorMachine } from '../../../machines/realtimeInspector.machine'
import type { realtimeChannelsMachine } from '../../../machines/realtimeChannels.machine'
import type { realtimeSettingsMachine } from '../../../machines/realtimeSettings.machine'
import type { storageBucketsMachine } from '../../../machines/storageBuckets.machine'
import type { functionCreateMachine } from '../../../machines/functionCreate.machine'
import type { functionDetailMachine } from '../../../machines/functionDetail.machine'
import type { functionSecretsMachine } from '../../../machines/functionSecrets.machine'
import type { functionTestMachine } from '../../../machines/functionTest.machine'
import type { storageExplorerMachine } from '../../../machines/storageExplorer.machine'
import type { authUsersMachine } from '../../../machines/authUsers.machine'
import type { authEmailsMachine } from '../../../machines/authEmails.machine'
import type { authSettingsMachine } from '../../../machines/authSettings.machine'
import type { typeGenerationMachine } from '../../../machines/typeGeneration.machine'
import type { apiDocsMachine } from '../../../machines/apiDocs.machine'
import type { githubIntegrationsMachine } from '../../../machines/githubIntegrations.machine'
import type { repositoryRelinkMachine } from '../../../machines/repositoryRelink.machine'
import type { signUpMachine } from '../../../machines/signUp.machine'
import type { profileMachine } from '../../../machines/profile.machine'
import type { membersMachine } from '../../../machines/members.machine'
import type { joinInvitationMachine } from '../../../machines/joinInvitation.machine'
import type { aiSettingsMachine } from '../../../machines/aiSettings.machine'
import type { organizationSettingsMachine } from '../../../machines/organizationSettings.machine'
import type { planChangeMachine } from '../../../machines/planChange.machine'
import type { orgUsageMachine } from '../../../machines/orgUsage.machine'
import type { projectReportsMachine } from '../../../machines/projectReports.machine'
import type { projectLogsMachine } from '../../../machines/projectLogs.machine'
import type { customDomainMachine } from '../../../machines/customDomain.machine'
import type { databaseSettingsMachine } from '../../../machines/databaseSettings.machine'
import type { connectMachine } from '../../../machines/connect.machine'
import type { projectAddonsMachine } from '../../../machines/projectAddons.machine'
import type { supportTicketMachine } from '../../../machines/supportTicket.machine'
import type { supportTicketsMachine } from '../../../machines/supportTickets.machine'
import type { branchStatusMachine } from '../../../machines/branchStatus.machine'
import type { branchingEnablementMachine } from '../../../machines/branchingEnablement.machine'

/** Loads a machine's code on demand; the same loader (by identity) loads once however often it is read. */
export type Loader<T> = () => Promise<T>

export interface AppLogic {
  // The page's shell.
  session: typeof sessionMachine
  theme: typeof themeMachine
  featurePreviews: typeof featurePreviewsMachine
  commandMenu: typeof commandMenuMachine
  navBar: typeof navBarMachine
  // Signed-in pages (all but the project list load with their screen).
  projectList: typeof projectListMachine
  accessTokens: Loader<typeof accessTokensMachine>
  organization: Loader<typeof organizationMachine>
  newProject: Loader<typeof newProjectMachine>
  // The open project (its lifecycle flows run as children of projectStatus); its settings' actions load with them.
  projectStatus: typeof projectStatusMachine
  resourceWarnings: typeof resourceWarningsMachine
  pauseProject: Loader<typeof pauseProjectMachine>
  upgradeAction: Loader<typeof upgradeActionMachine>
  apiKeys: Loader<typeof apiKeysMachine>
  // The project's database tools, loaded with their screens.
  sqlEditor: Loader<typeof sqlEditorMachine>
  sqlSnippets: Loader<typeof sqlSnippetsMachine>
  tableEditor: Loader<typeof tableEditorMachine>
  tableGrid: Loader<typeof tableGridMachine>
  tableForm: Loader<typeof tableFormMachine>
  tableImport: Loader<typeof tableImportMachine>
  databaseTables: Loader<typeof databaseTablesMachine>
  databaseObjects: Loader<typeof databaseObjectsMachine>
  // The project's products and 'Generate types', loaded with their screens.
  storageBuckets: Loader<typeof storageBucketsMachine>
  storageExplorer: Loader<typeof storageExplorerMachine>
  authUsers: Loader<typeof authUsersMachine>
  authEmails: Loader<typeof authEmailsMachine>
  authSettings: Loader<typeof authSettingsMachine>
  edgeFunctions: Loader<typeof edgeFunctionsMachine>
  // A function's page with its Test panel, 'Deploy a new function' and Edge Function Secrets.
  functionDetail: Loader<typeof functionDetailMachine>
  functionTest: Loader<typeof functionTestMachine>
  functionCreate: Loader<typeof functionCreateMachine>
  functionSecrets: Loader<typeof functionSecretsMachine>
  realtimeInspector: Loader<typeof realtimeInspectorMachine>
  realtimeChannels: Loader<typeof realtimeChannelsMachine>
  realtimeSettings: Loader<typeof realtimeSettingsMachine>
  typeGeneration: Loader<typeof typeGenerationMachine>
  // The API docs panel (dialog and /api page), loaded when first opened.
  apiDocs: Loader<typeof apiDocsMachine>
  // The organization's GitHub integration and the repository linker (org and project settings pages).
  githubIntegrations: Loader<typeof githubIntegrationsMachine>
  repositoryRelink: Loader<typeof repositoryRelinkMachine>
  // Accounts and members: sign-up, the profile, an organization's team, accepting an invitation.
  signUp: Loader<typeof signUpMachine>
  profile: Loader<typeof profileMachine>
  members: Loader<typeof membersMachine>
  joinInvitation: Loader<typeof joinInvitationMachine>
  // Organization settings and the plan change (their pages), and the AI settings dialog (loaded when first opened).
  organizationSettings: Loader<typeof organizationSettingsMachine>
  planChange: Loader<typeof planChangeMachine>
  aiSettings: Loader<typeof aiSettingsMachine>
  // Measured usage: the organization's usage page, a project's Reports and Logs, loaded with their screens.
  orgUsage: Loader<typeof orgUsageMachine>
  projectReports: Loader<typeof projectReportsMachine>
  projectLogs: Loader<typeof projectLogsMachine>
  // The project's custom domain, add-ons and database settings, and support tickets, loaded with their screens.
  customDomain: Loader<typeof customDomainMachine>
  projectAddons: Loader<typeof projectAddonsMachine>
  databaseSettings: Loader<typeof databaseSettingsMachine>
  // The project home's 'Connect' dialog, loaded when it first opens.
  connect: Loader<typeof connectMachine>
  supportTicket: Loader<typeof supportTicketMachine>
  supportTickets: Loader<typeof supportTicketsMachine>
  // The Branches page with its 'Enable database branching' modal (the child 'enablement'), loaded with the page.
  branchStatus: Loader<typeof branchStatusMachine>
  // The same modal hosted by the project layout (opened by the URL's `enableBranching` from anywhere else).
  branchingEnablement: Loader<typeof branchingEnablementMachine>
}

export const AppLogicContext = createContext<AppLogic | null>(null)

export function useAppLogic(): AppLogic {
  const logic = useContext(AppLogicContext)
  if (logic === null) throw new Error('useAppLogic must be used inside the app (AppLogicContext)')
  return logic
}
