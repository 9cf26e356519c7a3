/**
 * The API docs snippets' quoting and encoding rules (src/views/project/apiDocs/snippets/quote.ts), each checked by
 * reading its output back the way its reader does — the JavaScript parser, a shell's word splitting, URL decoding,
 * PostgREST's own select and filter parsers, supabase-js's select() — and the rules of which snippets an entity
 * gets. Running the snippets against a server is tests/server/api-docs-snippets.test.ts.
 */
import { URL as NodeURL } from 'node:url'
import { PostgrestClient } from '@supabase/postgrest-js'
import { parse as parseShell } from 'shell-quote'
import { describe, expect, it } from 'vitest'
import type { DocField, DocFunction, DocTable } from '../../machines/restDocs'
import type { Bucket } from '../../src/contracts/storage'
import { parseConditions, parseSelect } from '../../src/server/features/rest/query'
import {
  authSnippets,
  bucketSnippets,
  connectSnippets,
  edgeFunctionSnippets,
  functionSnippets,
  REALTIME_CLEANUP_TEXT,
  realtimeSnippets,
  tableSnippets,
} from '../../src/views/project/apiDocs/snippets'
import { exampleValue, insertFields, looksGenerated } from '../../src/views/project/apiDocs/snippets/examples'
import {
  filterKey,
  jsKey,
  jsonInline,
  jsString,
  jsUrlName,
  jsValue,
  pathSegment,
  postgrestName,
  queryPart,
  selectSurvivesClient,
  shellQuote,
  type Json,
} from '../../src/views/project/apiDocs/snippets/quote'
import { KEY_PLACEHOLDERS, type Snippet, type SnippetContext } from '../../src/views/project/apiDocs/snippets/types'

const NASTY = [
  'plain',
  'with space',
  "it's",
  'say "hi"',
  'back\\slash',
  '\\"',
  "'\\''",
  'tåble ünïcode 日本語 🍕',
  'q?uery&amp=1#frag%20%',
  'a,b:c(d)*e.f',
  'line\nbreak\r\ttab',
  '\u0000\u0001\u007f',
  'sep\u2028\u2029',
  'lone \ud800 high and \udc00 low',
  '$(rm -rf /) `x` $HOME !!',
  ' leading and trailing ',
  '.',
  '..',
  '->json',
  'name!hint',
  '...spread',
  'select',
  'x.or',
  '"quoted"',
  '',
]

const AsyncFunction = (async () => {}).constructor as new (...args: string[]) => (...args: unknown[]) => Promise<unknown>
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const evaluate = (source: string): unknown => new Function(`return (${source})`)()

describe('JavaScript source', () => {
  it('jsString is a single-quoted literal that evaluates to the string, on one line', () => {
    for (const s of NASTY) {
      const literal = jsString(s)
      expect(literal.startsWith("'") && literal.endsWith("'")).toBe(true)
      expect(literal).not.toMatch(/[\n\r\u2028\u2029]/)
      expect(evaluate(literal), JSON.stringify(s)).toBe(s)
    }
    expect(jsString("it's")).toBe("'it\\'s'")
    expect(jsString('tåble')).toBe("'tåble'")
    expect(jsString('🍕')).toBe("'🍕'")
  })

  it('jsKey is bare for identifiers, quoted otherwise, computed for __proto__', () => {
    expect(jsKey('title')).toBe('title')
    expect(jsKey('$x_1')).toBe('$x_1')
    expect(jsKey('my col')).toBe("'my col'")
    expect(jsKey('1st')).toBe("'1st'")
    expect(jsKey('__proto__')).toBe("['__proto__']")
    for (const name of [...NASTY, '__proto__', 'constructor']) {
      const obj = evaluate(`{ ${jsKey(name)}: 1 }`) as object
      expect(Object.getOwnPropertyNames(obj), JSON.stringify(name)).toEqual([name])
      expect(Object.getPrototypeOf(obj)).toBe(Object.prototype)
    }
  })

  it('jsValue and jsonInline give back the value', () => {
    const value: Json = { 'a b': [1, 2.5, true, null, 'x'], "it's": { nested: 'ü "q"' }, empty: {}, list: [], __proto__x: 'p' }
    expect(evaluate(jsValue(value))).toEqual(value)
    expect(JSON.parse(jsonInline(value))).toEqual(value)
    expect(jsValue({ title: 'Soup', n: 1 })).toBe("{ title: 'Soup', n: 1 }")
    expect(jsonInline({ title: 'Soup', n: [1] })).toBe('{ "title": "Soup", "n": [1] }')
    for (const s of NASTY) expect(JSON.parse(jsonInline({ [s]: s }))).toEqual({ [s]: s })
  })
})

describe('shell', () => {
  it("shellQuote is one single-quoted word, a quote written as '\\''", () => {
    expect(shellQuote("it's")).toBe("'it'\\''s'")
    for (const s of NASTY.filter((x) => !x.includes('\u0000'))) {
      expect(parseShell(shellQuote(s)), JSON.stringify(s)).toEqual([s])
      expect(parseShell(`curl ${shellQuote(s)} -H ${shellQuote(s)}`)).toEqual(['curl', s, '-H', s])
    }
  })
})

describe('URLs', () => {
  it('pathSegment decodes back, holds no reserved or quote character and no space', () => {
    for (const s of NASTY.filter((x) => !/[\ud800-\udfff]/.test(x))) {
      const seg = pathSegment(s)
      expect(decodeURIComponent(seg)).toBe(s)
      expect(seg).toMatch(/^[A-Za-z0-9\-_.!~*()%]*$/)
    }
    expect(pathSegment('odd "t" ?&#%')).toBe('odd%20%22t%22%20%3F%26%23%25')
    expect(pathSegment("it's")).toBe('it%27s')
  })

  it('queryPart keeps , and : readable and decodes back as a query', () => {
    expect(queryPart('a,b:c')).toBe('a,b:c')
    expect(queryPart('in.(1,2)')).toBe('in.(1,2)')
    expect(queryPart('a&b=c+d e#f')).toBe('a%26b%3Dc%2Bd%20e%23f')
    for (const s of NASTY.filter((x) => !/[\ud800-\udfff]/.test(x))) {
      const params = new URLSearchParams(`${queryPart(s)}=${queryPart(s)}`)
      expect([...params], JSON.stringify(s)).toEqual([[s, s]])
    }
  })

  it('jsUrlName survives the URL parser: the server decodes the name supabase-js was given', () => {
    // Not '.' and '..': the URL parser takes them (and %2E) as dot segments, so no client reaches such a table.
    for (const s of NASTY.filter((x) => x !== '' && x !== '.' && x !== '..' && !/[\ud800-\udfff]/.test(x))) {
      const url = new NodeURL(`http://127.0.0.1:8787/p/ref/rest/v1/${jsUrlName(s)}`)
      const segments = url.pathname.split('/')
      expect(segments.length, JSON.stringify(s)).toBe(6)
      expect(decodeURIComponent(segments[5]), JSON.stringify(s)).toBe(s)
      expect(url.search).toBe('')
      expect(url.hash).toBe('')
    }
    // Spaces, quotes and unicode are left to the URL parser: the name reads as it is.
    expect(jsUrlName('odd "quoted" tåble')).toBe('odd "quoted" tåble')
    expect(jsUrlName('a?b#c%d\\e/f')).toBe('a%3Fb%23c%25d%5Ce%2Ff')
    expect(jsUrlName(' x ')).toBe('%20x%20')
  })
})

describe("PostgREST's syntax", () => {
  it('postgrestName reads back as the one column in a select', () => {
    for (const s of NASTY.filter((x) => x !== '')) {
      expect(parseSelect(postgrestName(s)), JSON.stringify(s)).toEqual([{ kind: 'column', name: s }])
    }
    expect(postgrestName('title')).toBe('title')
    expect(postgrestName('a,b')).toBe('"a,b"')
    expect(postgrestName('say "hi"')).toBe('"say \\"hi\\""')
    const both = [postgrestName('a,b (c)'), postgrestName('välue "q"')].join(',')
    expect(parseSelect(both)).toEqual([
      { kind: 'column', name: 'a,b (c)' },
      { kind: 'column', name: 'välue "q"' },
    ])
  })

  it('filterKey is read as a filter on that column', () => {
    // A query cannot carry a lone surrogate (nor can a Postgres name hold one).
    for (const s of NASTY.filter((x) => !/[\ud800-\udfff]/.test(x))) {
      const [condition] = parseConditions(new URLSearchParams([[filterKey(s), 'eq.1']]))
      expect(condition, JSON.stringify(s)).toMatchObject({ kind: 'filter', column: s, op: 'eq', value: '1' })
    }
    expect(filterKey('title')).toBe('title')
    expect(filterKey('my col')).toBe('my col')
    expect(filterKey('select')).toBe('"select"')
    expect(filterKey('a->b')).toBe('"a->b"')
  })

  it("selectSurvivesClient tells whether supabase-js's select() keeps a select list as written", () => {
    const client = new PostgrestClient('http://127.0.0.1:8787/p/ref/rest/v1')
    const sent = (select: string) => (client.from('t').select(select) as unknown as { url: URL }).url.searchParams.get('select')
    const lists = [
      'title,description',
      postgrestName('välue "q"'),
      postgrestName('a "b" c'),
      postgrestName('one " quote'),
      [postgrestName('the key'), postgrestName('it\'s')].join(','),
      'a, b',
    ]
    for (const select of lists) expect(selectSurvivesClient(select), select).toBe(sent(select) === select)
    expect(selectSurvivesClient(postgrestName('one " quote'))).toBe(false)
    expect(selectSurvivesClient(postgrestName('välue "q"'))).toBe(true)
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Which snippets an entity gets

const CTX: SnippetContext = { projectUrl: 'http://127.0.0.1:8787/p/abcdefghijklmnopqrst', ...KEY_PLACEHOLDERS }
const REAL: SnippetContext = { projectUrl: 'http://127.0.0.1:8787/p/abcdefghijklmnopqrst/', anonKey: 'anon.real.key', serviceKey: 'service.real.key' }

const field = (name: string, type: string, format: string, required = false): DocField => ({ name, type, format, required, description: null })

const RECIPES: DocTable = {
  name: 'recipes',
  kind: 'table',
  rawKind: 'table',
  description: null,
  insertable: true,
  updatable: true,
  deletable: true,
  fields: [
    field('id', 'integer', 'int64', true),
    field('title', 'string', 'text', true),
    field('minutes', 'integer', 'int32', true),
    field('servings', 'integer', 'int32'),
    field('nutrition', 'json', 'jsonb'),
    field('tags', 'array', 'text[]'),
    field('created_at', 'string', 'timestamp with time zone', true),
  ],
}

const view = (flags: Partial<Pick<DocTable, 'insertable' | 'updatable' | 'deletable'>>): DocTable => ({
  ...RECIPES,
  name: 'recipe_summaries',
  kind: 'view',
  rawKind: 'view',
  insertable: false,
  updatable: false,
  deletable: false,
  ...flags,
})

const ids = (snippets: Snippet[]) => snippets.map((s) => s.id)
const WRITES = ['insert-a-row', 'insert-many-rows', 'update-matching-rows', 'delete-matching-rows']
const SUBSCRIBES = ['subscribe-to-inserts', 'subscribe-to-updates', 'subscribe-to-deletes', 'subscribe-to-all-changes']

function bucket(name: string, isPublic: boolean): Bucket {
  return { id: name, name, owner: '', public: isPublic, allowed_mime_types: null, file_size_limit: null, created_at: '', updated_at: '' }
}

const RATE: DocFunction = {
  name: 'rate_recipe',
  path: '/rpc/rate_recipe',
  summary: 'Rates a recipe from 1 to 5 stars.',
  description: null,
  hasGet: false,
  parameters: [
    { name: 'recipe', format: 'bigint', type: 'integer', required: true },
    { name: 'score', format: 'integer', type: 'integer', required: true },
    { name: 'rater_name', format: 'text', type: 'string', required: false },
  ],
}

const EDGE = { id: 'f', slug: 'hello-world', name: 'Hello', status: 'ACTIVE' as const, version: 1, created_at: 0, updated_at: 0 }

function everyPage(ctx: SnippetContext): Snippet[][] {
  return [
    connectSnippets(ctx),
    authSnippets(ctx),
    tableSnippets(RECIPES, ctx),
    tableSnippets(view({ insertable: true, updatable: true, deletable: true }), ctx),
    tableSnippets(view({}), ctx),
    functionSnippets(RATE, ctx),
    bucketSnippets(bucket('avatars', true), ctx),
    bucketSnippets(bucket('private', false), ctx),
    edgeFunctionSnippets(EDGE, ctx),
    realtimeSnippets(ctx),
  ]
}

describe('the snippets of each entity', () => {
  it('a table gets reads, filters, the Range page, writes and subscriptions', () => {
    expect(ids(tableSnippets(RECIPES, CTX))).toEqual([
      'read-all-rows',
      'read-specific-columns',
      'filter-equal',
      'filter-range',
      'filter-pattern',
      'filter-in',
      'filter-null',
      'paginate',
      ...WRITES,
      ...SUBSCRIBES,
    ])
  })

  it('a view gets writes only where its flags say, and subscriptions only when updatable', () => {
    const readOnly = ids(tableSnippets(view({}), CTX))
    expect(readOnly.filter((id) => WRITES.includes(id) || SUBSCRIBES.includes(id))).toEqual([])
    expect(readOnly).toContain('read-all-rows')
    const insertOnly = ids(tableSnippets(view({ insertable: true }), CTX))
    expect(insertOnly.filter((id) => WRITES.includes(id) || SUBSCRIBES.includes(id))).toEqual(['insert-a-row', 'insert-many-rows'])
    const updatable = ids(tableSnippets(view({ updatable: true }), CTX))
    expect(updatable.filter((id) => WRITES.includes(id) || SUBSCRIBES.includes(id))).toEqual(['update-matching-rows', ...SUBSCRIBES])
    const deletable = ids(tableSnippets(view({ deletable: true }), CTX))
    expect(deletable.filter((id) => WRITES.includes(id) || SUBSCRIBES.includes(id))).toEqual(['delete-matching-rows'])
  })

  it('a public bucket has no signed URL, a private one no public URL', () => {
    expect(ids(bucketSnippets(bucket('avatars', true), CTX))).toEqual(['upload-a-file', 'download-a-file', 'list-files', 'retrieve-public-url', 'delete-files'])
    expect(ids(bucketSnippets(bucket('private', false), CTX))).toEqual(['upload-a-file', 'download-a-file', 'list-files', 'create-a-signed-url', 'delete-files'])
  })

  it('snippet ids are unique on each page; the Realtime text says channels are cleaned up 30 seconds after disconnect', () => {
    for (const page of everyPage(CTX)) expect(new Set(ids(page)).size).toBe(page.length)
    expect(REALTIME_CLEANUP_TEXT).toMatch(/cleaned up 30 seconds after/)
    expect(realtimeSnippets(CTX).some((s) => s.description?.includes(REALTIME_CLEANUP_TEXT))).toBe(true)
  })

  it('every JavaScript snippet parses (the Connect import as a module line), every curl line starts a complete command', () => {
    for (const page of everyPage(REAL)) {
      for (const s of page) {
        if (s.js !== null) {
          const connect = s.js.startsWith('import ')
          const body = s.js.replace(/^import \{ createClient \} from '@supabase\/supabase-js'\n/, '')
          // What a snippet takes from around it: the client, a file input's event, a channel made before.
          const scope = connect ? ['createClient'] : ['supabase', 'event', ...(s.js.includes('const channel') ? [] : ['channel'])]
          expect(() => new AsyncFunction(...scope, body), `${s.id}: ${s.js}`).not.toThrow()
        }
        if (s.bash !== null) expect(s.bash.startsWith('curl ')).toBe(true)
      }
    }
  })

  it('hidden keys print placeholders; shown keys the real ones, the service key only where it is needed; the URL has no trailing slash', () => {
    const text = (ctx: SnippetContext) => everyPage(ctx).flat().map((s) => `${s.js ?? ''}\n${s.bash ?? ''}`).join('\n')
    const hidden = text(CTX)
    expect(hidden).toContain('SUPABASE_KEY')
    expect(hidden).not.toContain('real.key')
    const shown = everyPage(REAL).flat()
    expect(text(REAL)).not.toMatch(/SUPABASE_KEY|SERVICE_KEY/)
    const withService = shown.filter((s) => `${s.js}${s.bash}`.includes('service.real.key')).map((s) => s.id)
    expect(withService).toEqual(['service-keys', 'invite-user'])
    expect(text(REAL)).not.toContain('abcdefghijklmnopqrst//')
  })

  it('a function is called with its required arguments, the optional ones named in the description', () => {
    const [invoke] = functionSnippets(RATE, CTX)
    expect(invoke.js).toBe("const { data, error } = await supabase.rpc('rate_recipe', { recipe: 1, score: 1 })")
    expect(invoke.bash).toContain(`-d '{ "recipe": 1, "score": 1 }'`)
    expect(invoke.bash).toContain("curl -X POST 'http://127.0.0.1:8787/p/abcdefghijklmnopqrst/rest/v1/rpc/rate_recipe'")
    expect(invoke.description).toContain('Rates a recipe from 1 to 5 stars.')
    expect(invoke.description).toContain('rater_name (text)')
    const [none] = functionSnippets({ ...RATE, parameters: [] }, CTX)
    expect(none.js).toBe("const { data, error } = await supabase.rpc('rate_recipe')")
    expect(none.bash).toContain(`-d '{}'`)
  })

  it('the table snippets use the real columns with values of their types', () => {
    const page = Object.fromEntries(tableSnippets(RECIPES, CTX).map((s) => [s.id, s]))
    expect(page['read-specific-columns'].js).toContain(".select('id,title')")
    expect(page['filter-equal'].js).toContain(".eq('title', 'example')")
    expect(page['filter-range'].bash).toContain('minutes=gte.0&minutes=lte.100')
    expect(page['filter-pattern'].bash).toContain('title=ilike.*example*')
    expect(page['filter-in'].js).toContain(".in('id', [1, 2])")
    expect(page['filter-null'].bash).toContain('servings=is.null')
    expect(page.paginate.js).toContain('.range(0, 9)')
    expect(page.paginate.bash).toContain("-H 'Range: 0-9'")
    expect(page['insert-a-row'].js).toContain(".insert({ title: 'example', minutes: 1 })")
    expect(page['update-matching-rows'].bash).toMatch(/-X PATCH '.*\/recipes\?id=eq\.1'/)
    expect(page['delete-matching-rows'].js).toContain(".delete()\n  .eq('id', 1)")
  })

  it('example values follow the type and format', () => {
    const ex = (type: string, format: string) => exampleValue(field('x', type, format))
    expect(ex('integer', 'int64')).toBe(1)
    expect(ex('number', 'numeric')).toBe(1.5)
    expect(ex('boolean', 'boolean')).toBe(true)
    expect(ex('json', 'jsonb')).toEqual({})
    expect(ex('array', 'text[]')).toEqual(['example'])
    expect(ex('array', 'integer[]')).toEqual([1])
    expect(ex('string', 'uuid')).toBe('00000000-0000-0000-0000-000000000001')
    expect(ex('string', 'timestamp with time zone')).toBe('2024-01-01T00:00:00+00:00')
    expect(ex('string', 'date')).toBe('2024-01-01')
    expect(ex('string', 'public.difficulty')).toBe('example')
    expect(exampleValue(field('x', 'string', 'uuid'), 2)).not.toBe(exampleValue(field('x', 'string', 'uuid'), 1))
    expect(looksGenerated(field('id', 'string', 'uuid'))).toBe(true)
    expect(looksGenerated(field('created_at', 'string', 'timestamp with time zone'))).toBe(true)
    expect(looksGenerated(field('created_at', 'string', 'text'))).toBe(false)
    expect(insertFields(RECIPES.fields).map((f) => f.name)).toEqual(['title', 'minutes'])
    expect(insertFields([field('id', 'integer', 'int64', true), field('a', 'string', 'text'), field('b', 'string', 'text'), field('c', 'string', 'text')]).map((f) => f.name)).toEqual(['a', 'b'])
  })
})
