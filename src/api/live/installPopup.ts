/**
 * The GitHub install step's popup (spec 9: 600x800, centred on the dashboard's window): opened on the platform's
 * install page; its page posts InstallPopupMessage to this window (same origin) when the installation is recorded.
 */
import { config } from '../../config'
import { INSTALL_POPUP, InstallPopupMessage, installPagePath } from '../../contracts/github'

export interface OpenerGeometry {
  screenX: number
  screenY: number
  outerWidth: number
  outerHeight: number
}

/** The window features of a 600x800 popup centred on the opener (never off its top or left edge). */
export function installPopupFeatures(opener: OpenerGeometry): string {
  const { width, height } = INSTALL_POPUP
  const left = Math.max(0, Math.round(opener.screenX + (opener.outerWidth - width) / 2))
  const top = Math.max(0, Math.round(opener.screenY + (opener.outerHeight - height) / 2))
  return `popup=yes,width=${width},height=${height},left=${left},top=${top}`
}

export const POPUP_BLOCKED = 'The install window could not open: allow pop-ups for this site and try again'

/**
 * Opens the install page for the organization and calls `onCompleted` when the page reports the installation
 * (a message of this origin, of the expected shape and organization); `onFailed` when the window cannot open.
 * Returns the clean-up: stops listening and closes a popup still open.
 */
export function openInstallPopup(slug: string, onCompleted: () => void, onFailed: (error: string) => void, win: Window = window): () => void {
  const popup = win.open(`${config.platformUrl}${installPagePath(slug)}`, 'github-install', installPopupFeatures(win))
  if (!popup) {
    onFailed(POPUP_BLOCKED)
    return () => {}
  }
  const listener = (event: MessageEvent) => {
    if (event.origin !== win.location.origin) return
    const message = InstallPopupMessage.safeParse(event.data)
    if (message.success && message.data.organization_slug === slug) onCompleted()
  }
  win.addEventListener('message', listener)
  return () => {
    win.removeEventListener('message', listener)
    if (!popup.closed) popup.close()
  }
}
