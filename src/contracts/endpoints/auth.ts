import { endpoint } from '../endpoint'
import { AuthConfig, AuthMailbox, UpdateAuthConfigBody } from '../auth'

// A project's auth service settings and local mailbox (src/contracts/auth.ts).
export const getAuthConfig = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/config/auth', { response: AuthConfig })
export const updateAuthConfig = /* @__PURE__ */ endpoint('PATCH', 'v1', '/projects/:ref/config/auth', { body: UpdateAuthConfigBody, response: AuthConfig })
export const getAuthMailbox = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/auth/mailbox', { response: AuthMailbox })
