import { useLocation, useSearch } from 'wouter'
import { AI_SETTINGS_PARAM } from '../../../href'
import { lazyComponent } from '../../shell/lazy'
import { Loading } from '../../shell/ui'

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
