/**
 * The git room's pieces without a server: branch-name and repository-path rules, the token of an Authorization
 * header, tree objects, the demo's fast-import stream (read back by a real git), and the contracts' shapes.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { BranchName, ContentsResponse, CreateConnectionBody, installPagePath } from '../../src/contracts/github'
import { demoContents, fastImportStream } from '../../src/server/features/github/demo'
import { git } from '../../src/server/features/github/exec'
import { GitHost, isSafeRepoPath, parseTree } from '../../src/server/features/github/host'
import { installPage } from '../../src/server/features/github/installPage'
import { REPOSITORY_NAME, tokenOf } from '../../src/server/features/github/smartHttp'

describe('BranchName', () => {
  it.each(['main', 'feature/tags', 'release-1.2', 'fix_23', 'a/b/c'])('accepts %s', (name) => {
    expect(BranchName.safeParse(name).success).toBe(true)
  })
  it.each([
    ['', 'Branch name is required'],
    ['a..b', 'Branch name cannot contain ".."'],
    ['my branch', 'Branch name cannot contain spaces'],
    ['tab\tname', 'Branch name cannot contain spaces'],
    ['bell\u0007', 'Branch name cannot contain control characters'],
    ['del\u007f', 'Branch name cannot contain control characters'],
    ['a:b', undefined],
    ['-rf', undefined],
    ['x.lock', undefined],
    ['a//b', undefined],
    ['a/.hidden', undefined],
    ['trailing/', undefined],
    ['@', undefined],
    ['a@{1}', undefined],
  ])('refuses %j', (name, message) => {
    const result = BranchName.safeParse(name)
    expect(result.success).toBe(false)
    if (message) expect(result.error?.issues.map((i) => i.message)).toContain(message)
  })
})

describe('isSafeRepoPath', () => {
  it('takes relative paths inside the repository only', () => {
    for (const ok of ['', 'supabase', 'supabase/migrations', 'a b/c.sql']) expect(isSafeRepoPath(ok), ok).toBe(true)
    for (const bad of ['..', 'supabase/..', './x', '/etc', 'a//b', 'a/', 'a\nb', 'a\0b']) expect(isSafeRepoPath(bad), bad).toBe(false)
  })
})

describe('tokenOf', () => {
  const basic = (s: string) => `Basic ${Buffer.from(s).toString('base64')}`
  it('reads the password of Basic (any user name, a colon allowed in it) and a Bearer token', () => {
    expect(tokenOf(basic('x:sbp_abc'))).toBe('sbp_abc')
    expect(tokenOf(basic(':sbp_abc'))).toBe('sbp_abc')
    expect(tokenOf(basic('user:pa:ss'))).toBe('pa:ss')
    expect(tokenOf('Bearer sbp_abc')).toBe('sbp_abc')
    expect(tokenOf(basic('no-colon'))).toBeUndefined()
    expect(tokenOf('Digest x')).toBeUndefined()
    expect(tokenOf(undefined)).toBeUndefined()
  })
})

describe('the demo repositories', () => {
  it('fast-import builds them with their branches, and the host reads them back through git', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'kp-git-unit-'))
    const host = new GitHost(root)
    try {
      const repo = { id: 1, default_branch: 'main', demo: 'notes' }
      expect((await host.branches(repo)).map((b) => b.name)).toEqual(['feature/tags', 'main'])
      const migrations = await host.contents(repo, undefined, 'supabase/migrations')
      const names = migrations?.kind === 'dir' ? migrations.entries.map((e) => e.name) : []
      const expected = Object.keys(demoContents.notes.filter((c) => c.branch === 'main').reduce((all, c) => ({ ...all, ...c.files }), {}))
        .filter((f) => f.startsWith('supabase/migrations/'))
        .map((f) => path.basename(f))
        .sort()
      expect(names).toEqual(expected)
      expect(await host.branch(repo, 'nope')).toBeUndefined()
      // The same stream makes the same commits: the demo's commit ids are stable across data folders.
      const again = path.join(root, 'again.git')
      await git(['init', '--bare', '--quiet', again])
      await git(['fast-import', '--quiet', '--done'], { cwd: again, input: fastImportStream('notes') })
      const tip = (await git(['rev-parse', 'refs/heads/feature/tags'], { cwd: again })).toString().trim()
      expect((await host.branch(repo, 'feature/tags'))?.sha).toBe(tip)
    } finally {
      host.close()
      await rm(root, { recursive: true, force: true })
    }
  })

  it('parseTree reads a tree object', () => {
    const sha = 'ab'.repeat(20)
    const tree = Buffer.concat([Buffer.from('100644 a.sql\0'), Buffer.from(sha, 'hex'), Buffer.from('40000 dir\0'), Buffer.from(sha, 'hex')])
    expect(parseTree(tree)).toEqual([
      { mode: '100644', name: 'a.sql', sha },
      { mode: '40000', name: 'dir', sha },
    ])
    expect(() => parseTree(Buffer.from('100644 broken'))).toThrow(/malformed/)
  })
})

describe('the contracts', () => {
  it('a connection body takes a numeric repository id and a project ref', () => {
    expect(CreateConnectionBody.safeParse({ installation_id: 1, project_ref: 'abcdefghijabcdefghij', repository_id: 2 }).success).toBe(true)
    expect(CreateConnectionBody.safeParse({ installation_id: 1, project_ref: 'abcdefghijabcdefghij', repository_id: '2' }).success).toBe(false)
  })
  it('contents are a directory (an array) or one base64 file', () => {
    const entry = { name: 'a', path: 'a', type: 'file', sha: 'x', size: 1, download_url: null }
    expect(ContentsResponse.safeParse([entry]).success).toBe(true)
    expect(ContentsResponse.safeParse({ ...entry, encoding: 'base64', content: 'YQ==' }).success).toBe(true)
    expect(ContentsResponse.safeParse({ ...entry, content: 'YQ==' }).success).toBe(false)
  })
  it('the install page path carries the organization, escaped', () => {
    expect(installPagePath('demo free')).toBe('/integrations/github/install?organization_slug=demo%20free')
  })
  it('the install page escapes what it shows', () => {
    const html = installPage({ kind: 'confirm', slug: 'x', name: '<img src=x onerror=alert(1)>', installed: false })
    expect(html).not.toContain('<img')
    expect(html).toContain('&#60;img')
  })
})

describe('REPOSITORY_NAME', () => {
  it('takes what the store takes', () => {
    for (const ok of ['app', 'my-app_2', 'a.b', '.hidden-ish']) expect(REPOSITORY_NAME.test(ok), ok).toBe(true)
    for (const bad of ['', '.', '..', 'x.git', 'a/b', 'a b', 'x'.repeat(101)]) expect(REPOSITORY_NAME.test(bad), bad).toBe(false)
  })
})
