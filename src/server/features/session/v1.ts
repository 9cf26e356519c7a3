/** The Management API's GET /v1/profile: the signed-in account (session or access token), as V1ProfileResponse. */
import { Hono } from 'hono'
import { endpoint } from '../../../contracts/endpoint'
import { V1Profile } from '../../../contracts/v1Reads'
import { at, type AppEnv } from '../../core/http'

const v1GetProfile = endpoint('GET', 'v1', '/profile', { response: V1Profile })

export function profileV1Routes() {
  const app = new Hono<AppEnv>()
  app.on(...at(v1GetProfile), (c) => {
    const account = c.get('account')
    return c.json({ gotrue_id: String(account.id), primary_email: account.primary_email, username: account.username } satisfies V1Profile)
  })
  return app
}
