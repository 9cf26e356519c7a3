import type { ObjectChangeInput, ObjectKind } from '../../contracts/databaseObjects'
import * as endpoints from '../../contracts/endpoints/databaseObjects'
import { call, type CallOptions } from '../http'

// The Database section's objects and Policies: the catalog's lists and the changes shown as SQL first.
export const listDatabaseSchemas = (ref: string | undefined, options?: CallOptions) => call(endpoints.listDatabaseSchemas, { ref }, options)

const schemaQuery = (schema: string, options?: CallOptions) => ({ ...options, query: { schema } })

export function listDatabaseObjects(ref: string | undefined, kind: ObjectKind, schema: string, options?: CallOptions) {
  switch (kind) {
    case 'functions':
      return call(endpoints.listDatabaseFunctions, { ref }, schemaQuery(schema, options)).then((items) => ({ kind, items }))
    case 'triggers':
      return call(endpoints.listDatabaseTriggers, { ref }, schemaQuery(schema, options)).then((items) => ({ kind, items }))
    case 'types':
      return call(endpoints.listDatabaseTypes, { ref }, schemaQuery(schema, options)).then((items) => ({ kind, items }))
    case 'indexes':
      return call(endpoints.listDatabaseIndexes, { ref }, schemaQuery(schema, options)).then((items) => ({ kind, items }))
    case 'policies':
      return call(endpoints.listDatabasePolicies, { ref }, schemaQuery(schema, options)).then((items) => ({ kind, items }))
    case 'extensions':
      return call(endpoints.listDatabaseExtensions, { ref }, options).then((items) => ({ kind, items }))
    case 'roles':
      return call(endpoints.listDatabaseRoles, { ref }, options).then((items) => ({ kind, items }))
    case 'publications':
      return call(endpoints.listDatabasePublications, { ref }, options).then((items) => ({ kind, items }))
  }
}

export const previewDatabaseChange = (ref: string | undefined, change: ObjectChangeInput, options?: CallOptions) =>
  call(endpoints.previewDatabaseChange, { ref }, { ...options, body: change })
export const applyDatabaseChange = (ref: string | undefined, change: ObjectChangeInput, options?: CallOptions) =>
  call(endpoints.applyDatabaseChange, { ref }, { ...options, body: change })
