/**
 * Values the platform must give back in clear later (a project's Edge Function secrets: its functions need them), kept
 * encrypted at rest: AES-256-GCM under a key of the data folder, never in the store. A copy of the store (a dump, a
 * backup, another reader of the database) shows no value; the data folder holds the key. Each value is bound to where
 * it lives (`context`, authenticated but not encrypted), so a sealed value moved to another project or name does not
 * open.
 *
 * Stored form: `sealed:v1:<iv>:<tag>:<ciphertext>` (base64url). Anything else is a value written before sealing, read
 * as it is.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { ServerConfig } from '../config'
import { sha256 } from './secrets'

const PREFIX = 'sealed:v1:'

export interface SecretBox {
  seal(value: string, context: string): string
  /** The value in clear; throws when the stored value was not sealed with this key for this context. */
  open(stored: string, context: string): string
  isSealed(stored: string): boolean
}

/**
 * The key's file: one per data folder, and with DATABASE_URL one per store (its name carries a digest of the URL), so
 * every process that shares the data folder and the store uses the same key.
 */
export function sealKeyFile(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): string {
  return path.join(config.dataDir, config.databaseUrl ? `secrets-key-${sha256(config.databaseUrl).slice(0, 12)}` : 'secrets-key')
}

const boxes = new Map<string, Promise<SecretBox>>()

/** The data folder's box; its key is made on first use (mode 0600), or read when another process made it first. */
export function secretBoxFor(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): Promise<SecretBox> {
  const file = sealKeyFile(config)
  let box = boxes.get(file)
  if (!box) {
    box = loadKey(file).then(boxWith)
    boxes.set(file, box)
    box.catch(() => boxes.delete(file))
  }
  return box
}

async function loadKey(file: string): Promise<Buffer> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
  // 'wx': of two processes starting at once, one writes the key and the other reads it.
  await writeFile(file, randomBytes(32).toString('base64') + '\n', { flag: 'wx', mode: 0o600 }).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'EEXIST') throw err
  })
  const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64')
  if (key.length !== 32) throw new Error(`the secrets key ${file} is not 32 bytes of base64: restore it, or remove it only if no secret was set`)
  return key
}

function boxWith(key: Buffer): SecretBox {
  return {
    seal(value, context) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      cipher.setAAD(Buffer.from(context, 'utf8'))
      const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()])
      return PREFIX + [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join(':')
    },
    open(stored, context) {
      if (!stored.startsWith(PREFIX)) return stored
      const [iv, tag, data] = stored.slice(PREFIX.length).split(':').map((part) => Buffer.from(part, 'base64url'))
      if (!iv || !tag || !data || iv.length !== 12 || tag.length !== 16) throw new Error('a sealed value is malformed')
      const decipher = createDecipheriv('aes-256-gcm', key, iv)
      decipher.setAAD(Buffer.from(context, 'utf8'))
      decipher.setAuthTag(tag)
      try {
        return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8')
      } catch {
        // Never the value or the key: which key file to look at.
        throw new Error('a sealed value does not open with the data folder\'s secrets key (another data folder\'s key, or the value was moved)')
      }
    },
    isSealed: (stored) => stored.startsWith(PREFIX),
  }
}
