import {
  DeleteRowsBody, DeletedRows, ImportAnswer, InsertRowBody, RowsPage, RowsQuery, TableDefinition, TableDefinitionAnswer, TableDefinitionBody,
  TableReferences, UpdateRowBody, WrittenRow,
} from '../tableEditor'
import { endpoint } from '../endpoint'

// The Table Editor (src/contracts/tableEditor.ts).
const ROWS = '/projects/:ref/table-editor/tables/:table/rows'
export const getRows = /* @__PURE__ */ endpoint('GET', 'platform', ROWS, { query: RowsQuery, response: RowsPage })
export const insertRow = /* @__PURE__ */ endpoint('POST', 'platform', ROWS, { body: InsertRowBody, response: WrittenRow })
export const updateRow = /* @__PURE__ */ endpoint('PATCH', 'platform', ROWS, { body: UpdateRowBody, response: WrittenRow })
export const deleteRows = /* @__PURE__ */ endpoint('DELETE', 'platform', ROWS, { body: DeleteRowsBody, response: DeletedRows })
export const createTable = /* @__PURE__ */ endpoint('POST', 'platform', '/projects/:ref/table-editor/tables', { body: TableDefinitionBody, response: TableDefinitionAnswer })
export const getTableDefinition = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/table-editor/tables/:table', { response: TableDefinition })
export const getTableReferences = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/table-editor/references', { response: TableReferences })
export const alterTable = /* @__PURE__ */ endpoint('PATCH', 'platform', '/projects/:ref/table-editor/tables/:table', { body: TableDefinitionBody, response: TableDefinitionAnswer })
/** A text/csv body: sent by the dashboard with its own request (the call helper sends JSON). */
export const importCsv = /* @__PURE__ */ endpoint('POST', 'platform', '/projects/:ref/table-editor/tables/:table/import', { response: ImportAnswer })
export const exportCsv = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/table-editor/tables/:table/export')
