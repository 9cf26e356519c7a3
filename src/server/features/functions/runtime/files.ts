/**
 * The deployed files of a function, for the dashboard's code viewer:
 *   GET /platform/projects/{ref}/functions/{slug}/files → FunctionFiles
 * Any member reads them (as the Management API's `…/body` answers any member); the files are the stored version's,
 * or its single body when it was made with one.
 */
import { Hono } from 'hono'
import * as z from 'zod'
import { ProjectRef } from '../../../../contracts/common'
import * as endpoints from '../../../../contracts/endpoints/functionRuntime'
import type { FunctionFiles } from '../../../../contracts/functionRuntime'
import type { Deps } from '../../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../../core/http'
import { memberProject } from '../../projects/access'
import { findRunnable, functionFiles } from './store'

const SlugParam = z.object({ ref: ProjectRef, slug: z.string().regex(/^[A-Za-z0-9_-]+$/, 'function_slug: letters, digits, - and _ only').max(128) })

export function functionFilesRoutes({ db }: Pick<Deps, 'db'>) {
  const app = new Hono<AppEnv>()
  app.on(...at(endpoints.getFunctionFiles), validate('param', SlugParam), memberProject(db), async (c) => {
    const { slug } = c.req.valid('param')
    const fn = await findRunnable(db, c.var.project.id, slug)
    if (!fn) return errorJson(c, 404, `No edge function '${slug}' in this project`)
    const stored = await functionFiles(db, fn.id)
    const files = stored.length > 0 ? stored : [{ name: fn.entrypoint_path, content: fn.body }]
    return c.json({ entrypoint_path: fn.entrypoint_path, version: fn.version, files } satisfies FunctionFiles)
  })
  return app
}
