import type { CreateSnippetBody, UpdateSnippetBody } from '../../contracts/snippets'
import type { SqlRunBody } from '../../contracts/sqlEditor'
import * as endpoints from '../../contracts/endpoints/snippets'
import { call, type CallOptions } from '../http'

// The SQL Editor: runs, history, completion catalog, the users to run as, and saved queries.
export const runSql = (ref: string, body: SqlRunBody, options?: CallOptions) => call(endpoints.runSql, { ref }, { ...options, body })
export const getSqlHistory = (ref: string, options?: CallOptions) => call(endpoints.sqlHistory, { ref }, options)
export const getSqlCompletions = (ref: string, options?: CallOptions) => call(endpoints.sqlCompletions, { ref }, options)
export const getSqlUsers = (ref: string, options?: CallOptions) => call(endpoints.sqlUsers, { ref }, options)
export const listSnippets = (ref: string, options?: CallOptions) => call(endpoints.listSnippets, { ref }, options)
export const createSnippet = (ref: string, body: CreateSnippetBody, options?: CallOptions) => call(endpoints.createSnippet, { ref }, { ...options, body })
export const updateSnippet = (ref: string, id: string, body: UpdateSnippetBody, options?: CallOptions) =>
  call(endpoints.updateSnippet, { ref, id }, { ...options, body })
export const deleteSnippet = (ref: string, id: string, options?: CallOptions) => call(endpoints.deleteSnippet, { ref, id }, options)
