import { CreateProjectBody, DatabaseTableList, QueryResult, RunQueryBody, TableRows, TableRowsQuery, TypescriptQuery, TypescriptResponse, V1CreatedProject, V1QueryResult } from '../database'
import { endpoint } from '../endpoint'

// A project's own database (src/contracts/database.ts).
export const createProject = /* @__PURE__ */ endpoint('POST', 'v1', '/projects', { body: CreateProjectBody, response: V1CreatedProject })
export const v1RunQuery = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/database/query', { body: RunQueryBody, response: V1QueryResult })
export const v1RunReadOnlyQuery = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/database/query/read-only', { body: RunQueryBody, response: V1QueryResult })
export const runQuery = /* @__PURE__ */ endpoint('POST', 'platform', '/projects/:ref/database/query', { body: RunQueryBody, response: QueryResult })
export const listTables = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/database/tables', { response: DatabaseTableList })
export const getTableRows = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/database/tables/:table/rows', { query: TableRowsQuery, response: TableRows })
export const getTypescriptTypes = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/types/typescript', { query: TypescriptQuery, response: TypescriptResponse })
