/**
 * A project in the Management API's shape (../shared/reference/management-api.openapi.json), and the project reads
 * that come before `/v1/projects/{ref}` (app.ts mounts them first: `available-regions` would read as a ref):
 *   GET /v1/projects/available-regions   the regions a project of the organization may be created in (POST
 *                                        /v1/projects takes any of them), for any member of the organization
 */
import { Hono } from 'hono'
import type { ProjectStatus } from '../../../contracts/common'
import { REGIONS } from '../../../contracts/database'
import { endpoint } from '../../../contracts/endpoint'
import type { V1ProjectWithDatabase } from '../../../contracts/v1'
import { V1AvailableRegions, V1AvailableRegionsQuery } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { iso } from '../../core/rows'
import { findMemberOrganization } from '../organizations/access'
import type { ProjectRow } from './store'

const v1Status = (s: ProjectStatus): V1ProjectWithDatabase['status'] => (s === 'RESTORATION_FAILED' ? 'RESTORE_FAILED' : s)

export function toV1Project(row: ProjectRow, host: string): V1ProjectWithDatabase {
  return {
    id: row.ref,
    ref: row.ref,
    organization_id: String(row.organization_id),
    organization_slug: row.organization_slug,
    name: row.name,
    region: row.region,
    created_at: iso(row.inserted_at),
    status: v1Status(row.status),
    database: {
      host: `db.${row.ref}.${host}`,
      version: row.db_version,
      postgres_engine: row.db_version.split('.')[0],
      release_channel: 'ga',
    },
  }
}

type Region = (typeof REGIONS)[number]
type SmartGroup = V1AvailableRegions['recommendations']['smartGroup']
type Continent = 'NA' | 'SA' | 'EU' | 'AF' | 'AS' | 'OC' | 'AN'

const SMART_GROUPS: Record<SmartGroup['code'], SmartGroup> = {
  americas: { name: 'Americas', code: 'americas', type: 'smartGroup' },
  emea: { name: 'Europe, Middle East and Africa', code: 'emea', type: 'smartGroup' },
  apac: { name: 'Asia-Pacific', code: 'apac', type: 'smartGroup' },
}

/** Each region's name and group. The codes are AWS's region names, which the contract only knows as AWS regions. */
const REGION_FACTS: Record<Region, { name: string; group: SmartGroup['code'] }> = {
  'us-east-1': { name: 'East US (North Virginia)', group: 'americas' },
  'us-east-2': { name: 'East US (Ohio)', group: 'americas' },
  'us-west-1': { name: 'West US (North California)', group: 'americas' },
  'us-west-2': { name: 'West US (Oregon)', group: 'americas' },
  'ca-central-1': { name: 'Canada (Central)', group: 'americas' },
  'sa-east-1': { name: 'South America (São Paulo)', group: 'americas' },
  'eu-west-1': { name: 'West EU (Ireland)', group: 'emea' },
  'eu-west-2': { name: 'West Europe (London)', group: 'emea' },
  'eu-west-3': { name: 'West EU (Paris)', group: 'emea' },
  'eu-north-1': { name: 'North EU (Stockholm)', group: 'emea' },
  'eu-central-1': { name: 'Central EU (Frankfurt)', group: 'emea' },
  'eu-central-2': { name: 'Central Europe (Zurich)', group: 'emea' },
  'ap-east-1': { name: 'East Asia (Hong Kong)', group: 'apac' },
  'ap-southeast-1': { name: 'Southeast Asia (Singapore)', group: 'apac' },
  'ap-northeast-1': { name: 'Northeast Asia (Tokyo)', group: 'apac' },
  'ap-northeast-2': { name: 'Northeast Asia (Seoul)', group: 'apac' },
  'ap-southeast-2': { name: 'Oceania (Sydney)', group: 'apac' },
  'ap-south-1': { name: 'South Asia (Mumbai)', group: 'apac' },
}

/** The group a continent's people are nearest to; without one, the Americas (where POST /v1/projects defaults). */
const GROUP_OF_CONTINENT: Record<Continent, SmartGroup['code']> = { NA: 'americas', SA: 'americas', EU: 'emea', AF: 'emea', AS: 'apac', OC: 'apac', AN: 'apac' }

const specific = (code: Region) => ({ name: REGION_FACTS[code].name, code, type: 'specific' as const, provider: 'AWS' as const })

const v1AvailableRegions = endpoint('GET', 'v1', '/projects/available-regions', { query: V1AvailableRegionsQuery, response: V1AvailableRegions })

export function projectV1Routes({ db }: Deps) {
  const app = new Hono<AppEnv>()

  app.on(...at(v1AvailableRegions), validate('query', V1AvailableRegionsQuery), async (c) => {
    const { organization_slug: slug, continent } = c.req.valid('query')
    if (!(await findMemberOrganization(db, c.get('account').id, slug))) return errorJson(c, 404, 'Organization not found')
    // Every region runs on this machine: none is ever short of capacity, so none carries a status.
    const group = GROUP_OF_CONTINENT[continent ?? 'NA']
    return c.json({
      recommendations: { smartGroup: SMART_GROUPS[group], specific: REGIONS.filter((r) => REGION_FACTS[r].group === group).map(specific) },
      all: { smartGroup: Object.values(SMART_GROUPS), specific: REGIONS.map(specific) },
    } satisfies V1AvailableRegions)
  })

  return app
}
