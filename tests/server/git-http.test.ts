/**
 * The platform's repositories over Git's smart HTTP protocol, with a real git client on a real port: clone of a
 * demo repository, push creating a repository, the contents API reading what was pushed, branches added and deleted
 * by pushes seen by the branch check, and the refusals: no token, a revoked token, a Read-only member's push,
 * another organization's repository, a push over the size limit (nothing stored).
 */
import { randomBytes } from 'node:crypto'
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Branch, ContentsResponse, FileContent, RepositoryList } from '../../src/contracts/github'
import { gitRootFor } from '../../src/server/features/github/host'
import { DEVELOPER, OWNER, READONLY, insertForeignOrganization } from './helpers'
import { startGitPlatform, type GitTestPlatform } from './git-support'

/** Small enough that the test's push of 300 kB passes it; the demo repositories are a few kB. */
const PUSH_LIMIT = 256 * 1024

let p: GitTestPlatform
let owner: string
let developer: string
let readonly: string
let ownerToken: string
let developerToken: string
let readonlyToken: string

beforeAll(async () => {
  p = await startGitPlatform({ gitMaxPushBytes: PUSH_LIMIT })
  ;[owner, developer, readonly] = await Promise.all([p.s.signIn(OWNER), p.s.signIn(DEVELOPER), p.s.signIn(READONLY)])
  ownerToken = (await p.token(owner)).token
  developerToken = (await p.token(developer)).token
  readonlyToken = (await p.token(readonly)).token
}, 120_000)
afterAll(() => p?.close())

async function repositories(cookie = owner): Promise<RepositoryList['repositories']> {
  const res = await p.s.request('/platform/integrations/github/repositories', { headers: { cookie } })
  expect(res.status).toBe(200)
  return RepositoryList.parse(await res.json()).repositories
}

async function contents(repo: string, repoPath: string, ref?: string) {
  const query = ref === undefined ? '' : `?ref=${encodeURIComponent(ref)}`
  const res = await p.s.request(`/platform/git-api/repos/${repo}/contents/${repoPath}${query}`, { headers: { cookie: owner } })
  return { status: res.status, body: (await res.json()) as unknown }
}

/** A work tree with one commit of `files` on main. */
async function workTree(files: Record<string, string | Buffer>): Promise<string> {
  const dir = await p.tempDir()
  expect((await p.git(['init', '-q', '-b', 'main', dir])).code).toBe(0)
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true })
    await writeFile(path.join(dir, name), content)
  }
  expect((await p.git(['add', '-A'], dir)).code).toBe(0)
  expect((await p.git(['commit', '-q', '-m', 'First'], dir)).code).toBe(0)
  return dir
}

describe('clone', () => {
  it("clones a demo repository with a token: notes-app's migrations on main and the feature/tags branch", async () => {
    const dir = path.join(await p.tempDir(), 'notes')
    const res = await p.git(['clone', '-q', p.remote(ownerToken, 'demo-free', 'notes-app'), dir])
    expect(res.code, res.stderr).toBe(0)
    const migrations = (await p.git(['ls-files', 'supabase/migrations'], dir)).stdout.trim().split('\n')
    expect(migrations.length).toBeGreaterThanOrEqual(3)
    for (const file of migrations) expect(path.basename(file)).toMatch(/^\d{14}_[a-z_]+\.sql$/)
    expect(await readFile(path.join(dir, 'supabase/seed.sql'), 'utf8')).toMatch(/insert into public\.notes/)
    const branches = (await p.git(['branch', '-r'], dir)).stdout
    expect(branches).toContain('origin/feature/tags')
    const onFeature = (await p.git(['ls-tree', '-r', '--name-only', 'origin/feature/tags', 'supabase/migrations'], dir)).stdout.trim().split('\n')
    expect(onFeature.length).toBe(migrations.length + 1)
  })

  it('answers 401 with WWW-Authenticate without a token, and git fails without asking', async () => {
    const res = await fetch(`${p.base}/git/demo-free/notes-app.git/info/refs?service=git-upload-pack`)
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/)
    const cloned = await p.git(['clone', '-q', p.remote(undefined, 'demo-free', 'notes-app'), path.join(await p.tempDir(), 'x')])
    expect(cloned.code).not.toBe(0)
  })

  it("a repository of an organization the person does not belong to is 404, as one that does not exist", async () => {
    const foreign = await insertForeignOrganization(p.s.db)
    const { rows } = await p.s.db.query<{ id: number }>(
      `insert into integration_installations (organization_id, integration, account_name, connection_owner, added_by, inserted_at)
       select o.id, 'GitHub', 'someone-else', 'someone', (select min(id) from accounts), now() from organizations o where o.slug = $1
       returning id`,
      [foreign.slug],
    )
    await p.s.db.query(`insert into git_repositories (installation_id, name, created_at) values ($1, 'secret', now())`, [rows[0].id])
    const auth = { authorization: `Basic ${Buffer.from(`x:${ownerToken}`).toString('base64')}` }
    for (const repo of ['someone-else/secret', 'demo-free/does-not-exist', 'nobody/secret']) {
      const res = await fetch(`${p.base}/git/${repo}.git/info/refs?service=git-upload-pack`, { headers: auth })
      expect(res.status, repo).toBe(404)
    }
    // Nor can a push create one in another organization's installation.
    const res = await fetch(`${p.base}/git/someone-else/new-one.git/info/refs?service=git-receive-pack`, { headers: auth })
    expect(res.status).toBe(404)
  })

  it('serves only the smart protocol', async () => {
    const auth = { authorization: `Basic ${Buffer.from(`x:${ownerToken}`).toString('base64')}` }
    expect((await fetch(`${p.base}/git/demo-free/notes-app.git/info/refs`, { headers: auth })).status).toBe(403)
    expect((await fetch(`${p.base}/git/demo-free/notes-app.git/HEAD`, { headers: auth })).status).toBe(404)
    // A push may create a repository only under a name the store takes.
    expect((await fetch(`${p.base}/git/demo-free/x.git.git/info/refs?service=git-receive-pack`, { headers: auth })).status).toBe(400)
  })
})

describe('push', () => {
  it('a push to a repository that does not exist creates it; the contents API returns the pushed files', async () => {
    const dir = await workTree({
      'README.md': '# mine\n',
      'supabase/migrations/20250101000000_first.sql': 'create table a (id int);\n',
      'supabase/migrations/20250102000000_second.sql': 'create table b (id int);\n',
    })
    const pushed = await p.git(['push', '-q', p.remote(developerToken, 'demo-free', 'pushed-app'), 'main'], dir)
    expect(pushed.code, pushed.stderr).toBe(0)

    const created = (await repositories()).find((r) => r.name === 'demo-free/pushed-app')
    expect(created).toMatchObject({ default_branch: 'main' })

    const listing = await contents('demo-free/pushed-app', 'supabase/migrations')
    expect(listing.status).toBe(200)
    const entries = ContentsResponse.parse(listing.body)
    expect(Array.isArray(entries) && entries.map((e) => [e.name, e.path, e.type])).toEqual([
      ['20250101000000_first.sql', 'supabase/migrations/20250101000000_first.sql', 'file'],
      ['20250102000000_second.sql', 'supabase/migrations/20250102000000_second.sql', 'file'],
    ])
    const file = await contents('demo-free/pushed-app', 'supabase/migrations/20250102000000_second.sql')
    const parsed = FileContent.parse(file.body)
    expect(Buffer.from(parsed.content, 'base64').toString('utf8')).toBe('create table b (id int);\n')
    expect(parsed.size).toBe(25)
    const clone = path.join(await p.tempDir(), 'again')
    expect((await p.git(['clone', '-q', p.remote(ownerToken, 'demo-free', 'pushed-app'), clone])).code).toBe(0)
    expect(await readFile(path.join(clone, 'README.md'), 'utf8')).toBe('# mine\n')
  })

  it("the contents API decodes a path once: 'a%25b.txt' is the file 'a%b.txt', in a repository named 'contents'", async () => {
    const dir = await workTree({ 'a%b.txt': 'percent\n', 'a%2525b.txt': 'literal\n', 'contents/inner.txt': 'inner\n' })
    const pushed = await p.git(['push', '-q', p.remote(ownerToken, 'demo-pro', 'contents'), 'main'], dir)
    expect(pushed.code, pushed.stderr).toBe(0)
    const text = async (repoPath: string) => {
      const res = await contents('demo-pro/contents', repoPath)
      expect(res.status, repoPath).toBe(200)
      return Buffer.from(FileContent.parse(res.body).content, 'base64').toString('utf8')
    }
    expect(await text('a%25b.txt')).toBe('percent\n')
    expect(await text('a%252525b.txt')).toBe('literal\n')
    expect(await text('contents/inner.txt')).toBe('inner\n')
    const listing = ContentsResponse.parse((await contents('demo-pro/contents', 'contents')).body)
    expect(Array.isArray(listing) && listing.map((e) => e.path)).toEqual(['contents/inner.txt'])
    expect((await contents('demo-pro/contents', 'a%b.txt')).status).toBe(400)
  })

  it('a repository whose first push is of another branch takes that branch as its default', async () => {
    const dir = await workTree({ 'a.txt': 'a\n' })
    expect((await p.git(['push', '-q', p.remote(ownerToken, 'demo-pro', 'trunk-app'), 'main:trunk'], dir)).code).toBe(0)
    expect((await repositories()).find((r) => r.name === 'demo-pro/trunk-app')?.default_branch).toBe('trunk')
    expect((await contents('demo-pro/trunk-app', 'a.txt')).status).toBe(200)
  })

  it('a branch pushed, then deleted by a push, is seen by the Git hosting API and the branch check', async () => {
    const dir = path.join(await p.tempDir(), 'landing')
    expect((await p.git(['clone', '-q', p.remote(ownerToken, 'demo-free', 'landing-page'), dir])).code).toBe(0)
    const branchUrl = '/platform/git-api/repos/demo-free/landing-page/branches/feature%2Fnew-hero'
    expect((await p.s.request(branchUrl, { headers: { cookie: owner } })).status).toBe(404)

    await writeFile(path.join(dir, 'hero.html'), '<h2>New</h2>\n')
    await p.git(['checkout', '-q', '-b', 'feature/new-hero'], dir)
    await p.git(['add', 'hero.html'], dir)
    await p.git(['commit', '-q', '-m', 'Hero'], dir)
    expect((await p.git(['push', '-q', 'origin', 'feature/new-hero'], dir)).code).toBe(0)
    const sha = (await p.git(['rev-parse', 'HEAD'], dir)).stdout.trim()
    const found = await p.s.request(branchUrl, { headers: { cookie: owner } })
    expect(found.status).toBe(200)
    expect(Branch.parse(await found.json()).commit.sha).toBe(sha)

    expect((await p.git(['push', '-q', 'origin', ':feature/new-hero'], dir)).code).toBe(0)
    expect((await p.s.request(branchUrl, { headers: { cookie: owner } })).status).toBe(404)
  })

  it("a Read-only member may clone but not push (403); a revoked token is 401", async () => {
    const dir = path.join(await p.tempDir(), 'ro')
    expect((await p.git(['clone', '-q', p.remote(readonlyToken, 'demo-free', 'landing-page'), dir])).code).toBe(0)
    await writeFile(path.join(dir, 'x.txt'), 'x\n')
    await p.git(['add', 'x.txt'], dir)
    await p.git(['commit', '-q', '-m', 'x'], dir)
    const refused = await p.git(['push', '-q', p.remote(readonlyToken, 'demo-free', 'landing-page'), 'main'], dir)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/403/)
    const auth = { authorization: `Basic ${Buffer.from(`readonly:${readonlyToken}`).toString('base64')}` }
    const res = await fetch(`${p.base}/git/demo-free/landing-page.git/info/refs?service=git-receive-pack`, { headers: auth })
    expect(res.status).toBe(403)
    // Nor may it create a repository.
    expect((await p.git(['push', '-q', p.remote(readonlyToken, 'demo-free', 'ro-new'), 'main'], dir)).code).not.toBe(0)
    expect((await repositories()).some((r) => r.name === 'demo-free/ro-new')).toBe(false)

    const revoked = await p.token(developer)
    const revoke = await p.s.request(`/platform/profile/access-tokens/${revoked.id}`, { method: 'DELETE', headers: { cookie: developer } })
    expect(revoke.status).toBeLessThan(300)
    const afterRevoke = await p.git(['push', '-q', p.remote(revoked.token, 'demo-free', 'landing-page'), 'main'], dir)
    expect(afterRevoke.code).not.toBe(0)
    expect(afterRevoke.stderr).toMatch(/Authentication failed|401/)
    const raw = await fetch(`${p.base}/git/demo-free/landing-page.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`x:${revoked.token}`).toString('base64')}` },
    })
    expect(raw.status).toBe(401)
    expect(raw.headers.get('www-authenticate')).toMatch(/^Basic/)
  })

  it('a push over GIT_MAX_PUSH_BYTES is refused 413 and stores nothing (no new repository, no new branch)', async () => {
    // Random bytes do not compress: the pack is as large as the file.
    const dir = await workTree({ 'big.bin': randomBytes(PUSH_LIMIT + 64 * 1024) })
    const refused = await p.git(['push', '-q', p.remote(ownerToken, 'demo-free', 'too-big'), 'main'], dir)
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toMatch(/413/)
    expect((await repositories()).some((r) => r.name === 'demo-free/too-big')).toBe(false)
    const { rows } = await p.s.db.query<{ n: number }>(`select count(*)::int as n from git_repositories where name = 'too-big'`)
    expect(rows[0].n).toBe(0)

    // Sent chunked (git does past http.postBuffer), the body is counted as it streams and cut off at the limit.
    const chunked = await p.git(['-c', 'http.postBuffer=65536', 'push', '-q', p.remote(ownerToken, 'demo-free', 'too-big'), 'main'], dir)
    expect(chunked.code).not.toBe(0)
    expect(chunked.stderr).toMatch(/413/)
    expect((await repositories()).some((r) => r.name === 'demo-free/too-big')).toBe(false)

    for (const postBuffer of ['1048576', '65536']) {
      const intoExisting = await p.git(['-c', `http.postBuffer=${postBuffer}`, 'push', '-q', p.remote(ownerToken, 'demo-free', 'landing-page'), 'main:big-branch'], dir)
      expect(intoExisting.code).not.toBe(0)
      expect(intoExisting.stderr).toMatch(/413/)
    }
    const branch = await p.s.request('/platform/git-api/repos/demo-free/landing-page/branches/big-branch', { headers: { cookie: owner } })
    expect(branch.status).toBe(404)
    // The folders on disk are the stored repositories' only: none left by the refused creation.
    const { rows: ids } = await p.s.db.query<{ id: number }>('select id from git_repositories')
    const known = new Set(ids.map((r) => `${r.id}.git`))
    const folders = (await readdir(gitRootFor(p.s.config))).filter((name) => /^\d+\.git$/.test(name))
    expect(folders.filter((name) => !known.has(name))).toEqual([])
  })

  it("a declared Content-Length over the limit is refused before git runs; other media types are refused", async () => {
    const auth = `Basic ${Buffer.from(`x:${ownerToken}`).toString('base64')}`
    const big = await fetch(`${p.base}/git/demo-free/landing-page.git/git-receive-pack`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-git-receive-pack-request' },
      body: Buffer.alloc(PUSH_LIMIT + 1),
    })
    expect(big.status).toBe(413)
    expect(((await big.json()) as { message: string }).message).toMatch(/larger than this server accepts/)
    const wrongType = await fetch(`${p.base}/git/demo-free/landing-page.git/git-receive-pack`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'text/plain' },
      body: '0000',
    })
    expect(wrongType.status).toBe(415)
  })

  it("git's media types pass only on the git routes: the API still takes JSON or nothing", async () => {
    const res = await p.s.request('/platform/integrations/github/connections', {
      method: 'POST',
      headers: { cookie: owner, 'content-type': 'application/x-git-receive-pack-request' },
      body: '0000',
    })
    expect(res.status).toBe(415)
  })
})

describe('the contents API', () => {
  it('reads a directory at a branch, a file, and answers 404 for a missing path or branch, 400 for a bad path or ref', async () => {
    const onFeature = ContentsResponse.parse((await contents('demo-free/notes-app', 'supabase/migrations', 'feature/tags')).body)
    const onMain = ContentsResponse.parse((await contents('demo-free/notes-app', 'supabase/migrations')).body)
    expect(Array.isArray(onFeature) && Array.isArray(onMain) && onFeature.length - onMain.length).toBe(1)
    const root = ContentsResponse.parse((await contents('demo-free/notes-app', '')).body)
    expect(Array.isArray(root) && root.map((e) => [e.name, e.type])).toEqual([
      ['README.md', 'file'],
      ['supabase', 'dir'],
    ])
    expect((await contents('demo-free/landing-page', 'supabase')).status).toBe(404)
    expect((await contents('demo-free/notes-app', 'supabase', 'no-such-branch')).status).toBe(404)
    // (A literal ../ is resolved by URL parsing before any server sees it; encoded, it reaches the check.)
    expect((await contents('demo-free/notes-app', 'supabase%2F..%2FREADME.md')).status).toBe(400)
    expect((await contents('demo-free/notes-app', 'supabase', 'a..b')).status).toBe(400)
    expect((await contents('demo-free/does-not-exist', 'supabase')).status).toBe(404)
  })

  it('the broken demo repository holds a migration that cannot apply', async () => {
    const listing = ContentsResponse.parse((await contents('demo-pro/broken-migrations', 'supabase/migrations')).body)
    expect(Array.isArray(listing) && listing.length).toBeGreaterThanOrEqual(3)
    const failing = FileContent.parse((await contents('demo-pro/broken-migrations', 'supabase/migrations/20240202080000_add_todo_owner.sql')).body)
    expect(Buffer.from(failing.content, 'base64').toString('utf8')).toMatch(/alter table public\.todo /)
  })
})
