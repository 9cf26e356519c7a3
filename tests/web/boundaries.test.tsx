/**
 * The dashboard's import rules, checked on the source (TypeScript 7 has no lint integration): views render and
 * send events, machines are pure, the view folders depend one way, and the HTTP client writes no path.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder)).flatMap((name) => {
    const path = join(folder, name)
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })
}

/** What a file imports: packages by name, project files by their path from the repository root. */
function importsOf(file: string): string[] {
  const source = readFileSync(join(ROOT, file), 'utf8')
  const specifiers = [...source.matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)].map((match) => match[1])
  return specifiers.map((specifier) => (specifier.startsWith('.') ? relative(ROOT, resolve(ROOT, dirname(file), specifier)) : specifier))
}

function violations(folder: string, forbidden: (target: string) => boolean) {
  return sourceFiles(folder).flatMap((file) => importsOf(file).filter(forbidden).map((target) => `${file} → ${target}`))
}

const under = (folder: string) => (target: string) => target === folder || target.startsWith(`${folder}/`)
const anyOf =
  (...rules: Array<(target: string) => boolean>) =>
  (target: string) =>
    rules.some((rule) => rule(target))

describe('import boundaries', () => {
  it('views never import the HTTP client, ky or the server', () => {
    expect(violations('src/views', anyOf(under('src/api'), under('src/server'), under('ky')))).toEqual([])
  })

  it('machines import neither React nor the HTTP client', () => {
    expect(violations('machines', anyOf(under('react'), under('@xstate/react'), under('src/api'), under('src/server'), under('src/views')))).toEqual([])
  })

  it('the shell of the views imports no other view folder', () => {
    expect(violations('src/views/shell', (target) => under('src/views')(target) && !under('src/views/shell')(target))).toEqual([])
  })

  it('the layout and the project views do not import each other', () => {
    expect(violations('src/views/layout', under('src/views/project'))).toEqual([])
    expect(violations('src/views/project', under('src/views/layout'))).toEqual([])
  })

  it('the HTTP client writes no path: every call names its endpoint descriptor', () => {
    const paths = sourceFiles('src/api').flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/['"`]\/[A-Za-z:]/g)].map((match) => `${file}: ${match[0]}…`),
    )
    expect(paths).toEqual([])
  })
})
