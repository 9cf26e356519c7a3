/** Where objects' bytes go: the S3-compatible store STORAGE_S3_URL names, else DATA_DIR/storage on this disk. */
import type { ServerConfig } from '../../config'
import type { ObjectBytes } from '../../core/objectBytes'
import { DiskObjects, storageRoot } from './disk'
import { S3Objects } from './s3'

export function objectBytesFor(config: Pick<ServerConfig, 'dataDir' | 'storageS3'>): ObjectBytes {
  return config.storageS3 ? new S3Objects(config.storageS3) : new DiskObjects(storageRoot(config.dataDir))
}
