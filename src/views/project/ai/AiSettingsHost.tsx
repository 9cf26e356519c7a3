import { useLocation, useSearch } from 'wouter'
import { lazyComponent } from '../../shell/lazy'
import { Loading } from '../../shell/ui'

/** The URL parameter that opens the AI settings dialog over any project page (a link, a reload, the command menu). */
export const AI_SETTINGS_PARAM = 'aiSettings'

/** The current page's address with the AI settings dialog open. */
export const aiSettingsHref = (path: string) => `${path}?${AI_SETTINGS_PARAM}=open`

const AiSettingsDialogHost = lazyComponent<{ projectRef: string; onClose: () => void }>(
  () => import('./AiSettingsDialog'),
  <Loading label="Loading AI settings…" />,
  (logic) => [logic.aiSettings],
)

/**
 * Hosted by the project layout: the dialog is open while the URL carries `aiSettings`; closing it goes back to the
 * page without it. Its code and machine load when first opened, off the project's first load.
 */
export function AiSettingsHost({ projectRef }: { projectRef: string }) {
  const [path, navigate] = useLocation()
  const open = new URLSearchParams(useSearch()).has(AI_SETTINGS_PARAM)
  return open ? <AiSettingsDialogHost projectRef={projectRef} onClose={() => navigate(path)} /> : null
}
