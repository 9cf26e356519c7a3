/**
 * The seeded store's builders (storeSnapshot.ts), imported once per run by whichever global setup needs them first.
 * Importing them loads the whole server, which took seconds in the vitest process, and each project's global setup
 * runs in a module graph of its own: a static import loaded the server again for every server project before any
 * file could start.
 */
import type * as Builders from './storeSnapshot'

const run = globalThis as { kpSnapshotBuilders?: Promise<typeof Builders> }

export const snapshotBuilders = (): Promise<typeof Builders> => (run.kpSnapshotBuilders ??= import('./storeSnapshot'))
