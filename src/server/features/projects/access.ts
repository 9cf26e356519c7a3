/**
 * The `:ref` of a project route, in one place: validated (400 'Project ref is required'), then the project loaded
 * for the signed-in member of its organization (404 'Project not found' for an unknown ref and for a project of an
 * organization the person does not belong to, so the two cannot be told apart).
 */
import * as z from 'zod'
import type { Context } from 'hono'
import { createMiddleware } from 'hono/factory'
import { ProjectRef } from '../../../contracts/common'
import type { Queryable } from '../../db'
import { cacheFor } from '../../core/cache'
import { errorJson, formatIssues, validate, type AppEnv } from '../../core/http'
import { findMemberProject, findProjectByRef, type MemberProjectRow, type ProjectRow } from './store'
import { answerNotActive } from '../../core/domainErrors'

/**
 * What other features may use of projects: this module is the projects feature's one face to them (reading a
 * project, making one, the free-project limit a restore obeys too); the rest of the folder is its own.
 */
export { findMemberProject, findProjectByRef, insertProject, toProject, type NewProject } from './store'
export { freeLimitMessage, lockFreeProjectCounts, membersAtFreeLimit } from './freeLimit'

const PROJECT_NOT_FOUND = 'Project not found'

/**
 * Validates `:ref` only. Routes that validate a body (or query) put it first, so a bad ref is reported before a
 * bad body, and the body before an unknown project, as each route always has.
 */
export const refParam = validate('param', z.object({ ref: ProjectRef }))

function parseRef(c: { req: { param(name: string): string | undefined } }) {
  return ProjectRef.safeParse(c.req.param('ref'))
}

/** The env of a route behind memberProject: `c.var.project` is the member's project, with the member's role. */
export type MemberProjectEnv = AppEnv & { Variables: { project: MemberProjectRow } }

/**
 * Validates `:ref` and loads the project of the signed-in member into `c.var.project` (with the member's role),
 * through the in-memory cache (src/server/core/cache.ts: dropped on any change of the project, its organization or
 * the member's memberships). `c.var.project` is frozen: it may serve other requests.
 */
export function memberProject(db: Queryable) {
  const cache = cacheFor(db)
  return createMiddleware<MemberProjectEnv>(async (c, next) => {
    const ref = parseRef(c)
    if (!ref.success) return c.json({ message: formatIssues(ref.error.issues, 'param') }, 400)
    const accountId = c.get('account').id
    const load = () => findMemberProject(db, accountId, ref.data)
    const project = cache ? await cache.loadMemberProject(accountId, ref.data, load) : await load()
    if (!project) return errorJson(c, 404, PROJECT_NOT_FOUND)
    c.set('project', project)
    await next()
  })
}

/** Development controls (no session): validates `:ref` and loads any project into `c.var.project`. */
export function anyProject(db: Queryable) {
  return createMiddleware<{ Variables: { project: ProjectRow } }>(async (c, next) => {
    const ref = parseRef(c)
    if (!ref.success) return c.json({ message: formatIssues(ref.error.issues, 'param') }, 400)
    const project = await findProjectByRef(db, ref.data)
    if (!project) return errorJson(c, 404, PROJECT_NOT_FOUND)
    c.set('project', project)
    await next()
  })
}

/**
 * 409 `project_not_active` unless the project is ACTIVE_HEALTHY (a paused, restoring, upgrading … project's services
 * cannot be reached); undefined when it is. `what` names what waits: the database, the buckets, the edge functions.
 */
export function refuseUnlessActive(c: Context<MemberProjectEnv>, what: { restoreTo: string; onceActive: string }) {
  const { status } = c.var.project
  return status === 'ACTIVE_HEALTHY' ? undefined : answerNotActive(c, status, what)
}

/** The database's words, also used where a request needs the project's database (its buckets). */
export const DATABASE_UNAVAILABLE = { restoreTo: 'use its database', onceActive: 'its database can be used' }
