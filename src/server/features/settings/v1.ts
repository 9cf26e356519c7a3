/**
 * The Management API's reads of a project's add-ons and of its subdomain, for any member of its organization:
 *   GET /v1/projects/{ref}/billing/addons      ListProjectAddonsResponse: the add-ons the dashboard keeps (point in
 *                                              time recovery is the one kind there is), each variant with its price
 *                                              here: nothing, as this platform bills no add-on
 *   GET /v1/projects/{ref}/vanity-subdomain    VanitySubdomainConfigResponse: there are no vanity subdomains here;
 *                                              an active custom domain is said as the contract says it
 */
import { Hono } from 'hono'
import { endpoint } from '../../../contracts/endpoint'
import { PITR_VARIANTS, type AddonVariantId } from '../../../contracts/settings'
import { V1ProjectAddons, V1VanitySubdomain } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { at, type AppEnv } from '../../core/http'
import { memberProject, refParam } from '../projects/access'
import { PITR_NAMES } from './routes'
import { findHostname, listAddons } from './store'

const v1ListAddons = endpoint('GET', 'v1', '/projects/:ref/billing/addons', { response: V1ProjectAddons })
const v1GetVanitySubdomain = endpoint('GET', 'v1', '/projects/:ref/vanity-subdomain', { response: V1VanitySubdomain })

const NO_CHARGE = { description: 'No charge: this platform bills no add-on', type: 'fixed', interval: 'monthly', amount: 0 } as const
const variant = (id: AddonVariantId) => ({ id, name: PITR_NAMES[id], price: NO_CHARGE })

export function settingsV1Routes({ db }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(v1ListAddons), refParam, project, async (c) => {
    const rows = await listAddons(db, c.var.project.id)
    return c.json({
      selected_addons: rows.map((row) => ({ type: row.type, variant: variant(row.variant) })),
      available_addons: [{ type: 'pitr', name: 'Point in time recovery', variants: PITR_VARIANTS.map(variant) }],
    } satisfies V1ProjectAddons)
  })

  app.on(...at(v1GetVanitySubdomain), refParam, project, async (c) => {
    const hostname = await findHostname(db, c.var.project.id)
    if (hostname?.status === '5_services_reconfigured') return c.json({ status: 'custom-domain-used', custom_domain: hostname.hostname } satisfies V1VanitySubdomain)
    return c.json({ status: 'not-used' } satisfies V1VanitySubdomain)
  })

  return app
}
