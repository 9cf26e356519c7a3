/**
 * The platform's Git repositories on disk, and the reads the public Git hosting API answers (contents of a path at a
 * ref, branches, a branch by name) — the module the branching feature calls in-process; routes.ts serves the same
 * over HTTP. Every answer comes from git itself (`cat-file`, `ls-tree`, `for-each-ref`), so what a push changed is
 * what the next read sees.
 * Bare repositories live under one folder per store: DATA_DIR/git for PGlite, DATA_DIR/git/<database> for a
 * PostgreSQL store (several stores may share a DATA_DIR), each named by its repository's id (`<id>.git`): a name
 * never becomes a path, so no name can reach outside the folder.
 */
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { ServerConfig } from '../../config'
import { demoContents, fastImportStream, type DemoKind } from './demo'
import { CatFilePool } from './catFile'
import { git } from './exec'

export interface HostedRepository {
  id: number
  default_branch: string
  /** The demo content its folder starts with; null: an empty repository. */
  demo: string | null
}

export interface BranchHead {
  name: string
  sha: string
}

export interface TreeEntry {
  name: string
  path: string
  type: 'file' | 'dir' | 'symlink' | 'submodule'
  sha: string
  size: number
}

export type Contents =
  | { kind: 'dir'; entries: TreeEntry[] }
  | { kind: 'file'; entry: TreeEntry; content: Buffer }

/** The folder of this store's repositories. */
export function gitRootFor(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): string {
  if (!config.databaseUrl) return path.join(config.dataDir, 'git')
  const url = new URL(config.databaseUrl)
  const store = decodeURIComponent(url.pathname.replace(/^\//, '')) || decodeURIComponent(url.username) || 'postgres'
  return path.join(config.dataDir, 'git', `${url.hostname}_${url.port || '5432'}_${store}`.replace(/[^\w.-]/g, '_'))
}

/** A path inside a repository as the contents API takes it: relative, no `.`/`..` segment, no NUL. */
export function isSafeRepoPath(p: string): boolean {
  if (p === '') return true
  if (/[\u0000-\u001f\u007f]/.test(p) || p.startsWith('/') || p.endsWith('/') || p.includes('//')) return false
  return p.split('/').every((seg) => seg !== '.' && seg !== '..' && seg !== '')
}

const KIND_BY_MODE: Record<string, TreeEntry['type']> = { '40000': 'dir', '120000': 'symlink', '160000': 'submodule' }

/** A tree object's entries: `<mode> <name>\0<20-byte id>`, repeated. */
export function parseTree(tree: Buffer): { mode: string; name: string; sha: string }[] {
  const entries: { mode: string; name: string; sha: string }[] = []
  let at = 0
  while (at < tree.length) {
    const space = tree.indexOf(32, at)
    const nul = tree.indexOf(0, space)
    if (space < 0 || nul < 0 || nul + 21 > tree.length) throw new Error('malformed tree object')
    entries.push({
      mode: tree.subarray(at, space).toString('latin1'),
      name: tree.subarray(space + 1, nul).toString('utf8'),
      sha: tree.subarray(nul + 1, nul + 21).toString('hex'),
    })
    at = nul + 21
  }
  return entries
}

export class GitHost {
  /** Folders being made (demo content or an empty repository), so two requests make one. */
  private readonly making = new Map<number, Promise<string>>()
  /** The running `git cat-file` of each repository in use (catFile.ts). */
  private readonly objects = new CatFilePool()

  constructor(readonly root: string) {}

  dirOf(id: number): string {
    return path.join(this.root, `${id}.git`)
  }

  /** The repository's folder, made now if it does not exist yet (with its demo content when it has one). */
  async ensure(repo: HostedRepository): Promise<string> {
    const dir = this.dirOf(repo.id)
    if (existsSync(dir)) return dir
    let making = this.making.get(repo.id)
    if (!making) {
      making = this.make(repo, dir).finally(() => this.making.delete(repo.id))
      this.making.set(repo.id, making)
    }
    return making
  }

  /** Built in a temporary folder beside it and renamed into place, so a crash never leaves half a repository. */
  private async make(repo: HostedRepository, dir: string): Promise<string> {
    await mkdir(this.root, { recursive: true })
    const tmp = await mkdtemp(path.join(this.root, `.new-${repo.id}-`))
    try {
      // (git http-backend takes pushes because the platform names the REMOTE_USER it authorized: smartHttp.ts.)
      await git(['init', '--bare', '--quiet', `--initial-branch=${repo.default_branch}`, tmp])
      if (repo.demo !== null && repo.demo in demoContents) {
        await git(['fast-import', '--quiet', '--done'], { cwd: tmp, input: fastImportStream(repo.demo as DemoKind) })
      }
      try {
        await rename(tmp, dir)
      } catch (err) {
        // Another process made it first: theirs stands.
        if (!existsSync(dir)) throw err
      }
      return dir
    } finally {
      await rm(tmp, { recursive: true, force: true })
    }
  }

  async remove(id: number): Promise<void> {
    this.objects.forget(this.dirOf(id))
    await rm(this.dirOf(id), { recursive: true, force: true })
  }

  async branches(repo: HostedRepository): Promise<BranchHead[]> {
    const dir = await this.ensure(repo)
    const out = await git(['for-each-ref', '--format=%(objectname) %(refname:strip=2)', 'refs/heads'], { cwd: dir })
    return out
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const space = line.indexOf(' ')
        return { sha: line.slice(0, space), name: line.slice(space + 1) }
      })
      .sort((a, b) => a.name.localeCompare(b.name))
  }

  /** The branch's head commit, or undefined when the repository has no such branch. The name must be validated. */
  async branch(repo: HostedRepository, name: string): Promise<BranchHead | undefined> {
    const dir = await this.ensure(repo)
    const commit = await this.objects.ask(dir, 'info', `refs/heads/${name}^{commit}`)
    return commit && { name, sha: commit.sha }
  }

  /**
   * After a push: the repository's branch names, and HEAD made to name one that exists (the default branch
   * when it still does; else main, master or the first) — written as git writes a symbolic ref. Returns the
   * default branch, or undefined when the repository has no branch at all (nothing was stored).
   */
  async settleHead(id: number): Promise<string | undefined> {
    const dir = this.dirOf(id)
    if (!existsSync(dir)) return undefined
    const out = await git(['for-each-ref', '--format=%(refname:strip=2)', 'refs/heads'], { cwd: dir })
    const branches = out.toString('utf8').split('\n').filter(Boolean)
    if (branches.length === 0) return undefined
    const head = /^ref: refs\/heads\/(.+)$/m.exec(await readFile(path.join(dir, 'HEAD'), 'utf8'))?.[1]
    if (head !== undefined && branches.includes(head)) return head
    const branch = ['main', 'master'].find((b) => branches.includes(b)) ?? branches.sort()[0]
    await writeFile(path.join(dir, 'HEAD'), `ref: refs/heads/${branch}\n`)
    return branch
  }

  /**
   * What is at `repoPath` on `ref` (a branch name, or a commit id; the default branch when undefined): a directory's
   * entries (by name), or a file with its bytes; undefined when the ref or the path does not exist. Both must be
   * validated (BranchName, isSafeRepoPath): they reach git only on its standard input, never as options.
   */
  async contents(repo: HostedRepository, ref: string | undefined, repoPath: string): Promise<Contents | undefined> {
    const dir = await this.ensure(repo)
    const rev = ref === undefined ? `refs/heads/${repo.default_branch}` : /^[0-9a-f]{40}$/.test(ref) ? ref : `refs/heads/${ref}`
    const object = await this.objects.ask(dir, 'contents', `${rev}:${repoPath}`)
    if (!object?.content) return undefined
    const name = repoPath.split('/').pop() ?? ''
    if (object.type === 'blob') {
      return { kind: 'file', entry: { name, path: repoPath, type: 'file', sha: object.sha, size: object.size }, content: object.content }
    }
    if (object.type !== 'tree') return undefined
    const listed = parseTree(object.content)
    // A blob's size is not in its tree: asked of the same git, all at once (it answers in order).
    const sizes = await Promise.all(listed.map((e) => (e.mode === '100644' || e.mode === '100755' || e.mode === '120000' ? this.objects.ask(dir, 'info', e.sha) : undefined)))
    const entries = listed
      .map((e, i): TreeEntry => ({
        name: e.name,
        path: repoPath === '' ? e.name : `${repoPath}/${e.name}`,
        type: KIND_BY_MODE[e.mode] ?? 'file',
        sha: e.sha,
        size: sizes[i]?.size ?? 0,
      }))
      .sort((a, b) => a.name.localeCompare(b.name))
    return { kind: 'dir', entries }
  }

  /** Ends the processes reading repositories (the server is stopping). */
  close() {
    this.objects.closeAll()
  }
}
