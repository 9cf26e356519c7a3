/** The built dashboard: files from dist/, SPA fallback to dist/index.html, a hint when not built. */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Context, MiddlewareHandler } from 'hono'
import { documentContentSecurityPolicy } from './core/guards'
import { isApiPath, type AppEnv } from './core/http'

// No inline style or script: the Content-Security-Policy (core/guards.ts) allows only files from this server.
const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><h1>The dashboard is not built yet</h1>
<p>Run <code>npm run build</code> (or <code>npm start</code>, which builds first), then reload this page.
The API is already running under <code>/platform</code> and <code>/v1</code>.</p></body></html>`

/**
 * The dashboard's document with a style nonce of its own: in the Content-Security-Policy header, and in a meta element
 * the page reads (the SQL Editor's code editor puts it on the style element it adds).
 */
function documentAnswer(c: Context<AppEnv>, html: string) {
  const nonce = randomBytes(16).toString('base64')
  const withNonce = html.replace(/<head>/i, `<head><meta name="csp-nonce" content="${nonce}">`)
  return c.html(withNonce, 200, { 'Content-Security-Policy': documentContentSecurityPolicy(nonce) })
}

export function dashboard(distDir: string): MiddlewareHandler<AppEnv> {
  let files: MiddlewareHandler<AppEnv> | undefined
  const indexPath = path.join(distDir, 'index.html')
  return async (c, next) => {
    if ((c.req.method !== 'GET' && c.req.method !== 'HEAD') || isApiPath(c.req.path)) return next()
    if (!existsSync(indexPath)) return c.html(NOT_BUILT, 200)
    if (c.req.path === '/' || c.req.path === '/index.html') return documentAnswer(c, await readFile(indexPath, 'utf8'))
    files ??= serveStatic<AppEnv>({ root: distDir })
    const served = await files(c, async () => {})
    if (served) return served
    // Unknown paths are client-side routes: the SPA decides.
    return documentAnswer(c, await readFile(indexPath, 'utf8'))
  }
}
