/** What the browser remembers for the shell: the theme and the feature previews (localStorage, this device). */
import type { EnabledPreviews } from '../../machines/featurePreviews.machine'
import { THEMES, type Theme, type ThemeClass } from '../../machines/theme.machine'

const THEME_KEY = 'supabase-ui-theme'
const PREVIEWS_KEY = 'supabase-ui-feature-previews'

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

export function readTheme(): Theme {
  const value = storage()?.getItem(THEME_KEY)
  return THEMES.includes(value as Theme) ? (value as Theme) : 'system'
}

export function writeTheme(theme: Theme) {
  storage()?.setItem(THEME_KEY, theme)
}

export function readPreviews(): EnabledPreviews {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(PREVIEWS_KEY) ?? '{}')
    return parsed !== null && typeof parsed === 'object' ? (parsed as EnabledPreviews) : {}
  } catch {
    return {}
  }
}

export function writePreviews(enabled: EnabledPreviews) {
  storage()?.setItem(PREVIEWS_KEY, JSON.stringify(enabled))
}

const darkQuery = () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null)

export const systemPrefersDark = () => darkQuery()?.matches ?? false

/** Calls back when the system theme changes; returns the unsubscribe. */
export function onSystemThemeChange(listener: (dark: boolean) => void) {
  const query = darkQuery()
  if (!query) return () => {}
  const handler = (event: MediaQueryListEvent) => listener(event.matches)
  query.addEventListener?.('change', handler)
  return () => query.removeEventListener?.('change', handler)
}

export function applyThemeClass(className: ThemeClass) {
  const root = document.documentElement
  root.classList.remove('light', 'dark', 'deep-dark')
  root.classList.add(className)
  root.style.colorScheme = className === 'light' ? 'light' : 'dark'
}
