import { endpoint } from '../endpoint'
import { JwtSecretUpdateAccepted, JwtSecretUpdateBody, JwtSecretUpdateStatusResponse, ProjectApiInfo, ProjectSettings } from '../keys'

// API keys and JWT secret.
export const getProjectSettings = /* @__PURE__ */ endpoint('GET', 'platform', '/props/project/:ref/settings', { response: ProjectSettings })
export const getProjectApiInfo = /* @__PURE__ */ endpoint('GET', 'platform', '/props/project/:ref/api', { response: ProjectApiInfo })
export const updateJwtSecret = /* @__PURE__ */ endpoint('POST', 'platform', '/props/project/:ref/jwt-secret-update', {
  body: JwtSecretUpdateBody,
  response: JwtSecretUpdateAccepted,
})
export const getJwtSecretUpdateStatus = /* @__PURE__ */ endpoint('GET', 'platform', '/props/project/:ref/jwt-secret-update-status', {
  response: JwtSecretUpdateStatusResponse,
})
