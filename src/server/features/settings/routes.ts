/**
 * A project's settings beyond its API keys (contracts: src/contracts/settings.ts):
 *   GET    /v1/projects/{ref}/custom-hostname              its custom hostname, in the Management API's shape
 *   GET    /platform/projects/{ref}/billing/addons         its add-ons (PITR) and those it may add
 *   POST   /platform/projects/{ref}/billing/addons         add or change one (paid plans; Owner or Administrator)
 *   DELETE /platform/projects/{ref}/billing/addons/{type}  remove one
 *   GET    /platform/projects/{ref}/settings/database      how its database is reached, asked of the database itself
 *   POST   /dev/projects/{ref}/custom-hostname             (development control) set or remove its custom hostname
 * Any member of the project's organization reads; the role is read from the store on every request.
 */
import { randomUUID } from 'node:crypto'
import { Hono, type Context } from 'hono'
import * as z from 'zod'
import type { PlanId } from '../../../contracts/common'
import * as endpoints from '../../../contracts/endpoints'
import {
  AddonType,
  PITR_VARIANTS,
  type AddonVariantId,
  type CustomHostnameResponse,
  type DatabaseConnection,
  type ProjectAddons,
} from '../../../contracts/settings'
import { ProjectRef } from '../../../contracts/common'
import type { Queryable } from '../../db'
import type { Deps } from '../../core/deps'
import { can } from '../../core/permissions'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { anyProject, memberProject, refParam, refuseUnlessActive, DATABASE_UNAVAILABLE, type MemberProjectEnv } from '../projects/access'
import { ProjectDbError } from '../../projectdb/types'
import { wireConnectionOf } from '../../core/wirePort'
import { answerDatabaseFailure } from '../../core/domainErrors'
import { planOf } from '../organizations/access'
import { deleteAddon, deleteHostname, findHostname, listAddons, readDatabaseFacts, upsertAddon, upsertHostname, type HostnameRow } from './store'

/** The Management API's words (the dashboard maps them to 0_not_allowed and 0_no_hostname_configured). */
export const NOT_ALLOWED = 'This project is on the free plan: it is not allowed to set up custom domain (Pro plan and above)'
export const NO_HOSTNAME = 'The project has no custom hostname configuration'

export const PITR_NAMES: Record<AddonVariantId, string> = { pitr_7: '7 days of recovery', pitr_14: '14 days of recovery', pitr_28: '28 days of recovery' }
const PITR_VARIANT_LIST = PITR_VARIANTS.map((identifier) => ({ identifier, name: PITR_NAMES[identifier] }))

/** The organization's plan; an unknown organization counts as free. */
const planOrFree = async (db: Queryable, organizationId: number): Promise<PlanId> => (await planOf(db, organizationId)) ?? 'free'

/** The Management API's answer for a hostname at a status: active once the services are reconfigured. */
export function hostnameResponse(row: HostnameRow, ref: string, ownHost: string): CustomHostnameResponse {
  const active = row.status === '5_services_reconfigured'
  // The statuses are numbered in order: from 3 on, the certificate's challenge has been verified.
  const verified = row.status >= '3_challenge_verified'
  return {
    status: row.status,
    custom_hostname: row.hostname,
    data: {
      success: true,
      errors: [],
      messages: [],
      result: {
        id: row.id,
        hostname: row.hostname,
        ssl: {
          status: verified ? 'active' : 'pending_validation',
          validation_records: verified ? [] : [{ txt_name: `_acme-challenge.${row.hostname}`, txt_value: row.id.replace(/-/g, '') }],
        },
        ownership_verification: { type: 'txt', name: `_cf-custom-hostname.${row.hostname}`, value: row.id },
        custom_origin_server: `${ref}.${ownHost}`,
        status: active ? 'active' : 'pending',
      },
    },
  }
}

async function addonsOf(db: Queryable, projectId: number, ref: string): Promise<ProjectAddons> {
  const rows = await listAddons(db, projectId)
  return {
    ref,
    selected_addons: rows.map((row) => ({ type: row.type, variant: { identifier: row.variant, name: PITR_NAMES[row.variant] } })),
    available_addons: [{ type: 'pitr', name: 'Point in time recovery', variants: PITR_VARIANT_LIST }],
  }
}

/** Add-ons are billing: the organization's Owners and Administrators change them, on a paid plan. */
async function refuseAddonChange(db: Queryable, c: Context<MemberProjectEnv>) {
  const { role, organization_id: organizationId } = c.var.project
  if (!can(role, 'organizations:write')) {
    return errorJson(c, 403, "Only the organization's Owners and Administrators change a project's add-ons")
  }
  if ((await planOrFree(db, organizationId)) === 'free') {
    return errorJson(c, 400, 'Point in time recovery needs the Pro plan or above: upgrade the organization first', 'plan_required')
  }
  return undefined
}

const AddonParam = z.object({ ref: ProjectRef, addon_type: AddonType })

export function settingsRoutes({ db, clock, ownUrl, projectDbs, config }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)
  const ownHost = () => new URL(ownUrl.origin).host

  app.on(...at(endpoints.getCustomHostname), project, async (c) => {
    if ((await planOrFree(db, c.var.project.organization_id)) === 'free') return errorJson(c, 400, NOT_ALLOWED)
    const row = await findHostname(db, c.var.project.id)
    if (!row) return errorJson(c, 400, NO_HOSTNAME)
    return c.json(hostnameResponse(row, c.var.project.ref, ownHost()) satisfies CustomHostnameResponse)
  })

  app.on(...at(endpoints.getProjectAddons), project, async (c) => c.json(await addonsOf(db, c.var.project.id, c.var.project.ref)))

  app.on(...at(endpoints.updateProjectAddon), refParam, validate('json', endpoints.updateProjectAddon.body), project, async (c) => {
    const body = c.req.valid('json')
    const refused = await refuseAddonChange(db, c)
    if (refused) return refused
    await upsertAddon(db, c.var.project.id, { type: body.addon_type, variant: body.addon_variant }, clock.now())
    return c.json(await addonsOf(db, c.var.project.id, c.var.project.ref))
  })

  app.on(...at(endpoints.removeProjectAddon), validate('param', AddonParam), project, async (c) => {
    const { addon_type: type } = c.req.valid('param')
    const refused = await refuseAddonChange(db, c)
    if (refused) return refused
    if (!(await deleteAddon(db, c.var.project.id, type))) return errorJson(c, 404, `The project has no ${type} add-on`)
    return c.json(await addonsOf(db, c.var.project.id, c.var.project.ref))
  })

  app.on(...at(endpoints.getDatabaseConnection), project, async (c) => {
    const refused = refuseUnlessActive(c, DATABASE_UNAVAILABLE)
    if (refused) return refused
    try {
      const facts = await projectDbs.transaction(c.var.project.ref, { readOnly: true }, readDatabaseFacts)
      // Where the Postgres port listens, that is how clients connect, on either engine.
      const wire = wireConnectionOf({ ownUrl, projectDbs }, c.var.project.ref)
      if (wire) {
        return c.json({
          engine: projectDbs.kind,
          server_version: facts.server_version,
          ...wire,
          pooler: { enabled: true },
          max_connections: Number(facts.max_connections),
          size_bytes: Number(facts.size_bytes),
        } satisfies DatabaseConnection)
      }
      const server = projectDbs.kind === 'postgres' && config.databaseUrl ? new URL(config.databaseUrl) : null
      const host = server ? server.hostname : null
      const port = server ? (facts.port ?? (Number(server.port) || 5432)) : null
      const body: DatabaseConnection = {
        engine: projectDbs.kind,
        server_version: facts.server_version,
        database: facts.database,
        user: facts.user,
        host,
        port,
        connection_string:
          host === null ? null : `postgresql://${encodeURIComponent(facts.user)}:[YOUR-PASSWORD]@${host}:${port}/${encodeURIComponent(facts.database)}`,
        pooler: { enabled: false },
        max_connections: Number(facts.max_connections),
        size_bytes: Number(facts.size_bytes),
      }
      return c.json(body)
    } catch (err) {
      if (err instanceof ProjectDbError) return answerDatabaseFailure(c, err, "The project's database is not available right now")
      throw err
    }
  })

  return app
}

export function settingsDevRoutes({ db, clock, ownUrl }: Deps) {
  const app = new Hono()
  app.on(...at(endpoints.devSetCustomHostname), refParam, validate('json', endpoints.devSetCustomHostname.body), anyProject(db), async (c) => {
    const body = c.req.valid('json')
    const project = c.var.project
    if (body.hostname === null) {
      await deleteHostname(db, project.id)
      return c.json({ hostname: null })
    }
    const row = await upsertHostname(db, {
      projectId: project.id,
      id: randomUUID(),
      hostname: body.hostname,
      status: body.status ?? '5_services_reconfigured',
      now: clock.now(),
    })
    return c.json(hostnameResponse(row, project.ref, new URL(ownUrl.origin).host))
  })
  return app
}
