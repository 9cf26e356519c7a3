/**
 * Answers for the API docs panel's tests: a REST schema as PostgREST (and the local platform) serves it — a table
 * with key notes in its descriptions and a JSONB column without a type, a read-only view, a STABLE function (GET and
 * POST) and a VOLATILE one (POST only, its arguments in the body schema) —, buckets (one public, one private) and
 * edge functions.
 */
import type { RestSchemaResponse } from '../src/contracts/rest'
import type { FunctionResponse } from '../src/contracts/functions'
import type { Bucket } from '../src/contracts/storage'

export const REST_SCHEMA: RestSchemaResponse = {
  swagger: '2.0',
  info: { title: 'PostgREST API', version: '12.0.0' },
  host: 'localhost',
  basePath: '/',
  definitions: {
    recipes: {
      type: 'object',
      required: ['id', 'title'],
      description: 'Recipes people share',
      'x-kind': 'table',
      properties: {
        id: { type: 'integer', format: 'bigint', description: 'Note:\nThis is a Primary Key.<pk/>' },
        title: { type: 'string', format: 'text', description: 'The name of the dish' },
        author_id: {
          type: 'integer',
          format: 'bigint',
          description: 'Who wrote it\n\nNote:\nThis is a Foreign Key to `authors.id`.<fk table=\'authors\' column=\'id\'/>',
        },
        details: { format: 'jsonb' },
      },
    },
    published_recipes: {
      type: 'object',
      'x-kind': 'view',
      properties: {
        id: { type: 'integer', format: 'bigint' },
        title: { type: 'string', format: 'text' },
      },
    },
  },
  paths: {
    '/': { get: {} },
    '/recipes': { get: {}, post: {}, patch: {}, delete: {} },
    '/published_recipes': { get: {} },
    '/rpc/search_recipes': {
      get: {
        summary: 'Recipes whose title matches',
        parameters: [{ name: 'term', in: 'query', required: true, type: 'string', format: 'text' }],
      },
      post: { summary: 'Recipes whose title matches', parameters: [] },
    },
    '/rpc/add_rating': {
      post: {
        summary: 'Rate a recipe',
        parameters: [
          {
            name: 'args',
            in: 'body',
            required: true,
            schema: {
              type: 'object',
              required: ['recipe', 'stars'],
              properties: { recipe: { type: 'integer', format: 'bigint' }, stars: { type: 'integer', format: 'integer' }, note: { type: 'string', format: 'text' } },
            },
          },
          { $ref: '#/parameters/preferParams' },
        ],
      },
    },
  },
}

const bucket = (name: string, isPublic: boolean): Bucket => ({
  id: name,
  name,
  owner: '',
  public: isPublic,
  allowed_mime_types: null,
  file_size_limit: null,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
})

export const BUCKETS: Bucket[] = [bucket('avatars', true), bucket('documents', false)]

export const EDGE_FUNCTIONS: FunctionResponse[] = [
  { id: 'f1', slug: 'hello-world', name: 'hello-world', status: 'ACTIVE', version: 1, created_at: 1_790_000_000_000, updated_at: 1_790_000_000_000, verify_jwt: true },
]

export const TENANT_CONFIG_NOT_FOUND = 'Tenant config for project abcdefghijklmnopqrst not found'
