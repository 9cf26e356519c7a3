import type { AuthEmailBody, CreateAuthUserBody, UpdateAuthUserBody } from '../../contracts/projectAuth'
import type { UpdateAuthConfigBody } from '../../contracts/auth'
import * as endpoints from '../../contracts/endpoints/projectAuth'
import * as config from '../../contracts/endpoints/auth'
import { call, type CallOptions } from '../http'

// A project's auth users, its settings and its local mailbox.
export const listAuthUsers = (ref: string | undefined, page: { page: number; perPage: number; keywords?: string }, options?: CallOptions) =>
  call(endpoints.listAuthUsers, { ref }, {
    ...options,
    query: { page: String(page.page), per_page: String(page.perPage), keywords: page.keywords || undefined },
  })
export const getAuthUser = (ref: string | undefined, id: string, options?: CallOptions) => call(endpoints.getAuthUser, { ref, id }, options)
export const createAuthUser = (ref: string | undefined, body: CreateAuthUserBody, options?: CallOptions) =>
  call(endpoints.createAuthUser, { ref }, { ...options, body })
export const inviteAuthUser = (ref: string | undefined, body: AuthEmailBody, options?: CallOptions) =>
  call(endpoints.inviteAuthUser, { ref }, { ...options, body })
export const sendAuthMagicLink = (ref: string | undefined, body: AuthEmailBody, options?: CallOptions) =>
  call(endpoints.sendAuthMagicLink, { ref }, { ...options, body })
export const sendAuthRecovery = (ref: string | undefined, body: AuthEmailBody, options?: CallOptions) =>
  call(endpoints.sendAuthRecovery, { ref }, { ...options, body })
export const updateAuthUser = (ref: string | undefined, id: string, body: UpdateAuthUserBody, options?: CallOptions) =>
  call(endpoints.updateAuthUser, { ref, id }, { ...options, body })
export const deleteAuthUser = (ref: string | undefined, id: string, options?: CallOptions) => call(endpoints.deleteAuthUser, { ref, id }, options)

export const getAuthConfig = (ref: string | undefined, options?: CallOptions) => call(config.getAuthConfig, { ref }, options)
export const updateAuthConfig = (ref: string | undefined, body: UpdateAuthConfigBody, options?: CallOptions) =>
  call(config.updateAuthConfig, { ref }, { ...options, body })
export const getAuthMailbox = (ref: string | undefined, options?: CallOptions) => call(config.getAuthMailbox, { ref }, options)
