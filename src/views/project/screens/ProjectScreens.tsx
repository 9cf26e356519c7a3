/**
 * The project screens by section, for the project frame: the settings pages with data (loaded with their
 * first visit, each with its machine) and the plain pages. Null for any other section.
 */
import type { ReactNode } from 'react'
import { lazyComponent } from '../../shell/lazy'
import { Loading } from '../../shell/ui'
import { isPlainSection, PlainProjectPage } from './PlainScreens'

const pageLoading = <Loading label="Loading page…" />
const AddonsSettingsPage = lazyComponent<object>(
  () => import('./SettingsScreens').then((m) => ({ default: m.AddonsSettingsPage })),
  pageLoading,
  (logic) => [logic.projectAddons],
)
const DatabaseSettingsPage = lazyComponent<object>(
  () => import('./SettingsScreens').then((m) => ({ default: m.DatabaseSettingsPage })),
  pageLoading,
  (logic) => [logic.databaseSettings],
)
const StorageSettingsPage = lazyComponent<object>(
  () => import('./SettingsScreens').then((m) => ({ default: m.StorageSettingsPage })),
  pageLoading,
  (logic) => [logic.storageBuckets],
)

export function projectScreenFor(section: string): ReactNode | null {
  if (section === 'settings/addons') return <AddonsSettingsPage />
  if (section === 'settings/database') return <DatabaseSettingsPage />
  if (section === 'settings/storage') return <StorageSettingsPage />
  if (isPlainSection(section)) return <PlainProjectPage section={section} />
  return null
}
