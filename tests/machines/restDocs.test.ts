/** The docs model of a REST schema (machines/restDocs.ts): spec 3's rules, and what the snippets need of a column. */
import { describe, expect, it } from 'vitest'
import { docsFromRestSchema } from '../../machines/restDocs'
import type { RestSchemaResponse } from '../../src/contracts/rest'
import { tableSnippets } from '../../src/views/project/apiDocs/snippets'

const schema: RestSchemaResponse = {
  swagger: '2.0',
  info: { title: 'x', version: '12.2.0' },
  host: 'localhost',
  basePath: '/',
  paths: {
    '/recipes': { get: {}, post: {}, patch: {}, delete: {} },
    '/published': { get: {} },
    '/rpc/zeta': { post: { summary: 'Last', parameters: [{ name: 'args', in: 'body', schema: { required: ['n'], properties: { n: { type: 'integer', format: 'integer' }, tag: { type: 'string', format: 'text' } } } }] } },
    '/rpc/alpha': { get: { parameters: [{ name: 'q', in: 'query', required: true, type: 'string', format: 'text' }] }, post: { summary: 'First' } },
  },
  definitions: {
    recipes: {
      type: 'object',
      required: ['id', 'title', 'difficulty', 'published'],
      properties: {
        id: { type: 'integer', format: 'bigint', description: 'Note:\nThis is a Primary Key.<pk/>' },
        title: { type: 'string', format: 'text', description: 'The title.\n\nNote:\nThis is a Foreign Key to `a.b`.<fk table=\'a\' column=\'b\'/>' },
        difficulty: { type: 'string', format: 'public.difficulty', enum: ['easy', 'medium', 'hard'] },
        published: { type: 'boolean', format: 'boolean', default: false },
        extra: { format: 'jsonb' },
      },
      'x-kind': 'table',
    },
    published: { type: 'object', properties: { title: { type: 'string', format: 'text' } }, 'x-kind': 'view' },
  },
}

describe('docsFromRestSchema', () => {
  const docs = docsFromRestSchema(schema)
  const recipes = docs.tables.find((t) => t.name === 'recipes')!

  it('cuts descriptions before the key notes, and shows a JSON column without a type as json', () => {
    expect(recipes.fields.find((f) => f.name === 'id')!.description).toBeNull()
    expect(recipes.fields.find((f) => f.name === 'title')!.description).toBe('The title.')
    expect(recipes.fields.find((f) => f.name === 'extra')!.type).toBe('json')
  })

  it('tells views from tables and reads what a path lets one write', () => {
    const view = docs.tables.find((t) => t.name === 'published')!
    expect(view).toMatchObject({ kind: 'view', insertable: false, updatable: false, deletable: false })
    expect(recipes).toMatchObject({ kind: 'table', insertable: true, updatable: true, deletable: true })
  })

  it('sorts functions by name, with GET parameters or else the POST body schema (VOLATILE)', () => {
    expect(docs.functions.map((f) => f.name)).toEqual(['alpha', 'zeta'])
    expect(docs.functions[0]).toMatchObject({ hasGet: true, summary: 'First', parameters: [{ name: 'q', required: true, type: 'string' }] })
    expect(docs.functions[1].parameters).toEqual([
      { name: 'n', format: 'integer', type: 'integer', required: true },
      { name: 'tag', format: 'text', type: 'string', required: false },
    ])
  })

  it("keeps an enum column's labels and whether a column has a default", () => {
    expect(recipes.fields.find((f) => f.name === 'difficulty')!.enum).toEqual(['easy', 'medium', 'hard'])
    expect(recipes.fields.find((f) => f.name === 'published')!.hasDefault).toBe(true)
    expect(recipes.fields.find((f) => f.name === 'title')!.hasDefault).toBe(false)
  })

  it('insert examples use an enum label and leave defaulted columns to the database', () => {
    const ctx = { projectUrl: 'http://localhost/p/abc', anonKey: 'SUPABASE_KEY', serviceKey: 'SERVICE_KEY' }
    const insert = tableSnippets(recipes, ctx).find((s) => s.id === 'insert-a-row') ?? tableSnippets(recipes, ctx).find((s) => /insert/i.test(s.id))!
    expect(insert.js).toContain("'easy'")
    expect(insert.js).not.toContain('published')
    expect(insert.bash).toContain('"difficulty": "easy"')
    expect(insert.bash).not.toContain('published')
  })
})

describe('docsFromRestSchema on a large schema', () => {
  it('derives a table’s fields when they are first read, once, and the same as read at once', () => {
    const docs = docsFromRestSchema(schema)
    const [recipes, published] = docs.tables
    // Not derived yet: the list needs only names, kinds and descriptions.
    expect(Object.getOwnPropertyDescriptor(recipes, 'fields')?.get).toBeTypeOf('function')
    const fields = recipes.fields
    expect(Object.getOwnPropertyDescriptor(recipes, 'fields')).toMatchObject({ value: fields, enumerable: true })
    expect(recipes.fields).toBe(fields)
    // The other table is still underived, and reads the same as a plain object once read.
    expect(Object.getOwnPropertyDescriptor(published, 'fields')?.get).toBeTypeOf('function')
    expect({ ...published }).toEqual({
      name: 'published',
      kind: 'view',
      rawKind: 'view',
      description: null,
      fields: [{ name: 'title', format: 'text', type: 'string', description: null, required: false, hasDefault: false }],
      insertable: false,
      updatable: false,
      deletable: false,
    })
    expect(fields.map((f) => f.name)).toEqual(['id', 'title', 'difficulty', 'published', 'extra'])
  })
})
