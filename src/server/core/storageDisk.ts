/**
 * Where projects' stored objects live on disk (DATA_DIR/storage/<ref>/objects/…, written by the storage service,
 * features/storage/disk.ts), and how many bytes a project keeps there: the usage pages' storage size.
 */
import fs from 'node:fs/promises'
import path from 'node:path'

export const storageRoot = (dataDir: string) => path.join(dataDir, 'storage')

/** Bytes of the object files a project keeps (objects of a paused project included: pausing keeps them). */
export async function projectStorageBytes(dataDir: string, ref: string): Promise<number> {
  const dir = path.join(storageRoot(dataDir), ref, 'objects')
  let shards: string[]
  try {
    shards = await fs.readdir(dir)
  } catch {
    return 0
  }
  let total = 0
  for (const shard of shards) {
    for (const name of await fs.readdir(path.join(dir, shard))) total += (await fs.stat(path.join(dir, shard, name))).size
  }
  return total
}

/** Removes every byte a project stored (its objects, partial uploads, temporary files): the project is deleted. */
export async function removeProjectStorage(dataDir: string, ref: string): Promise<void> {
  await fs.rm(path.join(storageRoot(dataDir), ref), { recursive: true, force: true })
}
