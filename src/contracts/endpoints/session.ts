import { AccessTokenList, CreateAccessTokenBody, CreatedAccessToken, PermissionsResponse, Profile, SignInBody } from '../session'
import { HealthResponse } from '../common'
import { endpoint } from '../endpoint'

// Session and profile (no session needed for health and sign-in).
export const health = /* @__PURE__ */ endpoint('GET', 'platform', '/health', { response: HealthResponse })
export const signIn = /* @__PURE__ */ endpoint('POST', 'platform', '/auth/sign-in', { body: SignInBody, response: Profile })
export const signOut = /* @__PURE__ */ endpoint('POST', 'platform', '/auth/sign-out')
export const getProfile = /* @__PURE__ */ endpoint('GET', 'platform', '/profile', { response: Profile })
export const getPermissions = /* @__PURE__ */ endpoint('GET', 'platform', '/profile/permissions', { response: PermissionsResponse })
export const listAccessTokens = /* @__PURE__ */ endpoint('GET', 'platform', '/profile/access-tokens', { response: AccessTokenList })
export const createAccessToken = /* @__PURE__ */ endpoint('POST', 'platform', '/profile/access-tokens', { body: CreateAccessTokenBody, response: CreatedAccessToken })
export const revokeAccessToken = /* @__PURE__ */ endpoint('DELETE', 'platform', '/profile/access-tokens/:id')
