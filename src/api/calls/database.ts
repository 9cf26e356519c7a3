import type { CreateProjectBody, RunQueryBody } from '../../contracts/database'
import * as endpoints from '../../contracts/endpoints/database'
import { call, type CallOptions } from '../http'

// A project's own database (the SQL Editor, the Table Editor, the Database page) and creating a project.
export const runQuery = (ref: string | undefined, body: RunQueryBody, options?: CallOptions) => call(endpoints.runQuery, { ref }, { ...options, body })
export const listTables = (ref: string | undefined, options?: CallOptions) => call(endpoints.listTables, { ref }, options)
export const getTableRows = (ref: string | undefined, table: string, page: { offset: number; limit: number }, options?: CallOptions) =>
  call(endpoints.getTableRows, { ref, table }, { ...options, query: { offset: String(page.offset), limit: String(page.limit) } })
export const createProject = (body: CreateProjectBody, options?: CallOptions) => call(endpoints.createProject, {}, { ...options, body })
/** The project's TypeScript types (spec 7: downloaded as supabase.ts). */
export const getTypescriptTypes = (ref: string | undefined, options?: CallOptions) => call(endpoints.getTypescriptTypes, { ref }, options)
