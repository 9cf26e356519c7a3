/** The machines the app runs, each with its live actors (src/api/live) or the browser's preferences. */
import { commandMenuMachine } from '../../machines/commandMenu.machine'
import { featurePreviewsMachine } from '../../machines/featurePreviews.machine'
import { navBarMachine } from '../../machines/navBar.machine'
import { themeMachine } from '../../machines/theme.machine'
import { liveAccessTokensMachine } from '../api/live/accessTokens'
import { liveApiKeysMachine } from '../api/live/apiKeys'
import { liveOrganizationMachine } from '../api/live/organization'
import { livePauseProjectMachine } from '../api/live/pauseProject'
import { liveProjectListMachine } from '../api/live/projectList'
import { liveProjectStatusMachine } from '../api/live/projectStatus'
import { liveResourceWarningsMachine } from '../api/live/resourceWarnings'
import { liveSessionMachine } from '../api/live/session'
import { liveUpgradeActionMachine } from '../api/live/upgradeAction'
import { liveDatabaseTablesMachine } from '../api/live/databaseTables'
import { liveNewProjectMachine } from '../api/live/newProject'
import { liveSqlEditorMachine } from '../api/live/sqlEditor'
import { liveTableEditorMachine } from '../api/live/tableEditor'
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
  accessTokens: liveAccessTokensMachine,
  organization: liveOrganizationMachine,
  newProject: liveNewProjectMachine,
  projectStatus: liveProjectStatusMachine,
  resourceWarnings: liveResourceWarningsMachine,
  pauseProject: livePauseProjectMachine,
  upgradeAction: liveUpgradeActionMachine,
  apiKeys: liveApiKeysMachine,
  sqlEditor: liveSqlEditorMachine,
  tableEditor: liveTableEditorMachine,
  databaseTables: liveDatabaseTablesMachine,
}
