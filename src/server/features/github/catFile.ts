/**
 * Long-running `git cat-file --batch-command` processes, one per repository in use: a branch check or a contents
 * read is a line written to a git that is already running (a fraction of a millisecond) instead of a new git process
 * (milliseconds, and far more on a loaded machine). git reads refs and re-scans packs on every command, so a running
 * process sees every push, branch deletion and repack (tried with git 2.39). A process idle for IDLE_MS ends, at
 * most MAX_OPEN run at once (the least recently used ends first), and none keeps the server's process alive.
 */
import type { ChildProcess } from 'node:child_process'
import type { Socket } from 'node:net'
import { spawnGit } from './exec'

const IDLE_MS = 30_000
const MAX_OPEN = 16

export interface GitObject {
  sha: string
  type: 'blob' | 'tree' | 'commit' | 'tag'
  size: number
  /** With `contents` only. */
  content?: Buffer
}

interface Pending {
  withContent: boolean
  resolve(object: GitObject | undefined): void
  reject(err: Error): void
}

class CatFileProcess {
  private readonly child: ChildProcess
  private readonly pending: Pending[] = []
  private buffered: Buffer = Buffer.alloc(0)
  private header: GitObject | undefined
  private closed = false
  lastUsed = Date.now()

  constructor(dir: string, private readonly onClose: () => void) {
    this.child = spawnGit(['cat-file', '--batch-command'], { cwd: dir })
    for (const stream of [this.child.stdin, this.child.stdout, this.child.stderr]) (stream as Socket | null)?.unref?.()
    this.child.unref()
    this.child.stderr!.resume()
    this.child.stdout!.on('data', (chunk: Buffer) => this.read(chunk))
    this.child.stdin!.on('error', () => {})
    this.child.on('error', (err) => this.fail(err))
    this.child.on('close', () => this.fail(new Error('git cat-file ended')))
  }

  get busy(): boolean {
    return this.pending.length > 0
  }

  /** `rev` must hold no newline (callers pass validated branch names and paths). */
  ask(command: 'info' | 'contents', rev: string): Promise<GitObject | undefined> {
    if (this.closed) return Promise.reject(new Error('git cat-file ended'))
    this.lastUsed = Date.now()
    return new Promise((resolve, reject) => {
      this.pending.push({ withContent: command === 'contents', resolve, reject })
      this.child.stdin!.write(`${command} ${rev}\n`)
    })
  }

  private read(chunk: Buffer) {
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk
    for (;;) {
      const next = this.pending[0]
      if (!next) return
      if (!this.header) {
        const newline = this.buffered.indexOf(10)
        if (newline < 0) return
        const line = this.buffered.subarray(0, newline).toString('utf8')
        this.buffered = this.buffered.subarray(newline + 1)
        const parts = line.split(' ')
        if (parts.length !== 3 || !/^[0-9a-f]{40,64}$/.test(parts[0])) {
          // '<rev> missing' or '<rev> ambiguous'
          this.pending.shift()
          next.resolve(undefined)
          continue
        }
        this.header = { sha: parts[0], type: parts[1] as GitObject['type'], size: Number(parts[2]) }
        if (!next.withContent) {
          const object = this.header
          this.header = undefined
          this.pending.shift()
          next.resolve(object)
          continue
        }
      }
      const { size } = this.header
      if (this.buffered.length < size + 1) return
      const object = { ...this.header, content: Buffer.from(this.buffered.subarray(0, size)) }
      this.buffered = this.buffered.subarray(size + 1)
      this.header = undefined
      this.pending.shift()
      next.resolve(object)
    }
  }

  private fail(err: Error) {
    if (this.closed) return
    this.closed = true
    for (const p of this.pending.splice(0)) p.reject(err)
    this.onClose()
  }

  close() {
    if (this.closed) return
    this.child.stdin!.end()
    this.child.kill()
    this.fail(new Error('git cat-file closed'))
  }
}

export class CatFilePool {
  private readonly open = new Map<string, CatFileProcess>()
  private sweeper: NodeJS.Timeout | undefined

  /** One object of the repository in `dir`: its type and size (`info`), and its bytes (`contents`); undefined if missing. */
  ask(dir: string, command: 'info' | 'contents', rev: string): Promise<GitObject | undefined> {
    let proc = this.open.get(dir)
    if (!proc) {
      if (this.open.size >= MAX_OPEN) this.closeLeastRecent()
      const created: CatFileProcess = new CatFileProcess(dir, () => {
        if (this.open.get(dir) === created) this.open.delete(dir)
      })
      proc = created
      this.open.set(dir, proc)
      this.sweeper ??= setInterval(() => this.sweep(), IDLE_MS / 2).unref()
    }
    return proc.ask(command, rev)
  }

  /** Ends the process of a repository (deleted, or about to be). */
  forget(dir: string) {
    this.open.get(dir)?.close()
    this.open.delete(dir)
  }

  closeAll() {
    for (const proc of this.open.values()) proc.close()
    this.open.clear()
    if (this.sweeper) clearInterval(this.sweeper)
    this.sweeper = undefined
  }

  private sweep() {
    const cutoff = Date.now() - IDLE_MS
    for (const [dir, proc] of this.open) if (!proc.busy && proc.lastUsed < cutoff) this.forget(dir)
  }

  private closeLeastRecent() {
    let oldest: [string, CatFileProcess] | undefined
    for (const entry of this.open) if (!entry[1].busy && (!oldest || entry[1].lastUsed < oldest[1].lastUsed)) oldest = entry
    if (oldest) this.forget(oldest[0])
  }
}
