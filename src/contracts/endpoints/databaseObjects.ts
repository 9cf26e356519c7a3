import {
  ChangeApplied, ChangePreview, ExtensionList, FunctionList, IndexList, ObjectChange, ObjectListQuery, PolicyTableList,
  PublicationList, RoleList, SchemaList, TriggerList, TypeList,
} from '../databaseObjects'
import { endpoint } from '../endpoint'

// The Database section's objects and Policies (src/contracts/databaseObjects.ts).
const base = '/projects/:ref/database/objects' as const
const list = { query: ObjectListQuery }
export const listDatabaseSchemas = /* @__PURE__ */ endpoint('GET', 'platform', `${base}/schemas`, { response: SchemaList })
export const listDatabaseFunctions = /* @__PURE__ */ endpoint('GET', 'platform', `${base}/functions`, { ...list, response: FunctionList })
export const listDatabaseTriggers = /* @__PURE__ */ endpoint('GET', 'platform', `${base}/triggers`, { ...list, response: TriggerList })
export const listDatabaseTypes = /* @__PURE__ */ endpoint('GET', 'platform', `${base}/types`, { ...list, response: TypeList })
export const listDatabaseIndexes = /* @__PURE__ */ endpoint('GET', 'platform', `${base}/indexes`, { ...list, response: IndexList })
export const listDatabaseExtensions = /* @__PURE__ */ endpoint('GET', 'platform', `${base}/extensions`, { response: ExtensionList })
export const listDatabaseRoles = /* @__PURE__ */ endpoint('GET', 'platform', `${base}/roles`, { response: RoleList })
export const listDatabasePublications = /* @__PURE__ */ endpoint('GET', 'platform', `${base}/publications`, { response: PublicationList })
export const listDatabasePolicies = /* @__PURE__ */ endpoint('GET', 'platform', `${base}/policies`, { ...list, response: PolicyTableList })
export const previewDatabaseChange = /* @__PURE__ */ endpoint('POST', 'platform', `${base}/preview`, { body: ObjectChange, response: ChangePreview })
export const applyDatabaseChange = /* @__PURE__ */ endpoint('POST', 'platform', `${base}/apply`, { body: ObjectChange, response: ChangeApplied })
