/** The URL parameter that opens the AI settings dialog over any project page (a link, a reload, the command menu). */
export const AI_SETTINGS_PARAM = 'aiSettings'

/** The current page's address with the AI settings dialog open. */
export const aiSettingsHref = (path: string) => `${path}?${AI_SETTINGS_PARAM}=open`
