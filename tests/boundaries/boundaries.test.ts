/**
 * The architecture's import rules, enforced on every run (STYLE.md section 1 and "Imports point one way"):
 * no import cycle in src/ or machines/; machines import neither React nor src/api; views never import src/api;
 * the server and the dashboard never import each other, src/contracts being the only code they share; the view
 * folders depend one way (the shell on no other, layout and project not on each other); the HTTP client writes no
 * path (each call names its endpoint descriptor); the dashboard's code imports zod only as `zod/mini`.
 * And the zones (ZONES): the server's shared layers import no feature; a feature imports from another feature only
 * the shared set; a view folder imports no sibling; machines and src/api import no views. No breach is allowed.
 * A failure lists each offending import as 'file → imported (rule)' or each cycle's files.
 */
import { readFileSync } from 'node:fs'
import { join, posix, resolve } from 'node:path'
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

/** The server's shared layers: what every feature builds on, so none of them may depend on a feature. */
const SERVER_SHARED = ['src/server/core', 'src/server/engine', 'src/server/db', 'src/server/projectdb', 'src/server/gateway']
const FEATURES = 'src/server/features'
/**
 * What a feature may import from another feature: the middleware that resolves a `:ref` project or a `:slug`
 * organization with the caller's membership, the session (who is calling), and the Git hosting's one public module
 * (what branching reads of a repository). Everything else a feature needs from another is that feature's own
 * business: it moves to a shared layer, or the two features are one.
 */
export const FEATURE_SHARED_SET = [
  'src/server/features/projects/access.ts',
  'src/server/features/organizations/access.ts',
  'src/server/features/session',
  'src/server/features/github/index.ts',
]
const featureOf = (file: string) => (file.startsWith(`${FEATURES}/`) ? file.split('/')[3] : undefined)

/**
 * The view folders that compose pages, and so may import any of them: the route table, the frames that place a page
 * and the layout around it (nav bar, side menu, command menu), whose entries are the pages.
 */
export const VIEW_COMPOSERS = ['src/views/routes', 'src/views/frames', 'src/views/layout']
/** A view's zone: its part's folder (src/views/<area>/<part>, subfolders included), or its area's for a file directly in an area. */
export function viewZone(file: string): string {
  const folders = file.split('/').slice(2, -1)
  return ['src/views', ...folders.slice(0, 2)].join('/')
}
/**
 * A view may import the shell, its own zone, and the files directly in an enclosing area's folder (the area's own
 * shared files, as src/views/project/projectActor.ts is for every project part); the composers import any view.
 */
export function viewMayImport(imported: string, file: string): boolean {
  if (!under('src/views')(imported) || under('src/views/shell')(imported) || under(...VIEW_COMPOSERS)(file)) return true
  const zone = viewZone(file)
  if (zone !== 'src/views' && under(zone)(imported)) return true
  const folder = posix.dirname(imported)
  return folder !== 'src/views' && zone.startsWith(`${folder}/`)
}

export const ZONES: Rule[] = [
  { name: 'the server core imports no feature', from: under(...SERVER_SHARED), forbidden: under(FEATURES) },
  {
    name: 'a feature imports from another feature only the shared set',
    from: under(FEATURES),
    forbidden: (imported, file) => featureOf(imported) !== undefined && featureOf(imported) !== featureOf(file) && !under(...FEATURE_SHARED_SET)(imported),
  },
  { name: 'a view folder imports no sibling', from: under('src/views'), forbidden: (imported, file) => !viewMayImport(imported, file) },
  { name: 'machines and src/api import no views', from: under('machines', 'src/api'), forbidden: under('src/views') },
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

  it('keeps the zones: server core, features, view folders, machines and src/api import only what their zone may', () => {
    expect(violationsOf(graph, ZONES), 'imports that break a zone').toEqual([])
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

  it('names each import that breaks a zone, and lets each zone import what it may', () => {
    const zoned = graphOf({
      'src/server/core/cache.ts': `import { Row } from '../features/projects/store'\nimport { db } from '../db/store'`,
      'src/server/projectdb/index.ts': `import { t } from '../features/rest/api'`,
      'src/server/db/store.ts': '',
      'src/server/features/projects/store.ts': '',
      'src/server/features/projects/access.ts': '',
      'src/server/features/organizations/access.ts': '',
      'src/server/features/session/auth.ts': '',
      'src/server/features/rest/api.ts': `import { own } from './sql'\nimport { project } from '../projects/access'\nimport { member } from '../organizations/access'\nimport { session } from '../session/auth'\nimport { find } from '../projects/store'\nimport { pdb } from '../../projectdb/index'`,
      'src/server/features/rest/sql.ts': '',
      'src/views/shell/ui.tsx': '',
      'src/views/project/projectActor.ts': '',
      'src/views/project/apiDocs/Panel.tsx': `import { Button } from '../../shell/ui'\nimport { s } from './snippets/s'\nimport { actor } from '../projectActor'\nimport { Copy } from '../settings/Copy'\nimport { Nav } from '../../org/Nav'`,
      'src/views/project/apiDocs/snippets/s.ts': `import { Panel } from '../Panel'`,
      'src/views/project/settings/Copy.tsx': '',
      'src/views/org/Nav.tsx': `import { Page } from './integrations/Page'`,
      'src/views/org/integrations/Page.tsx': `import { Nav } from '../Nav'\nimport { actor } from '../../project/projectActor'`,
      'src/views/frames/Frame.tsx': `import { Panel } from '../project/apiDocs/Panel'\nimport { Nav } from '../org/Nav'`,
      'src/views/NotFound.tsx': `import { Nav } from './org/Nav'`,
      'machines/m.machine.ts': `import { Panel } from '../src/views/project/apiDocs/Panel'`,
      'src/api/live/m.ts': `import type { Nav } from '../../views/org/Nav'`,
    })
    expect(violationsOf(zoned, ZONES)).toEqual([
      'machines/m.machine.ts → src/views/project/apiDocs/Panel.tsx (machines and src/api import no views)',
      'src/api/live/m.ts → src/views/org/Nav.tsx (machines and src/api import no views)',
      'src/server/core/cache.ts → src/server/features/projects/store.ts (the server core imports no feature)',
      'src/server/features/rest/api.ts → src/server/features/projects/store.ts (a feature imports from another feature only the shared set)',
      'src/server/projectdb/index.ts → src/server/features/rest/api.ts (the server core imports no feature)',
      'src/views/NotFound.tsx → src/views/org/Nav.tsx (a view folder imports no sibling)',
      'src/views/org/integrations/Page.tsx → src/views/project/projectActor.ts (a view folder imports no sibling)',
      'src/views/project/apiDocs/Panel.tsx → src/views/project/settings/Copy.tsx (a view folder imports no sibling)',
      'src/views/project/apiDocs/Panel.tsx → src/views/org/Nav.tsx (a view folder imports no sibling)',
    ])
    expect(viewZone('src/views/project/apiDocs/snippets/s.ts')).toBe('src/views/project/apiDocs')
    expect(viewZone('src/views/org/Nav.tsx')).toBe('src/views/org')
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
