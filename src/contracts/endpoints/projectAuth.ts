import { endpoint } from '../endpoint'
import { AuthEmailBody, AuthEmptyAnswer, AuthUser, AuthUserPage, AuthUsersQuery, CreateAuthUserBody, UpdateAuthUserBody } from '../projectAuth'

// A project's auth users, for the dashboard (src/contracts/projectAuth.ts).
export const listAuthUsers = /* @__PURE__ */ endpoint('GET', 'platform', '/auth/:ref/users', { query: AuthUsersQuery, response: AuthUserPage })
export const getAuthUser = /* @__PURE__ */ endpoint('GET', 'platform', '/auth/:ref/users/:id', { response: AuthUser })
export const createAuthUser = /* @__PURE__ */ endpoint('POST', 'platform', '/auth/:ref/users', { body: CreateAuthUserBody, response: AuthUser })
export const inviteAuthUser = /* @__PURE__ */ endpoint('POST', 'platform', '/auth/:ref/invite', { body: AuthEmailBody, response: AuthUser })
export const sendAuthMagicLink = /* @__PURE__ */ endpoint('POST', 'platform', '/auth/:ref/magiclink', { body: AuthEmailBody, response: AuthEmptyAnswer })
export const sendAuthRecovery = /* @__PURE__ */ endpoint('POST', 'platform', '/auth/:ref/recover', { body: AuthEmailBody, response: AuthEmptyAnswer })
export const updateAuthUser = /* @__PURE__ */ endpoint('PATCH', 'platform', '/auth/:ref/users/:id', { body: UpdateAuthUserBody, response: AuthUser })
export const deleteAuthUser = /* @__PURE__ */ endpoint('DELETE', 'platform', '/auth/:ref/users/:id', { response: AuthEmptyAnswer })
