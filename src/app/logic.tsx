/** The machines the app runs, live by default; tests hand in versions with other actors. */
import { createContext, useContext } from 'react'
import { liveAccessTokensMachine, liveOrganizationMachine, liveProjectListMachine, liveSessionMachine } from '../api/shellActors'

export interface AppLogic {
  session: typeof liveSessionMachine
  projectList: typeof liveProjectListMachine
  accessTokens: typeof liveAccessTokensMachine
  organization: typeof liveOrganizationMachine
}

/** The clipboard is the browser's: a refusal (no permission, insecure origin) leaves the token on screen to copy by hand. */
const accessTokensWithClipboard = liveAccessTokensMachine.provide({
  actions: {
    copyToClipboard: (_, params) => {
      void navigator.clipboard?.writeText(params.text).catch(() => undefined)
    },
  },
})

export const LIVE_LOGIC: AppLogic = {
  session: liveSessionMachine,
  projectList: liveProjectListMachine,
  accessTokens: accessTokensWithClipboard,
  organization: liveOrganizationMachine,
}

export const AppLogicContext = createContext<AppLogic>(LIVE_LOGIC)
export const useAppLogic = () => useContext(AppLogicContext)
