/**
 * The Management API's reads of what a project's auth service trusts besides its own JWT secret, for any member of
 * the project's organization. The service here verifies only tokens signed with that secret: it takes no
 * third-party issuer and no SAML identity provider, and nothing can add one, so the lists are empty and an item is
 * never found.
 *   GET /v1/projects/{ref}/config/auth/third-party-auth[/{tpa_id}]   ThirdPartyAuth[]
 *   GET /v1/projects/{ref}/config/auth/sso/providers[/{provider_id}] ListProvidersResponse
 */
import { Hono } from 'hono'
import * as z from 'zod'
import { ProjectRef } from '../../../contracts/common'
import { endpoint } from '../../../contracts/endpoint'
import { V1SsoProviders, V1ThirdPartyAuthList } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { memberProject, refParam } from '../projects/access'

const v1ListThirdPartyAuth = endpoint('GET', 'v1', '/projects/:ref/config/auth/third-party-auth', { response: V1ThirdPartyAuthList })
const v1GetThirdPartyAuth = endpoint('GET', 'v1', '/projects/:ref/config/auth/third-party-auth/:tpa_id')
const v1ListSsoProviders = endpoint('GET', 'v1', '/projects/:ref/config/auth/sso/providers', { response: V1SsoProviders })
const v1GetSsoProvider = endpoint('GET', 'v1', '/projects/:ref/config/auth/sso/providers/:provider_id')
const TpaParam = z.object({ ref: ProjectRef, tpa_id: z.uuid('tpa_id must be a UUID') })
const ProviderParam = z.object({ ref: ProjectRef, provider_id: z.uuid('provider_id must be a UUID') })

export function authV1Routes({ db }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(v1ListThirdPartyAuth), refParam, project, (c) => c.json([] satisfies V1ThirdPartyAuthList))
  app.on(...at(v1GetThirdPartyAuth), validate('param', TpaParam), project, (c) => errorJson(c, 404, 'Third-party auth integration not found'))
  app.on(...at(v1ListSsoProviders), refParam, project, (c) => c.json({ items: [] } satisfies V1SsoProviders))
  app.on(...at(v1GetSsoProvider), validate('param', ProviderParam), project, (c) => errorJson(c, 404, 'SSO provider not found'))

  return app
}
