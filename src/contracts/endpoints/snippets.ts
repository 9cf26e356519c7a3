import { endpoint } from '../endpoint'
import { CreateSnippetBody, Snippet, SnippetList, UpdateSnippetBody, V1SnippetList, V1SnippetQuery } from '../snippets'
import { SqlCompletions, SqlHistory, SqlRunBody, SqlRunResult, SqlUsers, SqlUsersQuery } from '../sqlEditor'

// The SQL Editor's saved queries (src/contracts/snippets.ts) and runs (src/contracts/sqlEditor.ts).
export const listSnippets = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/snippets', { response: SnippetList })
export const createSnippet = /* @__PURE__ */ endpoint('POST', 'platform', '/projects/:ref/snippets', { body: CreateSnippetBody, response: Snippet })
export const updateSnippet = /* @__PURE__ */ endpoint('PATCH', 'platform', '/projects/:ref/snippets/:id', { body: UpdateSnippetBody, response: Snippet })
export const deleteSnippet = /* @__PURE__ */ endpoint('DELETE', 'platform', '/projects/:ref/snippets/:id')
export const v1ListSnippets = /* @__PURE__ */ endpoint('GET', 'v1', '/snippets', { query: V1SnippetQuery, response: V1SnippetList })
export const v1GetSnippet = /* @__PURE__ */ endpoint('GET', 'v1', '/snippets/:id', { response: Snippet })
export const runSql = /* @__PURE__ */ endpoint('POST', 'platform', '/projects/:ref/sql/run', { body: SqlRunBody, response: SqlRunResult })
export const sqlHistory = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/sql/history', { response: SqlHistory })
export const sqlCompletions = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/sql/completions', { response: SqlCompletions })
export const sqlUsers = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/sql/users', { query: SqlUsersQuery, response: SqlUsers })
