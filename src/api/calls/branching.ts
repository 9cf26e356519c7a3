import type { BranchActionBody, CreateBranchBody, UpdateBranchBody } from '../../contracts/branching'
import * as endpoints from '../../contracts/endpoints/branching'
import { call, type CallOptions } from '../http'

// Database branching: preview branches, the dry run of a git branch, a branch's build results, diff and merge.
export const createBranch = (ref: string | undefined, body: CreateBranchBody, options?: CallOptions) => call(endpoints.createBranch, { ref }, { ...options, body })
export const listBranches = (ref: string | undefined, options?: CallOptions) => call(endpoints.listBranches, { ref }, options)
export const getBranchByName = (ref: string | undefined, name: string, options?: CallOptions) => call(endpoints.getBranchByName, { ref, name }, options)
export const getBranch = (branch: string, options?: CallOptions) => call(endpoints.getBranch, { branch }, options)
export const updateBranch = (branch: string, body: UpdateBranchBody, options?: CallOptions) => call(endpoints.updateBranch, { branch }, { ...options, body })
export const deleteBranch = (branch: string, options?: CallOptions) => call(endpoints.deleteBranch, { branch }, options)
export const resetBranch = (branch: string, body: BranchActionBody = {}, options?: CallOptions) => call(endpoints.resetBranch, { branch }, { ...options, body })
export const mergeBranch = (branch: string, body: BranchActionBody = {}, options?: CallOptions) => call(endpoints.mergeBranch, { branch }, { ...options, body })
export const getBranchingPlan = (ref: string | undefined, gitBranch: string, options?: CallOptions) =>
  call(endpoints.getBranchingPlan, { ref }, { ...options, query: { git_branch: gitBranch } })
export const getBranchMigrations = (branch: string, options?: CallOptions) => call(endpoints.getBranchMigrations, { branch }, options)
export const getBranchDiff = (branch: string, options?: CallOptions) => call(endpoints.getBranchDiff, { branch }, options)
export const getBranchMergePlan = (branch: string, options?: CallOptions) => call(endpoints.getBranchMergePlan, { branch }, options)
