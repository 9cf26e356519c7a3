/**
 * A small import-graph analyser for the boundary test. TypeScript 7 has no compiler API for tools to build on
 * (and dependency-cruiser needs Node 22), so this reads the sources itself: every `import … from`, `import '…'`,
 * `export … from` and `import('…')`, type-only ones included (a type import still ties one layer to another).
 * Relative specifiers are resolved to files; bare ones (packages) are kept as they are.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, posix, relative, sep } from 'node:path'

/** file (repo-relative, '/'-separated) → what it imports: repo-relative files, or package names. */
export type ImportGraph = Map<string, string[]>

const SOURCE = /\.(ts|tsx|mts|cts)$/
const ASSET = /\.(css|svg|png|jpe?g|gif|webp|json|woff2?)(\?.*)?$/
const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.mts', '/index.ts', '/index.tsx']

/** Comments out, strings and template literals kept (specifiers live in strings). */
function withoutComments(code: string): string {
  let out = ''
  let i = 0
  while (i < code.length) {
    const c = code[i]
    const next = code[i + 1]
    if (c === '/' && next === '/') {
      while (i < code.length && code[i] !== '\n') i++
    } else if (c === '/' && next === '*') {
      i += 2
      while (i < code.length && !(code[i] === '*' && code[i + 1] === '/')) i++
      i += 2
    } else if (c === '"' || c === "'" || c === '`') {
      const start = i++
      while (i < code.length && code[i] !== c) i += code[i] === '\\' ? 2 : 1
      out += code.slice(start, ++i)
    } else {
      out += c
      i++
    }
  }
  return out
}

const IMPORT_PATTERNS = [
  // import x from '…', import { a } from '…', import type { T } from '…', export { a } from '…', export * from '…'
  /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\sfrom\s*['"]([^'"]+)['"]/g,
  // import '…' (side effects)
  /\bimport\s*['"]([^'"]+)['"]/g,
  // import('…'), including `typeof import('…')`
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
]

/** The module specifiers a source file imports, in order of appearance, each once. */
export function specifiersOf(code: string): string[] {
  const text = withoutComments(code)
  const found: Array<[number, string]> = []
  for (const pattern of IMPORT_PATTERNS) {
    for (const match of text.matchAll(pattern)) found.push([match.index ?? 0, match[1]])
  }
  return [...new Set(found.sort((a, b) => a[0] - b[0]).map(([, specifier]) => specifier))]
}

/** A relative specifier resolved against the importing file, among the files that exist; null when none does. */
export function resolveSpecifier(from: string, specifier: string, exists: (file: string) => boolean): string | null {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier))
  const stem = base.replace(/\.js$/, '')
  for (const candidate of [base, ...RESOLVE_SUFFIXES.map((suffix) => stem + suffix)]) {
    if (SOURCE.test(candidate) && exists(candidate)) return candidate
  }
  return null
}

/** The graph of in-memory sources (file → code): what the analyser's own tests build on. */
export function graphOf(sources: Record<string, string>): ImportGraph {
  const exists = (file: string) => Object.hasOwn(sources, file)
  const graph: ImportGraph = new Map()
  for (const [file, code] of Object.entries(sources)) {
    graph.set(
      file,
      specifiersOf(code).map((specifier) => {
        if (!specifier.startsWith('.')) return specifier
        const path = posix.join(posix.dirname(file), specifier)
        // A stylesheet or another asset: a file, not a module of the graph.
        if (ASSET.test(specifier)) return path
        return resolveSpecifier(file, specifier, exists) ?? `unresolved:${path}`
      }),
    )
  }
  return graph
}

function sourceFiles(root: string, dir: string): string[] {
  const absolute = join(root, dir)
  if (!existsSync(absolute)) return []
  return readdirSync(absolute).flatMap((name) => {
    const path = join(absolute, name)
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(root, relative(root, path))
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [relative(root, path).split(sep).join('/')] : []
  })
}

/** The graph of the files under `dirs` of the repository at `root`. */
export function graphOfRepo(root: string, dirs: string[]): ImportGraph {
  const sources: Record<string, string> = {}
  for (const dir of dirs) for (const file of sourceFiles(root, dir)) sources[file] = readFileSync(join(root, file), 'utf8')
  return graphOf(sources)
}

/** The import cycles: strongly connected components of more than one file, or a file importing itself (Tarjan). */
export function cyclesOf(graph: ImportGraph): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (node: string) => {
    index.set(node, counter)
    low.set(node, counter++)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!))
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(component.sort())
    }
  }
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node)
  return cycles.sort((a, b) => a[0].localeCompare(b[0]))
}

export interface Rule {
  /** What the rule says, as the failure prints it. */
  name: string
  /** The importing files the rule applies to. */
  from: (file: string) => boolean
  /** An import these files must not have (a repo-relative file or a package name); `file` is the importing file. */
  forbidden: (imported: string, file: string) => boolean
}

/** Every import that breaks a rule, as 'file → imported (rule)'. */
export function violationsOf(graph: ImportGraph, rules: Rule[]): string[] {
  const found: string[] = []
  for (const [file, imports] of [...graph].sort(([a], [b]) => a.localeCompare(b))) {
    for (const rule of rules) {
      if (!rule.from(file)) continue
      for (const imported of imports) if (rule.forbidden(imported, file)) found.push(`${file} → ${imported} (${rule.name})`)
    }
  }
  return found
}
