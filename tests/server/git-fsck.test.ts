/**
 * Pushes are checked as `git fsck` would check them (receive.fsckObjects): a tree with an entry named `.git` (any
 * case), `..`, or a name holding `/` or NUL is refused through a real git client, which shows why; the refused push
 * stores nothing (no repository, no branch, no object). A clean push still passes.
 */
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gitRootFor } from '../../src/server/features/github/host'
import { runGit } from '../../src/server/features/github/exec'
import { OWNER } from './helpers'
import { startGitPlatform, type GitTestPlatform } from './git-support'

let p: GitTestPlatform
let token: string
let owner: string

beforeAll(async () => {
  p = await startGitPlatform()
  owner = await p.s.signIn(OWNER)
  token = (await p.token(owner)).token
}, 120_000)
afterAll(() => p?.close())

/** Runs a plumbing command in `dir` (its stdin `input`); its standard output, trimmed. */
async function plumb(dir: string, args: string[], input?: Buffer | string): Promise<string> {
  const r = await runGit(args, { cwd: dir, input })
  expect(r.code, r.stderr).toBe(0)
  return r.stdout.toString('utf8').trim()
}

/**
 * A repository whose main holds one commit of a tree with one blob under `name` (raw bytes, so names git's own
 * tools would never write can be made), written with `hash-object --literally` as a hostile client could.
 */
async function repositoryWithEntry(name: Buffer): Promise<string> {
  const dir = await p.tempDir()
  await plumb(dir, ['init', '-q', '-b', 'main', '.'])
  const blob = await plumb(dir, ['hash-object', '-w', '--stdin'], 'hello\n')
  const tree = Buffer.concat([Buffer.from('100644 '), name, Buffer.from([0]), Buffer.from(blob, 'hex')])
  const treeId = await plumb(dir, ['hash-object', '-w', '-t', 'tree', '--literally', '--stdin'], tree)
  const commit = await plumb(dir, ['commit-tree', treeId, '-m', 'hostile'])
  await plumb(dir, ['update-ref', 'refs/heads/main', commit])
  return dir
}

async function storedRepository(name: string): Promise<boolean> {
  const { rows } = await p.s.db.query<{ n: number }>(`select count(*)::int as n from git_repositories where name = $1`, [name])
  return rows[0].n > 0
}

/** Objects stored in a bare repository's object folders (loose and packed). */
async function storedObjects(repositoryId: number): Promise<number> {
  const r = await runGit(['count-objects', '-v'], { cwd: path.join(gitRootFor(p.s.config), `${repositoryId}.git`) })
  const field = (key: string) => Number(new RegExp(`^${key}: (\\d+)$`, 'm').exec(r.stdout.toString('utf8'))?.[1] ?? 'NaN')
  return field('count') + field('in-pack')
}

describe('a push with a tree git fsck refuses', () => {
  const hostile: [string, Buffer, RegExp][] = [
    ['.git', Buffer.from('.git'), /dotgit|\.git/i],
    ['.GIT', Buffer.from('.GIT'), /dotgit|\.git/i],
    ['..', Buffer.from('..'), /dotdot|'\.\.'/i],
    ['a/b', Buffer.from('a/b'), /fullPathname|full pathname/i],
  ]

  it.each(hostile)('an entry named %s is refused with git’s reason, and no repository is created', async (label, name, reason) => {
    const dir = await repositoryWithEntry(name)
    const repo = `hostile-${label.replace(/[^a-z]/gi, '') || 'dotdot'}`
    const pushed = await p.git(['push', p.remote(token, 'demo-free', repo), 'main'], dir)
    expect(pushed.code).not.toBe(0)
    expect(pushed.stderr).toMatch(/remote rejected|unpack/i)
    expect(pushed.stderr).toMatch(reason)
    expect(await storedRepository(repo)).toBe(false)
  })

  it('a name holding NUL (a tree git cannot even send) is refused when the pack is sent by hand, and nothing is stored', async () => {
    const dir = await repositoryWithEntry(Buffer.from('a\0b'))
    const commit = await plumb(dir, ['rev-parse', 'main'])
    const tree = await plumb(dir, ['rev-parse', 'main^{tree}'])
    const blob = await plumb(dir, ['hash-object', '--stdin'], 'hello\n')
    // Listed one by one (no --revs), pack-objects packs the objects without reading the tree.
    const pack = (await runGit(['pack-objects', '--stdout'], { cwd: dir, input: `${commit}\n${tree}\n${blob}\n` })).stdout
    expect(pack.subarray(0, 4).toString()).toBe('PACK')
    const command = `${'0'.repeat(40)} ${commit} refs/heads/main\0report-status\n`
    const pktLine = (line: string) => `${(line.length + 4).toString(16).padStart(4, '0')}${line}`
    const res = await fetch(`${p.base}/git/demo-free/hostile-nul.git/git-receive-pack`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}`,
        'content-type': 'application/x-git-receive-pack-request',
      },
      body: Buffer.concat([Buffer.from(`${pktLine(command)}0000`), pack]),
    })
    const report = await res.text()
    expect(report).toMatch(/unpack (?!ok)/)
    expect(report).toMatch(/ng refs\/heads\/main/)
    expect(await storedRepository('hostile-nul')).toBe(false)
  })

  it('into an existing repository: refused, no branch made and no object kept', async () => {
    const { rows } = await p.s.db.query<{ id: number }>(`select id from git_repositories where name = 'landing-page'`)
    const id = rows[0].id
    // The first clone makes the demo repository's folder.
    expect((await p.git(['clone', '-q', p.remote(token, 'demo-free', 'landing-page'), path.join(await p.tempDir(), 'c')])).code).toBe(0)
    const before = await storedObjects(id)
    const dir = await repositoryWithEntry(Buffer.from('.git'))
    const pushed = await p.git(['push', p.remote(token, 'demo-free', 'landing-page'), 'main:hostile'], dir)
    expect(pushed.code).not.toBe(0)
    expect(pushed.stderr).toMatch(/dotgit|\.git/i)
    const branch = await p.s.request('/platform/git-api/repos/demo-free/landing-page/branches/hostile', { headers: { cookie: owner } })
    expect(branch.status).toBe(404)
    expect(await storedObjects(id)).toBe(before)
    // Nothing left in a quarantine folder either.
    const objects = await readdir(path.join(gitRootFor(p.s.config), `${id}.git`, 'objects'))
    expect(objects.filter((f) => f.startsWith('incoming-') || f.startsWith('tmp_objdir'))).toEqual([])
  })

  it('a clean push still passes', async () => {
    const dir = await repositoryWithEntry(Buffer.from('README.md'))
    const pushed = await p.git(['push', '-q', p.remote(token, 'demo-free', 'clean-push'), 'main'], dir)
    expect(pushed.code, pushed.stderr).toBe(0)
    expect(await storedRepository('clean-push')).toBe(true)
  })
})
