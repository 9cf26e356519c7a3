import { ProjectAddons } from '../addons'
import { endpoint } from '../endpoint'

// A project's add-ons (src/contracts/addons.ts).
export const getProjectAddons = /* @__PURE__ */ endpoint('GET', 'platform', '/projects/:ref/billing/addons', { response: ProjectAddons })
