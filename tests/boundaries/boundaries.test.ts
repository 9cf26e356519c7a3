/**
 * The architecture's import rules, enforced on every run (STYLE.md section 1 and "Imports point one way"):
 * no import cycle in src/ or machines/; machines import neither React nor src/api; views never import src/api;
 * the server and the dashboard never import each other, src/contracts being the only code they share; the view
 * folders depend one way (the shell on no other, layout and project not on each other); the HTTP client writes no
 * path (each call names its endpoint descriptor); the dashboard's code imports zod only as `zod/mini`.
 * A failure lists each offending import as 'file → imported (rule)' or each cycle's files.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cyclesOf, graphOf, graphOfRepo, specifiersOf, violationsOf, type Rule } from './importGraph'

// import.meta.url is not a file URL under happy-dom; the test file's folder is.
const ROOT = resolve(import.meta.dirname, '../..')

const under = (...dirs: string[]) => (file: string) => dirs.some((dir) => file === dir || file.startsWith(`${dir}/`))
const REACT = new Set(['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', '@xstate/react'])
const isReact = (imported: string) => REACT.has(imported)
const DASHBOARD = ['src/views', 'src/api', 'src/app', 'machines']

export const RULES: Rule[] = [
  { name: 'a machine imports no React', from: under('machines'), forbidden: isReact },
  { name: 'a machine imports no src/api', from: under('machines'), forbidden: under('src/api') },
  { name: 'a view imports no src/api', from: under('src/views'), forbidden: under('src/api') },
  { name: 'a view imports no HTTP client', from: under('src/views'), forbidden: (imported) => imported === 'ky' },
  {
    name: 'the shell of the views imports no other view folder',
    from: under('src/views/shell'),
    forbidden: (imported) => under('src/views')(imported) && !under('src/views/shell')(imported),
  },
  { name: 'the layout imports no project view', from: under('src/views/layout'), forbidden: under('src/views/project') },
  { name: 'a project view imports no layout', from: under('src/views/project'), forbidden: under('src/views/layout') },
  { name: 'the server imports no dashboard code', from: under('src/server'), forbidden: under(...DASHBOARD) },
  { name: 'the dashboard imports no server code', from: under(...DASHBOARD, 'src/contracts'), forbidden: under('src/server') },
  {
    name: 'the server shares only src/contracts',
    from: under('src/server'),
    forbidden: (imported) => !imported.startsWith('unresolved:') && imported.includes('/') && under('src', 'machines')(imported) && !under('src/server', 'src/contracts')(imported),
  },
  {
    name: 'an import resolves to a file',
    from: under('src', 'machines'),
    forbidden: (imported) => imported.startsWith('unresolved:'),
  },
]

/**
 * The dashboard's schemas are built with zod/mini: one import of classic `zod` (or a path under it other than
 * zod/mini) anywhere in the browser's code brings the whole classic build back into the first load (~16 kB gzip).
 * The server may use either.
 */
export const ZOD_MINI_RULE: Rule = {
  name: "the dashboard imports zod only as 'zod/mini'",
  from: under(...DASHBOARD, 'src/contracts'),
  forbidden: (imported) => /^zod(\/|$)/.test(imported) && imported !== 'zod/mini',
}

describe('import boundaries of the repository', () => {
  const graph = graphOfRepo(ROOT, ['src', 'machines'])

  it('reads the whole of src/ and machines/', () => {
    expect(graph.size).toBeGreaterThan(100)
    expect(graph.get('src/app/main.tsx')).toContain('src/app/App.tsx')
    expect(graph.get('machines/building.machine.ts')).toContain('machines/elapsed.machine.ts')
  })

  it('has no import cycle in src/ or machines/', () => {
    expect(cyclesOf(graph), 'import cycles (each list is one cycle’s files)').toEqual([])
  })

  it('keeps the layers apart: machines, views, server and dashboard import only what they may', () => {
    expect(violationsOf(graph, RULES), 'imports that break a boundary').toEqual([])
  })

  it("the dashboard's code (contracts, api, views, app, machines) imports zod only as zod/mini", () => {
    const zodImports = [...graph].filter(([file]) => under(...DASHBOARD, 'src/contracts')(file)).flatMap(([, imports]) => imports.filter((i) => /^zod(\/|$)/.test(i)))
    expect(zodImports, 'the contracts build their schemas with zod').toContain('zod/mini')
    expect(violationsOf(graph, [ZOD_MINI_RULE]), 'imports of zod other than zod/mini').toEqual([])
  })

  it('the HTTP client writes no path: every call names its endpoint descriptor', () => {
    const paths = [...graph.keys()]
      .filter(under('src/api'))
      .flatMap((file) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(/['"`]\/[A-Za-z:]/g)].map((match) => `${file}: ${match[0]}…`))
    expect(paths).toEqual([])
  })
})

describe('the import-graph analyser', () => {
  it('reads every form of import and export, skipping comments', () => {
    const code = `
      import a from './a'
      import { b, type B } from "./b"
      import type { C } from './c'
      import './d.css'
      export { e } from './e'
      export * from './f'
      export type { G } from './g'
      const h = await import('./h')
      type I = typeof import('./i')
      import {
        j,
        k,
      } from './jk'
      // import x from './commented'
      /* import y from './commented-block' */
      import React from 'react'
    `
    expect(specifiersOf(code)).toEqual(['./a', './b', './c', './d.css', './e', './f', './g', './h', './i', './jk', 'react'])
  })

  const sources = {
    'src/server/a.ts': `import { b } from './b'`,
    'src/server/b.ts': `import { c } from './sub/c'`,
    'src/server/sub/c.ts': `import { a } from '../a'\nimport { s } from '../../contracts/shared'`,
    'src/server/self.ts': `export * from './self'`,
    'src/contracts/shared.ts': `export const s = 1`,
    'src/contracts/index.ts': `export const i = 1`,
    'src/views/Page.tsx': `import { useSelector } from '@xstate/react'\nimport { fetchX } from '../api/client'\nimport { m } from '../../machines/m.machine'`,
    'src/api/client.ts': `import { m } from '../../machines/m.machine.js'\nimport { i } from '../contracts'`,
    'machines/m.machine.ts': `import { useEffect } from 'react'\nimport type { X } from '../src/api/client'\nimport { start } from '../src/server/b'`,
    'src/app/main.tsx': `import { Page } from '../views/Page'\nimport { gone } from './missing'\nimport './index.css'`,
  }
  const graph = graphOf(sources)

  it('resolves relative imports to files (extension, .js, index) and keeps packages by name', () => {
    expect(graph.get('src/server/sub/c.ts')).toEqual(['src/server/a.ts', 'src/contracts/shared.ts'])
    expect(graph.get('src/api/client.ts')).toEqual(['machines/m.machine.ts', 'src/contracts/index.ts'])
    expect(graph.get('src/views/Page.tsx')).toEqual(['@xstate/react', 'src/api/client.ts', 'machines/m.machine.ts'])
    expect(graph.get('src/app/main.tsx')).toEqual(['src/views/Page.tsx', 'unresolved:src/app/missing', 'src/app/index.css'])
  })

  it('names each import of zod other than zod/mini in dashboard code, the server left free', () => {
    const zod = graphOf({
      'src/contracts/a.ts': `import * as z from 'zod/mini'`,
      'src/contracts/b.ts': `import { z } from 'zod'`,
      'machines/c.machine.ts': `import type { ZodType } from 'zod/v4'`,
      'src/views/d.tsx': `const z = await import('zod')`,
      'src/api/e.ts': `import { zodish } from 'zodish'`,
      'src/server/f.ts': `import { z } from 'zod'`,
    })
    expect(violationsOf(zod, [ZOD_MINI_RULE])).toEqual([
      "machines/c.machine.ts → zod/v4 (the dashboard imports zod only as 'zod/mini')",
      "src/contracts/b.ts → zod (the dashboard imports zod only as 'zod/mini')",
      "src/views/d.tsx → zod (the dashboard imports zod only as 'zod/mini')",
    ])
  })

  it('finds every cycle, a file importing itself included', () => {
    expect(cyclesOf(graph)).toEqual([
      ['machines/m.machine.ts', 'src/api/client.ts'],
      ['src/server/a.ts', 'src/server/b.ts', 'src/server/sub/c.ts'],
      ['src/server/self.ts'],
    ])
    expect(cyclesOf(graphOf({ 'x.ts': `import './y'`, 'y.ts': `import './z'`, 'z.ts': '' }))).toEqual([])
  })

  it('names each import that breaks a rule', () => {
    expect(violationsOf(graph, RULES)).toEqual([
      'machines/m.machine.ts → react (a machine imports no React)',
      'machines/m.machine.ts → src/api/client.ts (a machine imports no src/api)',
      'machines/m.machine.ts → src/server/b.ts (the dashboard imports no server code)',
      'src/app/main.tsx → unresolved:src/app/missing (an import resolves to a file)',
      'src/views/Page.tsx → src/api/client.ts (a view imports no src/api)',
    ])
    const serverReachingOut = graphOf({ 'src/server/x.ts': `import { App } from '../app/App'\nimport { cfg } from '../config'`, 'src/app/App.tsx': '', 'src/config.ts': '' })
    expect(violationsOf(serverReachingOut, RULES)).toEqual([
      'src/server/x.ts → src/app/App.tsx (the server imports no dashboard code)',
      'src/server/x.ts → src/app/App.tsx (the server shares only src/contracts)',
      'src/server/x.ts → src/config.ts (the server shares only src/contracts)',
    ])
  })
})
