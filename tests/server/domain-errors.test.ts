/**
 * The one mapping from domain errors to HTTP answers (src/server/core/domainErrors.ts): a project that is not
 * ACTIVE_HEALTHY is 409, an unavailable or busy project database 503 (busy with Retry-After), any other failure of
 * the platform's own database work 500; every answer an ErrorBody with the domain code.
 */
import { Hono, type Context } from 'hono'
import { describe, expect, it } from 'vitest'
import { ErrorBody } from '../../src/contracts/common'
import { answerDatabaseFailure, answerNotActive, databaseFailureStatus, DOMAIN_ERROR_STATUS } from '../../src/server/core/domainErrors'
import { ProjectDbError } from '../../src/server/projectdb/types'

async function answer(respond: (c: Context) => Response) {
  const app = new Hono()
  app.get('/', (c) => respond(c))
  const res = await app.request('/')
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: ErrorBody.parse(await res.json()) }
}

describe('the answers to domain errors', () => {
  it('give one status per cause', () => {
    expect(DOMAIN_ERROR_STATUS).toEqual({ project_not_active: 409, database_unavailable: 503, database_busy: 503, database_failed: 500 })
    expect(databaseFailureStatus('database_unavailable')).toBe(503)
    expect(databaseFailureStatus('database_busy')).toBe(503)
    for (const code of ['query_timeout', 'invalid_ref', 'transaction_closed', 'database_error', '42P01']) {
      expect(databaseFailureStatus(code), code).toBe(500)
    }
  })

  it('answer an unavailable database 503 in the words of the feature, with its code', async () => {
    const err = new ProjectDbError('the project is INACTIVE', { code: 'database_unavailable' })
    expect(await answer((c) => answerDatabaseFailure(c, err, 'The databases cannot be compared right now'))).toEqual({
      status: 503,
      retryAfter: null,
      body: { message: 'The databases cannot be compared right now: the project is INACTIVE', code: 'database_unavailable' },
    })
  })

  it('answer a busy database 503 with Retry-After, in the same words wherever it is met', async () => {
    const err = new ProjectDbError('every slot is held', { code: 'database_busy', retryAfterSeconds: 3 })
    expect(await answer((c) => answerDatabaseFailure(c, err, 'The databases cannot be compared right now'))).toEqual({
      status: 503,
      retryAfter: '3',
      body: { message: "The project's database is busy: every slot is held", code: 'database_busy' },
    })
  })

  it('answer any other failure 500 with its code', async () => {
    const err = new ProjectDbError('canceling statement due to statement timeout', { code: 'query_timeout' })
    expect(await answer((c) => answerDatabaseFailure(c, err, "The project's database is not available right now"))).toEqual({
      status: 500,
      retryAfter: null,
      body: { message: "The project's database is not available right now: canceling statement due to statement timeout", code: 'query_timeout' },
    })
  })

  it('answer a project that is not up 409 project_not_active, naming what waits', async () => {
    const what = { restoreTo: 'use its database', onceActive: 'its database can be used' }
    expect((await answer((c) => answerNotActive(c, 'INACTIVE', what))).body).toEqual({
      message: 'The project is paused: restore it to use its database',
      code: 'project_not_active',
    })
    const upgrading = await answer((c) => answerNotActive(c, 'UPGRADING', what))
    expect(upgrading.status).toBe(409)
    expect(upgrading.body.message).toBe('The project is UPGRADING: its database can be used once it is ACTIVE_HEALTHY')
  })
})
