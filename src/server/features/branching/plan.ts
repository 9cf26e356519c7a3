/**
 * The dry run of a git branch: what building a preview branch from it would run, read from the connected repository
 * in-process (the git room's GitHost) and compared with the parent's migration history.
 *  - the files of supabase/migrations named `<digits>_<name>.sql`, sorted by name, are the migrations (the CLI's
 *    rule); any other file there is skipped with a 'bad_name' warning;
 *  - warnings for what costs the platform's users hours: two files with one version, sequential numbers with a gap,
 *    a file new to the parent but older than the parent's latest migration, a version the parent recorded that the
 *    branch has no file for;
 *  - supabase/seed.sql present or not;
 *  - a read that fails becomes an error object {status, statusText} (500 when a file cannot be decoded) and the
 *    import is skipped with a warning (spec 8): the branch is then built with no migrations.
 */
import type { BranchingPlan, ContentFetchError, PlannedMigration, PlanWarning } from '../../../contracts/branching'
import { GitHost, isSafeRepoPath, type ConnectionRow, type HostedRepository } from '../github'
import { SEED_PATH } from './store'

export const MIGRATIONS_DIR = 'supabase/migrations'
const MIGRATION_FILE = /^(\d+)_(.+)\.sql$/

export interface MigrationFile {
  file: string
  version: string
  name: string
  sql: string
}

/** What the repository holds at one commit. */
export interface RepositoryRead {
  repository: string
  sha: string
  migrationsPath: string
  seedPath: string
  migrations: MigrationFile[]
  seed: string | null
  warnings: PlanWarning[]
  error: ContentFetchError | null
}

export const repositoryOf = (c: ConnectionRow): HostedRepository => ({ id: c.repository_id, default_branch: c.default_branch, demo: c.demo })
export const repositoryName = (c: ConnectionRow) => `${c.repository_owner}/${c.repository_name}`

/** The connection's workdir as a path prefix ('' for the repository's root). */
function prefixOf(workdir: string): string | undefined {
  const dir = workdir.replace(/^\.\/?/, '').replace(/\/+$/, '')
  if (dir === '') return ''
  return isSafeRepoPath(dir) ? `${dir}/` : undefined
}

const decoder = new TextDecoder('utf-8', { fatal: true })
const NOT_FOUND: ContentFetchError = { status: 404, statusText: 'Not Found' }
const PARSE_FAILURE: ContentFetchError = { status: 500, statusText: 'Internal Server Error' }

class FetchFailure extends Error {
  constructor(readonly error: ContentFetchError, message: string) {
    super(message)
  }
}

/**
 * Reads the migrations and the seed at `sha` (a commit of the connection's repository). Never throws for the
 * repository's contents: a failure is `error` plus an 'import_skipped' warning.
 */
export async function readRepository(host: GitHost, connection: ConnectionRow, sha: string): Promise<RepositoryRead> {
  const prefix = prefixOf(connection.workdir)
  const migrationsPath = `${prefix ?? ''}${MIGRATIONS_DIR}`
  const seedPath = `${prefix ?? ''}${SEED_PATH}`
  const read: RepositoryRead = {
    repository: repositoryName(connection),
    sha,
    migrationsPath,
    seedPath,
    migrations: [],
    seed: null,
    warnings: [],
    error: null,
  }
  const repo = repositoryOf(connection)
  const text = (content: Buffer, path: string) => {
    try {
      return decoder.decode(content)
    } catch {
      throw new FetchFailure(PARSE_FAILURE, `${path} is not UTF-8 text`)
    }
  }
  try {
    if (prefix === undefined) throw new FetchFailure(NOT_FOUND, `the connection's workdir '${connection.workdir}' is not a path of the repository`)
    const dir = await host.contents(repo, sha, migrationsPath)
    if (!dir || dir.kind !== 'dir') throw new FetchFailure(NOT_FOUND, `${read.repository} has no ${migrationsPath} directory`)
    const files: MigrationFile[] = []
    for (const entry of dir.entries) {
      if (entry.type !== 'file' || entry.name.startsWith('.')) continue
      const match = MIGRATION_FILE.exec(entry.name)
      if (!match) {
        read.warnings.push({
          code: 'bad_name',
          file: entry.name,
          message: `Skipping ${entry.name}: a migration's file name must be <version>_<name>.sql, the version all digits (e.g. 20240101120000_create_todos.sql)`,
        })
        continue
      }
      const content = await host.contents(repo, sha, entry.path)
      if (!content || content.kind !== 'file') throw new FetchFailure(NOT_FOUND, `${entry.path} could not be read`)
      files.push({ file: entry.name, version: match[1], name: match[2], sql: text(content.content, entry.path) })
    }
    read.migrations = files.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
  } catch (err) {
    const failure = err instanceof FetchFailure ? err : new FetchFailure(PARSE_FAILURE, (err as Error).message)
    read.migrations = []
    read.error = failure.error
    read.warnings.push({
      code: 'import_skipped',
      file: null,
      message: `Migration import skipped: ${failure.message} (${failure.error.status} ${failure.error.statusText})`,
    })
  }
  try {
    const seed = prefix === undefined ? undefined : await host.contents(repo, sha, seedPath)
    if (seed?.kind === 'file') read.seed = text(seed.content, seedPath)
  } catch (err) {
    read.warnings.push({ code: 'import_skipped', file: seedPath, message: `Seed import skipped: ${(err as Error).message}` })
  }
  return read
}

/** Warnings about the files' versions among themselves and against the parent's recorded ones. */
export function orderWarnings(files: MigrationFile[], parentVersions: readonly string[]): PlanWarning[] {
  const warnings: PlanWarning[] = []
  const seen = new Map<string, string>()
  for (const f of files) {
    const first = seen.get(f.version)
    if (first) {
      warnings.push({
        code: 'duplicate_version',
        file: f.file,
        message: `${f.file} has the version ${f.version} of ${first}: the migration history keeps one migration per version, so it fails`,
      })
    } else seen.set(f.version, f.file)
  }
  // Sequential numbering (0001, 0002 …) rather than timestamps: a skipped number is most likely a lost file.
  const numbers = [...seen.keys()].map(Number)
  if (numbers.length > 1 && [...seen.keys()].every((v) => v.length < 8)) {
    const sorted = [...new Set(numbers)].sort((a, b) => a - b)
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i] - sorted[i - 1] <= 1) continue
      const after = [...seen.entries()].find(([v]) => Number(v) === sorted[i])
      const before = [...seen.keys()].find((v) => Number(v) === sorted[i - 1])
      const missing = sorted[i] - sorted[i - 1] === 2 ? `${sorted[i - 1] + 1}` : `${sorted[i - 1] + 1}–${sorted[i] - 1}`
      warnings.push({
        code: 'gap',
        file: after?.[1] ?? null,
        message: `Gap in the migration numbers: nothing between ${before} and ${after?.[0]} (${missing} missing)`,
      })
    }
  }
  const recorded = new Set(parentVersions)
  const latest = [...parentVersions].sort(compareVersions).at(-1)
  for (const f of files) {
    if (recorded.has(f.version) || latest === undefined) continue
    if (compareVersions(f.version, latest) < 0) {
      warnings.push({
        code: 'out_of_order',
        file: f.file,
        message: `${f.file} is new to the parent but older than its latest migration ${latest}: pushing it to the parent needs --include-all`,
      })
    }
  }
  const versions = new Set(files.map((f) => f.version))
  for (const v of [...recorded].sort(compareVersions)) {
    if (!versions.has(v)) {
      warnings.push({
        code: 'missing_in_repository',
        file: v,
        message: `The parent has recorded migration ${v}, which this git branch has no file for`,
      })
    }
  }
  return warnings
}

/** Versions compare as numbers (digits only; a longer one is larger), then as text. */
export function compareVersions(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '')
  const y = b.replace(/^0+(?=\d)/, '')
  if (x.length !== y.length) return x.length - y.length
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0
}

export function toPlan(read: RepositoryRead, gitBranch: string, parentVersions: readonly string[]): BranchingPlan {
  const recorded = new Set(parentVersions)
  const migrations: PlannedMigration[] = read.migrations.map((m) => ({
    file: m.file,
    version: m.version,
    name: m.name,
    new_to_parent: !recorded.has(m.version),
  }))
  return {
    repository: read.repository,
    git_branch: gitBranch,
    migrations_path: read.migrationsPath,
    migrations,
    warnings: [...read.warnings, ...orderWarnings(read.migrations, parentVersions)],
    seed: { path: read.seedPath, present: read.seed !== null },
    error: read.error,
  }
}
