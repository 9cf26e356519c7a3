/**
 * The Management API's read of a deployed function's source, for any member of the project's organization:
 *   GET /v1/projects/{ref}/functions/{slug}/body   by the request's Accept:
 *     multipart/form-data   a `metadata` part ({ entrypoint_path }) and one part per file with its path (Supabase-Path
 *                           and the file name), as the CLI's `functions download --use-api` reads them
 *     text/plain            the entrypoint's source alone
 *     anything else         JSON in the contract's object: the files by path, the entrypoint, the version
 * A function made from a body alone (no deployed files) has that body as its one file, the entrypoint.
 */
import { randomBytes } from 'node:crypto'
import { Hono } from 'hono'
import * as z from 'zod'
import { ProjectRef } from '../../../contracts/common'
import * as endpoints from '../../../contracts/endpoints'
import type { V1FunctionBody } from '../../../contracts/v1Reads'
import type { Deps } from '../../core/deps'
import { at, errorJson, validate, type AppEnv } from '../../core/http'
import { memberProject } from '../projects/access'
import { findRunnable, functionFiles } from './runtime/store'

const SlugParam = z.object({ ref: ProjectRef, slug: z.string().regex(/^[A-Za-z0-9_-]+$/, 'function_slug: letters, digits, - and _ only').max(128) })

/** Which of the three answers the Accept header asks for (the first of them it names, in its own order). */
function wanted(accept: string | undefined): 'multipart' | 'text' | 'json' {
  for (const type of (accept ?? '').split(',').map((t) => t.split(';')[0].trim().toLowerCase())) {
    if (type === 'multipart/form-data') return 'multipart'
    if (type === 'text/plain') return 'text'
    if (type === 'application/json') return 'json'
  }
  return 'json'
}

/** A multipart/form-data body of the metadata and the files, each file's path in its own header. */
function multipart(entrypoint: string, files: V1FunctionBody['files']): { body: Buffer; boundary: string } {
  const boundary = `kp-function-${randomBytes(12).toString('hex')}`
  const parts: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="metadata"\r\nContent-Type: application/json\r\n\r\n${JSON.stringify({ entrypoint_path: entrypoint })}\r\n`,
    ),
  ]
  for (const file of files) {
    const path = encodeURIComponent(file.name).replace(/%2F/g, '/')
    parts.push(
      Buffer.from(
        // Quotes and line breaks would end the header: percent-encoded, as browsers do.
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name.replace(/["\r\n%]/g, encodeURIComponent)}"\r\n` +
          `Supabase-Path: ${path}\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      Buffer.from(file.content),
      Buffer.from('\r\n'),
    )
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`))
  return { body: Buffer.concat(parts), boundary }
}

export function functionV1Routes({ db }: Deps) {
  const app = new Hono<AppEnv>()
  const project = memberProject(db)

  app.on(...at(endpoints.getFunctionBody), validate('param', SlugParam), project, async (c) => {
    const { slug } = c.req.valid('param')
    const fn = await findRunnable(db, c.var.project.id, slug)
    if (!fn) return errorJson(c, 404, `No edge function '${slug}' in this project`)
    const stored = await functionFiles(db, fn.id)
    const files = stored.length > 0 ? stored : [{ name: fn.entrypoint_path, content: fn.body }]
    const kind = wanted(c.req.header('accept'))
    if (kind === 'text') {
      const entry = files.find((f) => f.name === fn.entrypoint_path)?.content ?? fn.body
      return c.body(entry, 200, { 'content-type': 'text/plain; charset=utf-8' })
    }
    if (kind === 'multipart') {
      const { body, boundary } = multipart(fn.entrypoint_path, files)
      return c.body(new Uint8Array(body), 200, { 'content-type': `multipart/form-data; boundary=${boundary}` })
    }
    return c.json({ slug: fn.slug, version: fn.version, entrypoint_path: fn.entrypoint_path, files } satisfies V1FunctionBody)
  })

  return app
}
