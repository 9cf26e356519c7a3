import { config } from '../../config'
import { pathOf } from '../../contracts/endpoint'
import * as endpoints from '../../contracts/endpoints/tableEditor'
import { ImportAnswer, ImportFailure, type RowFilter, type RowSearch, type RowSort, type TableDefinition } from '../../contracts/tableEditor'
import { call, type CallOptions } from '../http'

type Row = Record<string, unknown>

// The Table Editor: a table's rows, one-statement writes, the table form and CSV.
export const getRows = (
  ref: string,
  table: string,
  query: { sort: RowSort[]; filters: RowFilter[]; offset: number; limit: number; search?: RowSearch },
  options?: CallOptions,
) =>
  call(endpoints.getRows, { ref, table }, {
    ...options,
    query: {
      offset: String(query.offset),
      limit: String(query.limit),
      sort: query.sort.length > 0 ? JSON.stringify(query.sort) : undefined,
      filters: query.filters.length > 0 ? JSON.stringify(query.filters) : undefined,
      search: query.search && query.search.term !== '' ? JSON.stringify(query.search) : undefined,
    },
  })
export const insertRow = (ref: string, table: string, values: Row, options?: CallOptions) => call(endpoints.insertRow, { ref, table }, { ...options, body: { values } })
export const updateRow = (ref: string, table: string, body: { key: Row; previous: Row; values: Row }, options?: CallOptions) =>
  call(endpoints.updateRow, { ref, table }, { ...options, body })
export const deleteRows = (ref: string, table: string, keys: Row[], options?: CallOptions) => call(endpoints.deleteRows, { ref, table }, { ...options, body: { keys } })
export const createTable = (ref: string, definition: TableDefinition, run: boolean, options?: CallOptions) =>
  call(endpoints.createTable, { ref }, { ...options, body: { definition, run } })
export const getTableDefinition = (ref: string, table: string, options?: CallOptions) => call(endpoints.getTableDefinition, { ref, table }, options)
export const getTableReferences = (ref: string, options?: CallOptions) => call(endpoints.getTableReferences, { ref }, options)
export const alterTable = (ref: string, table: string, definition: TableDefinition, run: boolean, options?: CallOptions) =>
  call(endpoints.alterTable, { ref, table }, { ...options, body: { definition, run } })

/** Where the browser downloads a table's CSV (a plain link: the platform streams it). */
export const exportCsvUrl = (ref: string, table: string) => `${config.platformUrl}${pathOf(endpoints.exportCsv, { ref, table })}`

export type UploadOutcome = { ok: true; inserted: number } | { ok: false; message: string; badRows: ImportFailure['bad_rows'] }

/**
 * Sends a CSV file as text/csv, telling its progress: XMLHttpRequest, because fetch reports no upload progress.
 * The answer is parsed by its contract (201 ImportAnswer, 4xx ImportFailure or an error message).
 */
export function uploadCsv(ref: string, table: string, file: Blob, onProgress: (loaded: number, total: number) => void, signal: AbortSignal): Promise<UploadOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `${config.platformUrl}${pathOf(endpoints.importCsv, { ref, table })}`)
    xhr.setRequestHeader('content-type', 'text/csv')
    xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size)
    xhr.onload = () => {
      let json: unknown = null
      try {
        json = JSON.parse(xhr.responseText)
      } catch {
        // Not JSON: answered below by status.
      }
      const done = ImportAnswer.safeParse(json)
      if (xhr.status === 201 && done.success) return resolve({ ok: true, inserted: done.data.inserted })
      const refused = ImportFailure.safeParse(json)
      if (refused.success) return resolve({ ok: false, message: refused.data.message, badRows: refused.data.bad_rows })
      const message = (json as { message?: unknown } | null)?.message
      resolve({ ok: false, message: typeof message === 'string' ? message : `The import failed (status ${xhr.status})`, badRows: [] })
    }
    xhr.onerror = () => resolve({ ok: false, message: 'Unable to reach the server', badRows: [] })
    signal.addEventListener('abort', () => xhr.abort())
    xhr.send(file)
  })
}
