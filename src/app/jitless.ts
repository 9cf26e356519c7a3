/**
 * Imported first by main.tsx, before any schema is built. The server's Content-Security-Policy has no
 * 'unsafe-eval' (src/server/core/guards.ts); zod would otherwise probe `new Function` to compile its object
 * parsers, which the browser reports as a policy violation even though zod catches the refusal.
 */
import { config } from 'zod/v4/core'

config({ jitless: true })
