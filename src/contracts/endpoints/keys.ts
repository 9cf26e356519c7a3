import { endpoint } from '../endpoint'
import { JwtSecretUpdateAccepted, JwtSecretUpdateBody, JwtSecretUpdateStatusResponse, ProjectSettings } from '../keys'

// API keys and JWT secret.
export const getProjectSettings = /* @__PURE__ */ endpoint('GET', 'platform', '/props/project/:ref/settings', { response: ProjectSettings })
export const updateJwtSecret = /* @__PURE__ */ endpoint('POST', 'platform', '/props/project/:ref/jwt-secret-update', {
  body: JwtSecretUpdateBody,
  response: JwtSecretUpdateAccepted,
})
export const getJwtSecretUpdateStatus = /* @__PURE__ */ endpoint('GET', 'platform', '/props/project/:ref/jwt-secret-update-status', {
  response: JwtSecretUpdateStatusResponse,
})
