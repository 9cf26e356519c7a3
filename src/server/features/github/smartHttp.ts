/**
 * The platform's repositories over Git's smart HTTP protocol, served by `git http-backend` (git's own server side:
 * protocol v0/v1/v2, shallow clones, gzip'd requests — everything a git client may ask, from the same git that
 * reads the repositories; isomorphic-git has no server side for receive-pack):
 *   GET  /git/{owner}/{repo}.git/info/refs?service=git-upload-pack|git-receive-pack
 *   POST /git/{owner}/{repo}.git/git-upload-pack | git-receive-pack
 * (`.git` may be left out). {owner} is an installation's account name (its organization's slug).
 * HTTP Basic authenticates every request, the password a personal access token (the user name is ignored; a Bearer
 * token works too): none, malformed, expired or revoked → 401 with WWW-Authenticate, so git asks for credentials.
 * Members of the installation's organization may fetch; pushing needs projects:write (Read-only: 403). A repository
 * of an organization the person does not belong to is 404, as one that does not exist. A push to a repository that
 * does not exist creates it in the installation — kept only if the push stored a branch, so a refused or failed
 * push leaves nothing behind. A request body over GIT_MAX_PUSH_BYTES is refused 413 while it streams (nothing is
 * stored: git receives the pack only whole). Received objects are checked as `git fsck` would (receive.fsckObjects):
 * a push with a tree entry named `.git`, `..` or holding `/` is refused whole, and git shows the person why.
 * The dumb protocol (plain file reads) is not served.
 * Not a cookie route: a browser's cookie never authenticates here, and the CSRF guard still refuses a cross-site
 * browser POST (git sends no Origin).
 */
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { PassThrough, Readable } from 'node:stream'
import type { ChildProcess } from 'node:child_process'
import { Hono, type Context } from 'hono'
import type { Deps } from '../../core/deps'
import { GIT_BODY_CEILING } from '../../core/guards'
import { errorJson, type AppEnv } from '../../core/http'
import { can } from '../../core/permissions'
import type { AccountRow } from '../../core/rows'
import { accountForAccessToken } from '../session/auth'
import { git, spawnGit } from './exec'
import type { GitHost } from './host'
import { deleteRepository, findInstallationByOwner, findRepositoryByName, insertRepository, setDefaultBranch } from './store'

const SMART_PATH = /^\/git\/([A-Za-z0-9][A-Za-z0-9_-]{0,99})\/([A-Za-z0-9_.-]{1,104}?)(?:\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/
/** A repository name a push may create (the store's check, in words). */
export const REPOSITORY_NAME = /^(?!\.+$)(?!.*\.git$)[A-Za-z0-9_.-]{1,100}$/
const SERVICES = new Set(['git-upload-pack', 'git-receive-pack'])
const REALM = 'Basic realm="Local platform Git", charset="UTF-8"'

function unauthorized(c: Context, message: string) {
  c.header('WWW-Authenticate', REALM)
  return errorJson(c, 401, message)
}

/** The personal access token of `Authorization: Basic <user:token>` (or `Bearer <token>`). */
export function tokenOf(header: string | undefined): string | undefined {
  if (!header) return undefined
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (bearer) return bearer[1]
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)
  if (!basic) return undefined
  const decoded = Buffer.from(basic[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  return colon < 0 ? undefined : decoded.slice(colon + 1)
}

/** A push's repository, and its default branch once the push is through (undefined: it holds no branch). */
interface PushOutcome {
  id: number
  defaultBranch?: string
}

interface CgiResponse {
  status: number
  headers: Headers
  body: Readable
}

/** Reads the CGI header block git http-backend writes, leaving the rest of its output as the body. */
function readCgi(stdout: Readable): Promise<CgiResponse> {
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0)
    const finish = (headEnd: number, sepLength: number) => {
      stdout.off('data', onData)
      stdout.off('end', onEnd)
      stdout.off('error', reject)
      stdout.pause()
      const head = buffered.subarray(0, headEnd).toString('latin1')
      const rest = buffered.subarray(headEnd + sepLength)
      const headers = new Headers()
      let status = 200
      for (const line of head.split(/\r?\n/)) {
        const colon = line.indexOf(':')
        if (colon < 0) continue
        const name = line.slice(0, colon).trim()
        const value = line.slice(colon + 1).trim()
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10) || 500
        else headers.append(name, value)
      }
      const body = new PassThrough()
      if (rest.length) body.write(rest)
      stdout.pipe(body)
      resolve({ status, headers, body })
    }
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk])
      const crlf = buffered.indexOf('\r\n\r\n')
      if (crlf >= 0) return finish(crlf, 4)
      const lf = buffered.indexOf('\n\n')
      if (lf >= 0) finish(lf, 2)
    }
    const onEnd = () => reject(new Error(`git http-backend ended without a header (${buffered.length} bytes)`))
    stdout.on('data', onData)
    stdout.on('end', onEnd)
    stdout.on('error', reject)
  })
}

/** Streams the request body into git's standard input, counting; false when it passed `limit` (git is then killed). */
async function feed(c: Context, child: ChildProcess, limit: number): Promise<boolean> {
  const stdin = child.stdin!
  stdin.on('error', () => {}) // git may stop reading early (a refused request); its answer says why.
  const body = c.req.raw.body
  if (!body) {
    stdin.end()
    return true
  }
  const reader = body.getReader()
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      child.kill('SIGKILL')
      return false
    }
    if (!stdin.write(value) && !stdin.destroyed) await Promise.race([once(stdin, 'drain'), once(child, 'close')])
  }
  stdin.end()
  return true
}

export function smartHttpRoutes({ db, clock, config }: Deps, host: GitHost) {
  const app = new Hono<AppEnv>()
  const limit = Math.min(config.gitMaxPushBytes, GIT_BODY_CEILING)
  const tooLarge = (c: Context) => {
    // The client may still be sending the rest: closing the connection ends that at once.
    c.header('Connection', 'close')
    return errorJson(c, 413, `The push is larger than this server accepts (${limit} bytes, GIT_MAX_PUSH_BYTES): nothing was stored`)
  }

  /** An empty repository, the advertisement a push to a repository that does not exist yet starts from. */
  let emptyRepo: Promise<string> | undefined
  const emptyRepository = () => {
    emptyRepo ??= (async () => {
      const dir = `${host.root}/empty.git`
      if (!existsSync(dir)) await git(['init', '--bare', '--quiet', '--initial-branch=main', dir])
      return dir
    })()
    return emptyRepo
  }

  app.on(['GET', 'POST'], '/git/*', async (c) => {
    const match = SMART_PATH.exec(c.req.path)
    if (!match) return errorJson(c, 404, 'Not a repository: clone http(s)://<this server>/git/<owner>/<repo>.git')
    const [, owner, repoName, action] = match
    const service = action === 'info/refs' ? (c.req.query('service') ?? '') : action
    if (!SERVICES.has(service)) {
      return errorJson(c, 403, 'Only the smart HTTP protocol is served: use git 1.6.6 or later')
    }
    if ((action === 'info/refs') !== (c.req.method === 'GET')) return errorJson(c, 405, `${action} takes ${action === 'info/refs' ? 'GET' : 'POST'}`)
    if (c.req.method === 'POST' && c.req.header('content-type') !== `application/x-${service}-request`) {
      return errorJson(c, 415, `The request body must be application/x-${service}-request`)
    }

    const token = tokenOf(c.req.header('authorization'))
    if (token === undefined) return unauthorized(c, 'Authentication required: the password is a personal access token')
    const account = await accountForAccessToken(db, token, clock.now())
    if (!account) return unauthorized(c, 'Invalid, expired or revoked access token')

    const push = service === 'git-receive-pack'
    const installation = await findInstallationByOwner(db, account.id, owner)
    const notFound = () => errorJson(c, 404, `Repository not found: ${owner}/${repoName}`)
    if (!installation?.role) return notFound()
    if (push && !can(installation.role, 'projects:write')) {
      return errorJson(c, 403, `Your role (${installation.role}) cannot push to ${installation.account_name}/${repoName}`)
    }
    const repo = await findRepositoryByName(db, account.id, owner, repoName)
    if (!repo && !push) return notFound()
    if (!repo && !REPOSITORY_NAME.test(repoName)) {
      return errorJson(c, 400, "A repository name is 1–100 letters, digits, dots, dashes or underscores, not only dots, not ending in '.git'")
    }

    // Nothing is created until a pack arrives: the advertisement of an empty repository, and git's probe before a
    // chunked push (a 4-byte flush packet, no command) answered from it too.
    if (!repo && (action === 'info/refs' || Number(c.req.header('content-length') ?? '-1') === 4)) {
      await emptyRepository()
      return backend(c, account, 'empty.git', action)
    }
    if (!repo) {
      if (Number(c.req.header('content-length') ?? '0') > limit) return tooLarge(c)
      const id = await insertRepository(db, installation.id, repoName, clock.now())
      if (id === undefined) return errorJson(c, 409, `${owner}/${repoName} was created by another push just now: push again`)
      await host.ensure({ id, default_branch: 'main', demo: null })
      const outcome: PushOutcome = { id }
      try {
        return await backend(c, account, `${id}.git`, action, outcome)
      } finally {
        // A push that stored no branch (refused, failed, too large) leaves no repository behind.
        if (outcome.defaultBranch === undefined) {
          await deleteRepository(db, id)
          await host.remove(id)
        }
      }
    }
    await host.ensure(repo)
    if (c.req.method === 'POST' && Number(c.req.header('content-length') ?? '0') > limit) return tooLarge(c)
    return backend(c, account, `${repo.id}.git`, action, push ? { id: repo.id } : undefined)
  })

  /**
   * Runs git http-backend for one request. A push's answer (a short status report) is read whole before it is sent,
   * so the repository's record is settled first; a fetch's (a pack) streams.
   */
  async function backend(c: Context, account: AccountRow, dirName: string, action: string, pushed?: PushOutcome) {
    const protocol = c.req.header('git-protocol')
    const encoding = c.req.header('content-encoding')
    const env: Record<string, string> = {
      GIT_PROJECT_ROOT: host.root,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: `/${dirName}/${action}`,
      REQUEST_METHOD: c.req.method,
      QUERY_STRING: new URL(c.req.url).search.replace(/^\?/, ''),
      CONTENT_TYPE: c.req.header('content-type') ?? '',
      REMOTE_USER: account.username,
      REMOTE_ADDR: '127.0.0.1',
      // A second line behind the streaming limit: git itself refuses a pack past it.
      GIT_CONFIG_COUNT: '2',
      GIT_CONFIG_KEY_0: 'receive.maxInputSize',
      GIT_CONFIG_VALUE_0: String(limit),
      // Every received object is checked as `git fsck` would, strictly (its warnings are errors): a tree with an
      // entry named '.git' (any case, or its NTFS and HFS+ spellings), '..' or '.', a name holding '/', an object
      // that does not parse (a name cannot hold NUL: a tree that tries does not parse). A pack that fails is
      // refused whole, before any ref moves, and its objects leave with the quarantine git received them into.
      GIT_CONFIG_KEY_1: 'receive.fsckObjects',
      GIT_CONFIG_VALUE_1: 'true',
    }
    if (c.req.header('content-length')) env.CONTENT_LENGTH = c.req.header('content-length')!
    if (encoding && /^(gzip|x-gzip)$/i.test(encoding)) env.HTTP_CONTENT_ENCODING = encoding
    if (protocol && /^[\w.:=,-]{1,100}$/.test(protocol)) env.HTTP_GIT_PROTOCOL = protocol
    const child = spawnGit(['http-backend'], { extraEnv: env })
    const exited = once(child, 'close').catch(() => [1])
    child.stderr!.resume()
    const cgi = readCgi(child.stdout!)
    cgi.catch(() => {})
    const fed = await feed(c, child, limit)
    if (!fed) {
      await exited
      return tooLarge(c)
    }
    const { status, headers, body } = await cgi
    if (!pushed) return new Response(Readable.toWeb(body) as ReadableStream, { status, headers })
    const chunks: Buffer[] = []
    for await (const chunk of body) chunks.push(chunk as Buffer)
    await exited
    pushed.defaultBranch = await host.settleHead(pushed.id)
    if (pushed.defaultBranch !== undefined) await setDefaultBranch(db, pushed.id, pushed.defaultBranch)
    return new Response(Buffer.concat(chunks), { status, headers })
  }

  return app
}
