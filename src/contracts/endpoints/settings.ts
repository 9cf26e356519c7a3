import { endpoint } from '../endpoint'
import {
  CustomHostnameResponse,
  DatabaseConnection,
  DevCustomHostnameBody,
  DevCustomHostnameResponse,
  ProjectAddons,
  UpdateAddonBody,
} from '../settings'

// A project's custom domain, add-ons and database connection (src/contracts/settings.ts).
export const getCustomHostname = /* @__PURE__ */ endpoint('GET', 'v1', '/projects/:ref/custom-hostname', { response: CustomHostnameResponse })
export const devSetCustomHostname = /* @__PURE__ */ endpoint('POST', 'dev', '/projects/:ref/custom-hostname', {
  body: DevCustomHostnameBody,
  response: DevCustomHostnameResponse,
})
export const getProjectAddons = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/billing/addons', { response: ProjectAddons })
export const updateProjectAddon = /* @__PURE__ */ endpoint('POST', 'platform', '/projects/:ref/billing/addons', { body: UpdateAddonBody, response: ProjectAddons })
export const removeProjectAddon = /* @__PURE__ */ endpoint('DELETE', 'platform', '/projects/:ref/billing/addons/:addon_type', { response: ProjectAddons })
export const getDatabaseConnection = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/settings/database', { response: DatabaseConnection })
