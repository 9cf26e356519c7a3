/**
 * Running the `git` command for the platform's repositories. Every run gets an environment of its own: no system or
 * global configuration (the machine's, the person's ~/.gitconfig) and no inherited GIT_* variable can change what
 * the platform's repositories do, and the committer is the platform.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process'

/** The environment of every git the platform runs: PATH (to find git) and nothing of the caller's git settings. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LANG: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    HOME: '/nonexistent',
    GIT_AUTHOR_NAME: 'Local Platform',
    GIT_AUTHOR_EMAIL: 'platform@localhost',
    GIT_COMMITTER_NAME: 'Local Platform',
    GIT_COMMITTER_EMAIL: 'platform@localhost',
    ...extra,
  }
}

export function spawnGit(args: string[], options: SpawnOptions & { extraEnv?: Record<string, string> } = {}): ChildProcess {
  const { extraEnv, ...rest } = options
  return spawn('git', args, { stdio: ['pipe', 'pipe', 'pipe'], ...rest, env: gitEnv(extraEnv) })
}

export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message)
  }
}

export interface GitResult {
  code: number
  stdout: Buffer
  stderr: string
}

/** Runs git to the end; resolves with its exit code and output (a non-zero exit is the caller's to judge). */
export function runGit(args: string[], options: { cwd?: string; input?: string | Buffer; env?: Record<string, string> } = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(args, { cwd: options.cwd, extraEnv: options.env })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout!.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr!.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }))
    child.stdin!.on('error', () => {}) // git may exit before reading all of its input; its exit code tells.
    child.stdin!.end(options.input ?? '')
  })
}

/** Runs git and returns its standard output; a non-zero exit throws GitError with git's own words. */
export async function git(args: string[], options: { cwd?: string; input?: string | Buffer; env?: Record<string, string> } = {}): Promise<Buffer> {
  const result = await runGit(args, options)
  if (result.code !== 0) throw new GitError(`git ${args[0]} failed: ${result.stderr.trim()}`, result.code, result.stderr)
  return result.stdout
}
