import {
  BranchActionBody,
  BranchDeleteResponse,
  BranchDetailResponse,
  BranchDiff,
  BranchingPlan,
  BranchingPlanQuery,
  BranchList,
  BranchMigrations,
  BranchResponse,
  BranchUpdateResponse,
  CreateBranchBody,
  MergePlan,
  MergeResponse,
  UpdateBranchBody,
} from '../branching'
import { endpoint } from '../endpoint'

// Database branching (src/contracts/branching.ts says what each answers). `:branch` is a branch's id or its project's ref.
export const createBranch = /* @__PURE__ */ endpoint('POST', 'v1', '/projects/:ref/branches', { body: CreateBranchBody, response: BranchResponse })
export const listBranches = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/branches', { response: BranchList })
export const getBranchByName = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/branches/:name', { response: BranchResponse })
export const getBranch = /* @__PURE__ */ endpoint('GET', 'v1', '/branches/:branch', { response: BranchDetailResponse })
export const updateBranch = /* @__PURE__ */ endpoint('PATCH', 'v1', '/branches/:branch', { body: UpdateBranchBody, response: BranchResponse })
export const deleteBranch = /* @__PURE__ */ endpoint('DELETE', 'v1', '/branches/:branch', { response: BranchDeleteResponse })
export const resetBranch = /* @__PURE__ */ endpoint('POST', 'v1', '/branches/:branch/reset', { body: BranchActionBody, response: BranchUpdateResponse })
/** text/plain (the contract's): the dashboard reads the structured getBranchDiff instead. */
export const getBranchDiffText = /* @__PURE__ */ endpoint('GET', 'v1', '/branches/:branch/diff')
export const mergeBranch = /* @__PURE__ */ endpoint('POST', 'v1', '/branches/:branch/merge', { body: BranchActionBody, response: MergeResponse })
export const getBranchingPlan = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/branching/plan', { query: BranchingPlanQuery, response: BranchingPlan })
export const getBranchMigrations = /* @__PURE__ */ endpoint('GET', 'platform', '/branches/:branch/migrations', { response: BranchMigrations })
export const getBranchDiff = /* @__PURE__ */ endpoint('GET', 'platform', '/branches/:branch/diff', { response: BranchDiff })
export const getBranchMergePlan = /* @__PURE__ */ endpoint('GET', 'platform', '/branches/:branch/merge-plan', { response: MergePlan })
